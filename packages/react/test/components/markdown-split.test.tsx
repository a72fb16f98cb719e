import longMarkdown from '@message-stream/mock/fixtures/long-markdown.sse?raw';
import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import Markdown from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { afterEach, describe, expect, it } from 'vitest';
import { markdownComponents } from '../../src/markdown/components.js';
import { type MarkdownSplit, splitMarkdown } from '../../src/markdown/split.js';
import { StreamingMarkdown } from '../../src/markdown/streaming-markdown.js';
import { markdownUrlTransform } from '../../src/markdown/url.js';
import { recordAppend } from '../../src/text-growth.js';
import { blockAt, finalState } from './support.js';

afterEach(cleanup);

/** Chunk texts without the newline each keeps at its end (asserted on its own below). */
const texts = (text: string) =>
  splitMarkdown(text).chunks.map((chunk) => chunk.text.replace(/\n$/, ''));

/** Renders markdown as one document, the way react-markdown alone would with the kit's plugins. */
function wholeHtml(text: string): string {
  const { container, unmount } = render(
    <Markdown
      remarkPlugins={[remarkGfm, remarkBreaks]}
      components={markdownComponents}
      urlTransform={markdownUrlTransform}
    >
      {text}
    </Markdown>,
  );
  const html = normalize(container.innerHTML);
  unmount();
  return html;
}

/** The chunks' HTML, out of the groups they are drawn in (each a plain `div`). */
function chunkedHtml(text: string): string {
  const { container, unmount } = render(<StreamingMarkdown text={text} />);
  const groups = [...(container.firstElementChild as Element).children];
  // Plain `div`s; the last, which holds the text's last block, marked open.
  expect(groups.map((group) => `${group.tagName} ${group.className}`)).toEqual(
    groups.map((_, g) =>
      g === groups.length - 1
        ? 'DIV ms-markdown__group ms-markdown__group--open'
        : 'DIV ms-markdown__group',
    ),
  );
  const html = normalize(groups.map((group) => group.innerHTML).join(''));
  unmount();
  return html;
}

/** Leading and trailing whitespace is the only thing chunking may change. */
const normalize = (html: string) => html.trim();

/** Lines of every kind the splitter tells apart, for the properties of a growing text. */
const growingLine = fc.constantFrom(
  'Plain words',
  '# Heading',
  '- item',
  '1. first',
  '  indented continuation',
  '    four-space indented',
  '> quote',
  '> - quoted item',
  '```',
  '```js',
  '  ```',
  '~~~',
  '| a | b |',
  '| - | - |',
  '---',
  '===',
  '<pre>',
  '</pre>',
  '<!-- comment',
  '-->',
  '<div>',
  '[d]: https://example.com/d',
  'See [the ref][d]',
  'line\r',
  '',
  '',
);

/** Everything a split says, to compare two splits of one text. */
const splitView = (split: MarkdownSplit) => ({
  chunks: [...split.chunks],
  openFence: split.openFence,
});

describe('splitMarkdown', () => {
  it('splits top-level blocks at blank lines', () => {
    expect(texts('# Title\n\nFirst para\nsame para\n\n> quote\n\n---\n\nlast')).toEqual([
      '# Title',
      'First para\nsame para',
      '> quote',
      '---',
      'last',
    ]);
  });

  it('records each chunk at its offset in the text', () => {
    const text = '\n\nalpha\n\n\nbeta';
    const chunks = splitMarkdown(text).chunks;
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [2, 8],
      [10, 14],
    ]);
    for (const chunk of chunks) expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });

  it("keeps the newline that ends a chunk's last line, which markdown reads differently", () => {
    expect(splitMarkdown('- item\n</pre>\n\nnext').chunks.map((c) => c.text)).toEqual([
      '- item\n</pre>\n',
      'next',
    ]);
  });

  it('never splits inside a fenced code block, whatever blank lines it holds', () => {
    const fence = '```ts\nconst a = 1;\n\n\nconst b = 2;\n```';
    expect(texts(`intro\n\n${fence}\n\nafter`)).toEqual(['intro', fence, 'after']);
    const tilde = '~~~~\n```\n\nstill code\n~~~~';
    expect(texts(`${tilde}\n\nout`)).toEqual([tilde, 'out']);
  });

  it('reports a fence still open at the end', () => {
    const split = splitMarkdown('para\n\n```js\ncode\n\nmore');
    expect(split.openFence).toMatchObject({ marker: '```', indent: '', lineStart: 0 });
    expect(split.chunks.at(-1)?.text).toBe('```js\ncode\n\nmore');
    expect(splitMarkdown('```\ncode\n\n').chunks[0]?.text).toBe('```\ncode\n\n');
    // An indented opener after a blank line stays with the chunk before (it may continue it).
    const indented = splitMarkdown('para\n\n  ~~~~\ncode');
    expect(indented.openFence).toMatchObject({ marker: '~~~~', indent: '  ', lineStart: 6 });
    expect(splitMarkdown('```\na\n```\n').openFence).toBeNull();
    // A closing run with no newline yet may still become content ("```x"): not closed yet.
    expect(splitMarkdown('```\na\n```').openFence).not.toBeNull();
  });

  it('keeps a loose list, its indented continuations and nested lists together', () => {
    const list = '- one\n\n- two\n\n  more of two\n\n  - nested\n\n1. ordered after';
    expect(texts(`${list}\n\nAfter the list.`)).toEqual([list, 'After the list.']);
  });

  it('keeps a table together and ends it at the blank line', () => {
    const table = '| a | b |\n| - | - |\n| 1 | 2 |';
    expect(texts(`${table}\n\ntext`)).toEqual([table, 'text']);
  });

  it('keeps an HTML block of a kind that spans blank lines together', () => {
    const html = '<pre>\nx\n\ny\n</pre>';
    expect(texts(`${html}\n\nz`)).toEqual([html, 'z']);
    const comment = '<!-- a\n\nb -->';
    expect(texts(`${comment}\n\nz`)).toEqual([comment, 'z']);
  });

  it('waits for an incomplete line after a list before deciding it is not part of the list', () => {
    expect(texts('- a\n\n1')).toEqual(['- a\n\n1']);
    expect(texts('- a\n\n1. b')).toEqual(['- a\n\n1. b']);
    expect(texts('- a\n\n1999 was a year\n')).toEqual(['- a', '1999 was a year']);
  });

  it('collects the definition lines a chunk starts with', () => {
    const split = splitMarkdown(
      'See [the docs][d].\n\n[d]: https://example.com\n[^1]: A note\nMore text',
    );
    expect(split.chunks.map((c) => c.definitions)).toEqual([
      '',
      '[d]: https://example.com\n[^1]: A note',
    ]);
    expect(split.chunks.map((c) => c.references)).toEqual([true, true]);
  });

  it('resumes from the last chunk, reusing the finished chunks as the same objects', () => {
    const first = splitMarkdown('# A\n\npara one\n\npara t');
    const second = splitMarkdown('# A\n\npara one\n\npara two\n\nthree', first);
    expect(second.chunks[0]).toBe(first.chunks[0]);
    expect(second.chunks[1]).toBe(first.chunks[1]);
    expect(second.chunks.map((c) => c.text)).toEqual([
      '# A\n',
      'para one\n',
      'para two\n',
      'three',
    ]);
  });

  it('starts over when the new text does not extend the previous one', () => {
    const first = splitMarkdown('# A\n\nold');
    const second = splitMarkdown('# B\n\nnew', first);
    expect(second.chunks.map((c) => c.text)).toEqual(['# B\n', 'new']);
    expect(second.chunks[0]).not.toBe(first.chunks[0]);
  });

  it('splits a growing text the same as the whole text, delta by delta (long-markdown)', async () => {
    const text = blockAt(await finalState(longMarkdown), 0).block.text as string;
    let split: MarkdownSplit | null = null;
    for (let end = 1; end <= text.length; end += 7) {
      split = splitMarkdown(text.slice(0, end), split);
    }
    split = splitMarkdown(text, split);
    const whole = splitMarkdown(text);
    expect(split.chunks.map((c) => [c.start, c.text])).toEqual(
      whole.chunks.map((c) => [c.start, c.text]),
    );
    expect(whole.chunks.length).toBeGreaterThan(20);
  });

  it('ends a fence only at its closing line, whatever its lines start with (property)', async () => {
    // Lines inside a fence that look like closers, or nearly: the split passes over lines that
    // cannot close the fence without reading them, and must still find every real closer.
    const line = fc.constantFrom(
      '```',
      '````',
      '``',
      '``` x',
      '   ```',
      '    ```',
      '\t```',
      '~~~',
      '  ~~~~',
      '~ tilde',
      '`code`',
      '   `',
      'plain',
      '',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('```', '````', '~~~', '  ```ts'),
        fc.array(line, { maxLength: 12 }),
        async (opener, lines) => {
          await new Promise((resolve) => setTimeout(resolve, 0));
          const text = [opener, ...lines, '', 'after'].join('\n');
          expect(chunkedHtml(text)).toBe(wholeHtml(text));
          let split: MarkdownSplit | null = null;
          for (let end = 0; end <= text.length; end += 2) {
            split = splitMarkdown(text.slice(0, end), split);
            expect(split.chunks.map((c) => c.text)).toEqual(
              splitMarkdown(text.slice(0, end)).chunks.map((c) => c.text),
            );
          }
        },
      ),
      { numRuns: 300, seed: 20_261_203 },
    );
  }, 60_000);

  it('renders long-markdown chunk by chunk exactly as one document', async () => {
    const text = blockAt(await finalState(longMarkdown), 0).block.text as string;
    expect(chunkedHtml(text)).toBe(wholeHtml(text));
  });

  it('renders any mix of block syntax chunk by chunk exactly as one document (property)', async () => {
    const line = fc.constantFrom(
      'Plain words',
      '**bold** and *em* and `code`',
      '# Heading',
      '## Sub *heading*',
      '- item',
      '* star item',
      '1. first',
      '2) second',
      '  indented continuation',
      '    four-space indented',
      '> quote',
      '```',
      '```js',
      '~~~',
      'const x = 1;',
      '| a | b |',
      '| - | - |',
      '---',
      '***',
      'Setext',
      '===',
      '<pre>',
      '</pre>',
      '<!-- comment',
      '-->',
      '- [ ] task',
      'Link [x](https://example.com/)',
      'See [the ref][d] here',
      // Definitions where answers have them: after a blank line.
      '\n[d]: https://example.com/d',
      '> - quoted item',
      '\ttab indented',
      '   ```',
      '<script>',
      '</script>',
      '<div>',
      '',
      '',
      '',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 24 }), async (lines) => {
        // A new task per run, as a page renders: a dozen views mounted in one task is a
        // restored thread, whose later views show plain text first (deferred-history.ts).
        await new Promise((resolve) => setTimeout(resolve, 0));
        const text = lines.join('\n');
        expect(chunkedHtml(text)).toBe(wholeHtml(text));
        let split: MarkdownSplit | null = null;
        for (let end = 0; end <= text.length; end += 3) {
          split = splitMarkdown(text.slice(0, end), split);
        }
        split = splitMarkdown(text, split);
        expect(split.chunks.map((c) => c.text)).toEqual(
          splitMarkdown(text).chunks.map((c) => c.text),
        );
      }),
      { numRuns: 500, seed: 20_260_101 },
    );
  }, 60_000);

  it('resumed at the last line, splits every step of a growing text as a fresh split does (property)', () => {
    // Each call resumes from where the previous scan stood at the start of its last line, with
    // everything the earlier lines decided (an open list, fence, HTML block, definitions): every
    // field of every step must be what a split from the start gives.
    fc.assert(
      fc.property(
        fc.array(growingLine, { maxLength: 20 }),
        fc.integer({ min: 1, max: 9 }),
        (lines, step) => {
          const text = lines.join('\n');
          let split: MarkdownSplit | null = null;
          for (let end = 0; end < text.length + step; end += step) {
            const now = text.slice(0, Math.min(end, text.length));
            split = splitMarkdown(now, split);
            expect(splitView(split)).toEqual(splitView(splitMarkdown(now)));
          }
        },
      ),
      { numRuns: 400, seed: 20_261_204 },
    );
  }, 60_000);

  it('split from a recorded append, reading only it, gives every step what a fresh split gives (property)', () => {
    // The store records each update as the last one plus what it gained (text-growth.ts); the
    // split then reads the previous last line and the append, carrying the open chunk's start.
    fc.assert(
      fc.property(
        fc.array(growingLine, { maxLength: 20 }),
        fc.integer({ min: 1, max: 9 }),
        (lines, step) => {
          const whole = lines.join('\n');
          let text = '';
          let split = splitMarkdown(text);
          for (let end = step; end < whole.length + step; end += step) {
            const appended = whole.slice(text.length, Math.min(end, whole.length));
            const before = split;
            const next = text + appended;
            recordAppend(next, text, appended);
            text = next;
            split = splitMarkdown(text, before);
            expect(splitView(split)).toEqual(splitView(splitMarkdown(text)));
            for (let i = 0; i < before.chunks.length - 1; i++) {
              if (split.chunks[i]?.start === before.chunks[i]?.start) {
                expect(split.chunks[i]).toBe(before.chunks[i]);
              }
            }
          }
        },
      ),
      { numRuns: 400, seed: 20_261_205 },
    );
  }, 60_000);

  it('takes a recorded append as given, without reading the text it was recorded for', () => {
    // Recorded wrongly on purpose: the split follows the record, so it did not read the text.
    const before = splitMarkdown('Hello');
    const next = `Jello${' world'}`;
    recordAppend(next, before.source, ' world');
    expect(splitMarkdown(next, before).chunks.map((c) => c.text)).toEqual(['Hello world']);
    // Unrecorded, the same text is read and compared.
    expect(splitMarkdown(`Jello${' there'}`, before).chunks.map((c) => c.text)).toEqual([
      'Jello there',
    ]);
  });

  it('follows a chain of recorded appends without reading any text of it', () => {
    // Wrong on purpose from the first record on: each later split still shows "Hello", so no
    // step read its text, not even the ones after a split made from an append.
    let split = splitMarkdown('Hello');
    let text = split.source;
    for (const [wrong, appended] of [
      ['Jello', ' world'],
      ['Jello world', '\n\n```ts\nconst a'],
      ['Jello world\n\n```ts\nconst a', ' = 1;\n'],
    ] as const) {
      const next = `${wrong}${appended}`;
      recordAppend(next, text, appended);
      split = splitMarkdown(next, split);
      text = next;
    }
    expect(split.chunks.map((c) => c.text)).toEqual(['Hello world\n', '```ts\nconst a = 1;\n']);
    expect(split.openFence).not.toBeNull();
  });
});
