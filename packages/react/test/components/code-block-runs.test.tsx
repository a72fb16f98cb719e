import { cleanup, render, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeBlock } from '../../src/components/code-block.js';
import { createLineTokenizer } from '../../src/highlight/engine.js';
import type { CodeToken } from '../../src/highlight/tokens.js';

afterEach(cleanup);

/** Shiki and a grammar load on first use: on a busy machine that takes more than a second. */
const LOAD = { timeout: 20_000 };

const CODE = [
  '/** A doc comment. */',
  'export function add(a: number, b: number): number {',
  '  // plain words after a comment marker',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source, not a template.
  '  const label = `sum ${a + b}`;',
  '',
  '\treturn a + b; // tab-indented',
  '}',
].join('\n');

/**
 * A line as the block drew it when every token was an object and a React span: text in the
 * theme's own colour as it is, every other token a span with its colours as custom properties.
 */
function TokenLine({ tokens }: { tokens: readonly CodeToken[] }): ReactElement {
  return (
    <span className="ms-code__line">
      {tokens.map((token, i) => {
        if (token.light === undefined && token.dark === undefined && !token.italic) {
          return token.content;
        }
        const style: Record<string, string> = {};
        if (token.light) style['--ms-tok-light'] = token.light;
        if (token.dark) style['--ms-tok-dark'] = token.dark;
        return (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, drawn once.
            key={i}
            className={token.italic ? 'ms-code__tok ms-code__tok--italic' : 'ms-code__tok'}
            style={style}
          >
            {token.content}
          </span>
        );
      })}
    </span>
  );
}

describe('CodeBlock lines from the compact token form', () => {
  it('are the same elements, text, classes and colours as spans drawn from token objects', async () => {
    const tokenize = await createLineTokenizer('ts');
    if (tokenize === null) throw new Error('no TypeScript grammar');
    let state: unknown;
    const expected = CODE.split('\n').map((text) => {
      const result = tokenize(text, state as never);
      state = result.state;
      const { container, unmount } = render(<TokenLine tokens={result.tokens} />);
      const html = container.innerHTML;
      unmount();
      return html;
    });

    const { container } = render(<CodeBlock code={CODE} language="ts" />);
    await waitFor(
      () =>
        expect(container.querySelectorAll('.ms-code__line .ms-code__tok').length).toBeGreaterThan(
          10,
        ),
      LOAD,
    );
    await waitFor(() => {
      const lines = [...container.querySelectorAll('.ms-code__line')].map((l) => l.outerHTML);
      expect(lines).toEqual(expected);
    }, LOAD);
    // Some text is plain between spans: both kinds of run were drawn.
    const mixed = [...container.querySelectorAll('.ms-code__line')].some((line) =>
      [...line.childNodes].some((node) => node.nodeType === Node.TEXT_NODE),
    );
    expect(mixed).toBe(true);
    expect(container.querySelector('code')?.textContent).toBe(`${CODE}\n`);
  }, 60_000);
});
