import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeOptionsContext } from '../../src/markdown/code-options.js';
import { type FencedCode, fencedCode } from '../../src/markdown/fenced-code.js';
import { MarkdownChunkView } from '../../src/markdown/markdown-chunk-view.js';
import { type MarkdownChunk, type MarkdownSplit, splitMarkdown } from '../../src/markdown/split.js';
import { StreamingMarkdown } from '../../src/markdown/streaming-markdown.js';
import { repairStreamingTail } from '../../src/markdown/tail.js';
import { appendedSince, recordAppend } from '../../src/text-growth.js';

afterEach(cleanup);

const PLAIN = { highlight: false, download: false };

/** The DOM, with the ids React generates taken out (they differ between two renders). */
function html(container: Element): string {
  return container.innerHTML.replace(/ (?:id|aria-describedby|aria-labelledby)="[^"]*"/g, '');
}

/** The text through the markdown parser: one chunk, repaired as the streaming view repairs it. */
function parsed(text: string, streaming: boolean): string {
  const split = splitMarkdown(text);
  const source = streaming ? repairStreamingTail(text, split.openFence) : text;
  const { container } = render(
    <CodeOptionsContext.Provider value={PLAIN}>
      <div className="ms-markdown">
        <div className="ms-markdown__group ms-markdown__group--open">
          <MarkdownChunkView source={source} start={0} idPrefix="x-" />
        </div>
      </div>
    </CodeOptionsContext.Provider>,
  );
  const out = html(container);
  cleanup();
  return out;
}

function fast(text: string, streaming: boolean): string {
  const { container } = render(
    <CodeOptionsContext.Provider value={PLAIN}>
      <StreamingMarkdown text={text} streaming={streaming} />
    </CodeOptionsContext.Provider>,
  );
  const out = html(container);
  cleanup();
  return out;
}

const FENCES = [
  '```ts\nconst a = 1;\n\n  let b = `x`;\n```\n',
  '~~~~python extra words\nprint("~~~")\n~~~\n~~~~~\n',
  '```\nno language\n````\n\n\n',
  '```js\n```',
  '```sh\n\techo tab\n\n\n```',
];

describe('fenced code chunks', () => {
  it('render exactly what the markdown parser renders, at every point of the stream', () => {
    for (const text of FENCES) {
      for (let end = 1; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        const streaming = end < text.length;
        expect(fast(prefix, streaming), JSON.stringify(prefix)).toBe(parsed(prefix, streaming));
      }
    }
  });

  it('render what the parser renders for a finished text cut anywhere (an answer stopped mid-fence)', () => {
    for (const text of [...FENCES, '```ts\nnever closed\n', '```py\nx = 1\n``', '```\na\n\n\n']) {
      for (let end = 1; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        expect(fast(prefix, false), JSON.stringify(prefix)).toBe(parsed(prefix, false));
      }
    }
  });

  it('leave to the parser what it could read differently', () => {
    const chunk = (text: string) => splitMarkdown(text).chunks[0];
    for (const text of [
      '  ```ts\nindented\n```\n',
      '```t\\s\nescaped info\n```\n',
      '```ts\r\nx\r\n```\r\n',
      '```ts\nx\n```\nmore text\n',
    ]) {
      const first = chunk(text);
      expect(first && fencedCode(first, null), text).toBeNull();
    }
  });

  it('keeps the code block element while the fence streams and when it closes', () => {
    const text = '```ts\nconst a = 1;\nconst b = 2;\n```\n';
    const { container, rerender } = render(
      <CodeOptionsContext.Provider value={PLAIN}>
        <StreamingMarkdown text={text.slice(0, 12)} streaming />
      </CodeOptionsContext.Provider>,
    );
    const block = container.querySelector('.ms-code');
    expect(block).not.toBeNull();
    for (const end of [20, 30, text.length]) {
      rerender(
        <CodeOptionsContext.Provider value={PLAIN}>
          <StreamingMarkdown text={text.slice(0, end)} streaming={end < text.length} />
        </CodeOptionsContext.Provider>,
      );
      expect(container.querySelector('.ms-code')).toBe(block);
    }
    expect(container.querySelector('code')?.textContent).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('keeps the code block element when the answer is stopped inside the fence', () => {
    const text = '```ts\nconst a = 1;\nconst b';
    const { container, rerender } = render(
      <CodeOptionsContext.Provider value={PLAIN}>
        <StreamingMarkdown text={text} streaming />
      </CodeOptionsContext.Provider>,
    );
    const block = container.querySelector('.ms-code');
    expect(block).not.toBeNull();
    rerender(
      <CodeOptionsContext.Provider value={PLAIN}>
        <StreamingMarkdown text={text} streaming={false} />
      </CodeOptionsContext.Provider>,
    );
    expect(container.querySelector('.ms-code')).toBe(block);
    expect(container.querySelector('code')?.textContent).toBe('const a = 1;\nconst b\n');
  });
});

describe('a growing fence read from recorded appends', () => {
  /** Streams `whole` in steps of `step`, recording each append as the store does. */
  function stream(whole: string, step: number) {
    const steps: { fence: FencedCode | null; fresh: FencedCode | null; gained?: string }[] = [];
    let text = '';
    let split: MarkdownSplit = splitMarkdown(text);
    let last: { chunk: MarkdownChunk; fence: FencedCode | null } | null = null;
    for (let end = step; end < whole.length + step; end += step) {
      const appended = whole.slice(text.length, Math.min(end, whole.length));
      const next = text + appended;
      recordAppend(next, text, appended);
      text = next;
      split = splitMarkdown(text, split);
      const chunk = split.chunks.at(-1);
      if (chunk === undefined) continue;
      const before = last?.chunk.start === chunk.start ? last : null;
      const fence = fencedCode(chunk, split.openFence, before);
      const fresh = fencedCode({ ...chunk }, split.openFence);
      const previous = before?.fence;
      const gained =
        fence !== null && previous ? appendedSince(fence.code, previous.code) : undefined;
      steps.push({ fence, fresh, ...(gained === undefined ? {} : { gained }) });
      if (split.openFence !== null) last = { chunk, fence };
      if (gained !== undefined) {
        expect(fence?.code).toBe((previous as FencedCode).code + gained);
      }
    }
    return steps;
  }

  it('gives at every step the code a whole read gives, and records how the code grew (property)', () => {
    const line = fc.constantFrom(
      'const a = 1;',
      '  indented()',
      '\tx',
      '',
      '',
      '`',
      '``',
      '~~',
      '```',
      '~~~',
      'not ``` a fence',
      'line\r',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('```ts\n', '~~~\n', '````py extra\n'),
        fc.array(line, { maxLength: 16 }),
        fc.integer({ min: 1, max: 7 }),
        (opener, lines, step) => {
          for (const { fence, fresh } of stream(opener + lines.join('\n'), step)) {
            expect(fence).toEqual(fresh);
          }
        },
      ),
      { numRuns: 500, seed: 20_261_205 },
    );
  });

  it('reads a plain growing fence from its appends, step after step', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `  value${i} = compute(${i});`);
    const steps = stream(`\`\`\`ts\n${lines.join('\n')}\n`, 5);
    // After the opener's step, every step but those where a line's end is not code yet.
    const grown = steps.filter((s) => s.gained !== undefined).length;
    expect(grown).toBeGreaterThan(steps.length * 0.9);
    expect(steps.at(-1)?.fence?.code).toBe(lines.join('\n'));
  });
});
