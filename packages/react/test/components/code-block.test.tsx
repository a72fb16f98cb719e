import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Shiki and a grammar load on first use: on a busy machine that takes more than a second. */
const LOAD = { timeout: 10_000 };

import { CodeBlock } from '../../src/components/code-block.js';
import { fileNameFor } from '../../src/components/code-block-body.js';
import { splitLines } from '../../src/components/code-lines.js';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { recordAppend } from '../../src/text-growth.js';
import { axeViolations } from './support.js';

afterEach(cleanup);

/** The token spans of each line: what carries the colours. */
function tokenSpans(container: Element): HTMLElement[][] {
  return [...container.querySelectorAll('.ms-code__line')].map((line) => [
    ...line.querySelectorAll<HTMLElement>('.ms-code__tok'),
  ]);
}

function colours(spans: HTMLElement[]): string[] {
  return spans.map(
    (span) =>
      `${span.textContent}|${span.style.getPropertyValue('--ms-tok-light')}|${span.style.getPropertyValue('--ms-tok-dark')}`,
  );
}

describe('CodeBlock', () => {
  it('highlights a known language with light and dark colours on token spans', async () => {
    const { container } = render(<CodeBlock code={'const answer = 42;\n// done'} language="ts" />);
    // Both lines coloured (the first slice may end after one line while the grammar compiles).
    await waitFor(() => expect(tokenSpans(container)[1]?.length).toBeGreaterThan(0), LOAD);
    const [first, second] = tokenSpans(container);
    // A blank after a token joins it: one element fewer, and its colour shows nowhere.
    const keyword = first?.find((span) => span.textContent === 'const ');
    expect(keyword?.style.getPropertyValue('--ms-tok-light')).toMatch(/^#[0-9a-f]{6}$/);
    expect(keyword?.style.getPropertyValue('--ms-tok-dark')).toMatch(/^#[0-9a-f]{6}$/);
    // The comment is coloured differently from the keyword.
    expect(second?.[0]?.style.getPropertyValue('--ms-tok-light')).not.toBe(
      keyword?.style.getPropertyValue('--ms-tok-light'),
    );
    // Text in the theme's default colour is plain text in the block's colour, not an element.
    expect(first?.map((span) => span.textContent).join('')).toBe('const answer = 42');
    expect(container.querySelector('.ms-code__line')?.textContent).toBe('const answer = 42;');
    // The text is exactly the code, highlighted or not.
    expect(container.querySelector('code')?.textContent).toBe('const answer = 42;\n// done\n');
  });

  it('keeps finished lines the same elements with the same colours while more lines stream in', async () => {
    const lines = [
      'function add(a: number, b: number) {',
      '  return a + b; // sum',
      '}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source, not a template.
      'const s = `template ${add(1, 2)}`;',
    ];
    const { container, rerender } = render(<CodeBlock code={`${lines[0]}\n  ret`} language="ts" />);
    await waitFor(() => expect(tokenSpans(container)[0]?.length).toBeGreaterThan(2), LOAD);
    const firstSpans = tokenSpans(container)[0] ?? [];
    const firstColours = colours(firstSpans);

    let code = `${lines[0]}\n${lines[1]}`;
    rerender(<CodeBlock code={code} language="ts" />);
    await waitFor(
      () =>
        expect(tokenSpans(container)[1]?.some((s) => s.textContent?.trim() === 'return')).toBe(
          true,
        ),
      LOAD,
    );
    const secondSpans = tokenSpans(container)[1] ?? [];
    const secondColours = colours(secondSpans);

    for (const line of lines.slice(2)) {
      code += `\n${line}`;
      rerender(<CodeBlock code={code} language="ts" />);
    }
    await waitFor(() => expect(tokenSpans(container)[3]?.length).toBeGreaterThan(2), LOAD);
    const after = tokenSpans(container);
    // Same DOM nodes (React did not re-create them) and the same colours.
    expect(after[0]).toHaveLength(firstSpans.length);
    for (const [i, span] of (after[0] ?? []).entries()) expect(span).toBe(firstSpans[i]);
    for (const [i, span] of (after[1] ?? []).entries()) expect(span).toBe(secondSpans[i]);
    expect(colours(after[0] ?? [])).toEqual(firstColours);
    expect(colours(after[1] ?? [])).toEqual(secondColours);
  });

  it('renders an unknown language plain, with its label and the exact text', async () => {
    const { container } = render(<CodeBlock code={'foo bar\nbaz'} language="no-such-lang" />);
    expect(screen.queryByText('no-such-lang')).not.toBeNull();
    // Give the loader time to answer "unknown".
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(container.querySelector('.ms-code__tok')).toBeNull();
    expect(container.querySelector('.ms-code--highlighted')).toBeNull();
    expect(container.querySelector('code')?.textContent).toBe('foo bar\nbaz\n');
  });

  it('lays out plain and highlighted code the same: lines are the same spans with the same text', async () => {
    const code = 'let x = 1;\nx += 2;';
    const { container } = render(<CodeBlock code={code} language="js" />);
    const before = [...container.querySelectorAll('.ms-code__line')];
    expect(before.map((line) => line.textContent)).toEqual(['let x = 1;', 'x += 2;']);
    await waitFor(() => expect(container.querySelector('.ms-code__tok')).not.toBeNull(), LOAD);
    const after = [...container.querySelectorAll('.ms-code__line')];
    for (const [i, line] of after.entries()) expect(line).toBe(before[i]);
    expect(after.map((line) => line.textContent)).toEqual(['let x = 1;', 'x += 2;']);
  });

  it('copies exactly the code', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const code = '  indented\n\ttabbed\n\nlast line  ';
    render(<CodeBlock code={code} language="python" />);
    await user.click(screen.getByRole('button', { name: 'Copy python code' }));
    expect(writeText).toHaveBeenCalledWith(code);
    expect(await screen.findByText('Copied')).toBeTruthy();
  });

  it('offers Download only when asked, named from the language or the given name', () => {
    const { rerender } = render(<CodeBlock code="x" language="python" />);
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
    rerender(<CodeBlock code="x" language="python" download />);
    expect(screen.queryByRole('button', { name: 'Download code.py' })).not.toBeNull();
    rerender(<CodeBlock code="x" language="python" download="script.py" />);
    expect(screen.queryByRole('button', { name: 'Download script.py' })).not.toBeNull();
    expect(fileNameFor(true, undefined)).toBe('code.txt');
    expect(fileNameFor(true, 'c++')).toBe('code.txt');
  });

  it('puts the controls in the tab order and passes axe', async () => {
    const user = userEvent.setup();
    const { container } = render(<CodeBlock code={'print("hi")'} language="python" download />);
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Download');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Copy');
    await user.tab();
    expect(document.activeElement?.tagName).toBe('PRE');
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('TextBlockView code blocks', () => {
  it('renders a fenced block as a CodeBlock with the fence language and its exact code', async () => {
    const { container } = render(<TextBlockView text={'Intro\n\n```py\nprint(1)\n\nx = 2\n```'} />);
    const block = container.querySelector('.ms-code');
    expect(block?.getAttribute('data-language')).toBe('py');
    expect(block?.querySelector('code')?.textContent).toBe('print(1)\n\nx = 2\n');
    await waitFor(() => expect(block?.querySelector('.ms-code__tok')).not.toBeNull(), LOAD);
  });

  it('leaves code plain with highlight={false}', async () => {
    const { container } = render(
      <TextBlockView text={'```js\nconst a = 1;\n```'} highlight={false} />,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(container.querySelector('.ms-code__tok')).toBeNull();
  });
});

describe('splitLines', () => {
  const grouped = (code: string) => {
    const lines = code.split('\n');
    const groups: string[][] = [];
    for (let i = 0; i < lines.length; i += 64) groups.push(lines.slice(i, i + 64));
    return groups;
  };

  it('splits a growing block as a whole split does, keeping the arrays of groups before the last', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-c\n]{0,90}$/), { minLength: 1, maxLength: 40 }),
        (pieces) => {
          let code = '';
          let split = splitLines(code, null);
          for (const piece of pieces) {
            const before = split;
            code += piece;
            split = splitLines(code, before);
            expect(split.groups).toEqual(grouped(code));
            expect(split.lastLineStart).toBe(code.lastIndexOf('\n') + 1);
            for (let g = 0; g < before.groups.length - 1; g++) {
              expect(split.groups[g]).toBe(before.groups[g]);
            }
          }
        },
      ),
    );
  });

  it('splits a recorded append from the last line and the append alone', () => {
    const first = splitLines(`${'x\n'.repeat(100)}en`, null);
    // Recorded wrongly on purpose: the split follows the record, so it did not read the code.
    const next = `${'y\n'.repeat(100)}en${'d\nmore'}`;
    recordAppend(next, first.code, 'd\nmore');
    const grown = splitLines(next, first);
    expect(grown.groups).toEqual(grouped(`${'x\n'.repeat(100)}end\nmore`));
    expect(grown.groups[0]).toBe(first.groups[0]);
    expect(grown.lastLineStart).toBe(next.lastIndexOf('\n') + 1);
  });

  it('splits again from the start when the code changed rather than grew', () => {
    const first = splitLines(`${'x\n'.repeat(100)}end`, null);
    const edited = splitLines(`y\n${'x\n'.repeat(99)}end`, first);
    expect(edited.groups).toEqual(grouped(`y\n${'x\n'.repeat(99)}end`));
    expect(edited.groups[0]).not.toBe(first.groups[0]);
    expect(splitLines(first.code, first)).toBe(first);
  });
});
