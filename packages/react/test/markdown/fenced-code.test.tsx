import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeOptionsContext } from '../../src/markdown/code-options.js';
import { fencedCode } from '../../src/markdown/fenced-code.js';
import { MarkdownChunkView } from '../../src/markdown/markdown-chunk-view.js';
import { splitMarkdown } from '../../src/markdown/split.js';
import { StreamingMarkdown } from '../../src/markdown/streaming-markdown.js';
import { repairStreamingTail } from '../../src/markdown/tail.js';

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
        <MarkdownChunkView source={source} start={0} idPrefix="x-" />
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
