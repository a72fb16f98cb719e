import type { BlockState } from '@message-stream/core';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { splitMarkdown } from '../../src/markdown/split.js';
import { repairStreamingTail, tailRepairWork } from '../../src/markdown/tail.js';

afterEach(cleanup);

/** What the last chunk of `text` displays as while streaming. */
function repaired(text: string): string {
  const split = splitMarkdown(text);
  const last = split.chunks.at(-1);
  return last ? repairStreamingTail(last.text, split.openFence) : '';
}

describe('repairStreamingTail', () => {
  it('closes an open fence with the same fence and indentation', () => {
    expect(repaired('```ts\nconst a')).toBe('```ts\nconst a\n```');
    expect(repaired('~~~~\ncode\n')).toBe('~~~~\ncode\n~~~~');
  });

  it('drops a closing fence still being typed, and an opening line still getting its language', () => {
    expect(repaired('```\ncode\n``')).toBe('```\ncode\n```');
    expect(repaired('text\n```ty')).toBe('text');
  });

  it('strips a dangling emphasis or code marker at the very end', () => {
    expect(repaired('Some **')).toBe('Some ');
    // Half of the closing `**` is dropped; the bold it closes is then closed whole.
    expect(repaired('Some **bold*')).toBe('Some **bold**');
    expect(repaired('an _')).toBe('an ');
    expect(repaired('snake_')).toBe('snake');
    expect(repaired('use `')).toBe('use ');
    expect(repaired('~~')).toBe('');
  });

  it('keeps a marker that closes something', () => {
    expect(repaired('Some **bold**')).toBe('Some **bold**');
    expect(repaired('*a* and `b`')).toBe('*a* and `b`');
    expect(repaired('~~gone~~')).toBe('~~gone~~');
  });

  it('shows a half-written link or image as its text', () => {
    expect(repaired('See [the docs](http://exa')).toBe('See the docs');
    expect(repaired('See [the docs](')).toBe('See the docs');
    expect(repaired('See [the docs]')).toBe('See the docs');
    expect(repaired('See [the do')).toBe('See the do');
    expect(repaired('A ![chart](https://img')).toBe('A chart');
  });

  it('leaves complete links, footnote references, task boxes and brackets in code alone', () => {
    expect(repaired('See [docs](https://example.com)')).toBe('See [docs](https://example.com)');
    expect(repaired('Note[^1]')).toBe('Note[^1]');
    expect(repaired('- [ ]')).toBe('- [ ]');
    // The bracket is code, not a half link; the code span being written is closed for display.
    expect(repaired('use `arr[i')).toBe('use `arr[i`');
  });

  it('hides a last line that is only block syntax so far', () => {
    expect(repaired('Intro\n-')).toBe('Intro');
    expect(repaired('Intro\n\n#')).toBe('');
    expect(repaired('Title\n==')).toBe('Title');
    expect(repaired('1.')).toBe('');
  });
});

describe('repairStreamingTail closes what the last line opened', () => {
  it('closes emphasis, strikethrough and code being written, so they stream formatted', () => {
    expect(repaired('It is **easy to g')).toBe('It is **easy to g**');
    expect(repaired('It is **easy** and *fine')).toBe('It is **easy** and *fine*');
    expect(repaired('a ***both')).toBe('a ***both***');
    expect(repaired('(**note')).toBe('(**note**');
    expect(repaired('~~gone')).toBe('~~gone~~');
    expect(repaired('**a _b')).toBe('**a _b_**');
    expect(repaired('Use `arr.map(')).toBe('Use `arr.map(`');
    expect(repaired('Use `a` and `b')).toBe('Use `a` and `b`');
    expect(repaired('- item **bo')).toBe('- item **bo**');
    // Trailing spaces would stop the closer from closing: they go first.
    expect(repaired('It is **easy ')).toBe('It is **easy**');
  });

  it('opens nothing inside words, with spaces on both sides, escaped, or closed already', () => {
    for (const text of [
      'snake_case_na',
      '2*3 and 5*x',
      'x ** y',
      'This is \\*not',
      'Done **.** ok',
      'Just text',
      `a ${'*'.repeat(4)}x`,
      'It takes ~5 minutes to bu',
      'cd ~/projects and the',
      'See https://example.com/_private and',
      'At http://host/a~b_c d',
    ]) {
      expect(repaired(text)).toBe(text);
    }
  });

  it('reads only the last line, and in a table row only its last cell', () => {
    expect(repaired('**open on one line\nnext line')).toBe('**open on one line\nnext line');
    expect(repaired('| a | b |\n| - | - |\n| **x** | **y')).toBe(
      '| a | b |\n| - | - |\n| **x** | **y**',
    );
  });

  it('renders the line being written as bold, not as asterisks', () => {
    const { container } = render(<TextBlockView text="It is **easy to g" streaming />);
    expect(container.querySelector('strong')?.textContent).toBe('easy to g');
    expect(container.textContent).not.toContain('*');
  });
});

describe('a text cut off where its stream broke', () => {
  it('keeps its end repaired: half a link shows as its text, with no link to a half URL', () => {
    const text =
      'Read [streaming documentation](https://docs.anthropic.com/en/docs/build-with-clau';
    const { container } = render(<TextBlockView text={text} incomplete />);
    expect(container.textContent).toBe('Read streaming documentation');
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('[aria-busy]')).toBeNull();
  });

  it('is what ContentBlockView shows for an incomplete text block', async () => {
    const { ContentBlockView } = await import('../../src/components/content-block-view.js');
    const block: BlockState = {
      index: 0,
      status: 'incomplete',
      block: { type: 'text', text: 'It was **almost d', citations: null },
    };
    const { container } = render(<ContentBlockView block={block} />);
    expect(container.querySelector('strong')?.textContent).toBe('almost d');
  });
});

describe('repairStreamingTail on long runs of markers (issue 14, defect 2)', () => {
  /** Steps the repair takes on `text`, counted by the repair itself (one per character visited). */
  function stepsFor(text: string): number {
    tailRepairWork.steps = 0;
    repairStreamingTail(text, null);
    return tailRepairWork.steps;
  }

  const n = 40_000;
  for (const marker of ['*', '_', '~', '`']) {
    it(`visits each character a bounded number of times on a paragraph of ${n} ${marker}`, () => {
      const shapes = [
        marker.repeat(n),
        `a ${marker.repeat(n)}x`,
        `${marker.repeat(n)} a${marker}`,
        `x${marker}`.repeat(n / 2),
        `a\`b\` ${marker.repeat(n)}`,
      ];
      // At most four passes over a character: the dangling marker's backtick runs and its
      // count, then the closing pass's backtick runs and its scan of the last line.
      for (const text of shapes) expect(stepsFor(text)).toBeLessThanOrEqual(4 * text.length);
      // Work is proportional to the text: ten times the text, at most ten times the steps.
      const small = stepsFor(`w ${marker.repeat(n / 10)}`);
      expect(stepsFor(`w ${marker.repeat(n)}`)).toBeLessThanOrEqual(10 * small + 10);
    });
  }

  it('still decides on the trailing run only', () => {
    expect(repairStreamingTail(`${'*'.repeat(n)}`, null)).toBe('');
    expect(repairStreamingTail(`a ${'*'.repeat(n)}x`, null)).toBe(`a ${'*'.repeat(n)}x`);
    // An even count before the trailing `*`: it closes emphasis and stays.
    expect(repairStreamingTail(`${'x*'.repeat(3)}`, null)).toBe('x*x*x');
    expect(repairStreamingTail(`${'x*'.repeat(4)}`, null)).toBe('x*x*x*x*');
  });

  it('does not count markers inside code spans, matched by backtick-run length', () => {
    // The `*` inside the code span is code: the trailing `*` is the only one, so it dangles.
    expect(repairStreamingTail('`a*b` word*', null)).toBe('`a*b` word');
    // `` closes only at ``; the single backtick inside is code too.
    expect(repairStreamingTail('``a`*`` word*', null)).toBe('``a`*`` word');
    // A backtick run with no partner of its length opens code still being written: what
    // follows it is code, kept as it is, and the span is closed for display.
    expect(repairStreamingTail('``a *b* c*', null)).toBe('``a *b* c*``');
    expect(repairStreamingTail('``a *b c*', null)).toBe('``a *b c*``');
  });

  it('trims a long blank run before an opening fence line in one pass', () => {
    const text = `x${' '.repeat(n)}y \n\`\`\`ty`;
    expect(repaired(text)).toBe(`x${' '.repeat(n)}y`);
  });
});

describe('TextBlockView streaming tail', () => {
  it('renders an open fence as a code block while streaming', () => {
    const { container } = render(<TextBlockView text={'Run:\n\n```bash\nnpm install'} streaming />);
    const code = container.querySelector('pre code');
    expect(code?.textContent).toBe('npm install\n');
    expect(container.textContent).not.toContain('```');
  });

  it('does not show a dangling ** while streaming', () => {
    const { container } = render(<TextBlockView text="The answer is **" streaming />);
    expect(container.textContent).toBe('The answer is');
    expect(container.querySelector('strong')).toBeNull();
  });

  it('shows a half-written link as its text, without brackets or a link, while streaming', () => {
    const { container } = render(<TextBlockView text="Read [the guide](http://exa" streaming />);
    expect(container.textContent).toBe('Read the guide');
    expect(container.querySelector('a')).toBeNull();
  });

  it('renders the link once it is complete', () => {
    const { container } = render(
      <TextBlockView text="Read [the guide](http://example.com/guide)" streaming />,
    );
    expect(container.querySelector('a')?.getAttribute('href')).toBe('http://example.com/guide');
  });

  it('repairs nothing once the text is complete: it renders as written', () => {
    const { container } = render(<TextBlockView text="The answer is **" />);
    expect(container.textContent).toBe('The answer is **');
  });

  it('repairs only the last chunk', () => {
    const { container } = render(
      <TextBlockView text={'First ends with **\n\nSecond ends with **'} streaming />,
    );
    const paragraphs = [...container.querySelectorAll('p')].map((p) => p.textContent);
    expect(paragraphs).toEqual(['First ends with **', 'Second ends with']);
  });
});
