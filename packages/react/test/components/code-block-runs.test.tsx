import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { drawRuns } from '../../src/components/code-block-body.js';
import { mergeCodeTokens } from '../../src/highlight/merge-tokens.js';
import {
  type CodeRunsLine,
  decodeLines,
  encodeLines,
  StylePalette,
  styleViews,
} from '../../src/highlight/runs.js';
import type { CodeToken } from '../../src/highlight/tokens.js';

afterEach(cleanup);

/**
 * A line as the block drew it when every token was an object and a React span: text in the
 * theme's own colour as it is, every other token a span with its colours as custom properties.
 */
function TokenLine({ tokens, rest }: { tokens: readonly CodeToken[]; rest: string }): ReactElement {
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
      {rest === '' ? null : rest}
    </span>
  );
}

const token = fc.record({
  content: fc.constantFrom('const', ' ', 'x', '= ', '"é"', '// note', '\t', '<b>&amp;</b>'),
  light: fc.constantFrom(undefined, '#cf222e', '#0550ae'),
  dark: fc.constantFrom(undefined, '#ff7b72', '#79c0ff'),
  italic: fc.boolean(),
});

/** A line's children as what they show: text, or a span's class, colours and text. */
function nodes(line: HTMLElement): unknown[] {
  return [...line.childNodes].map((node) =>
    node instanceof HTMLElement
      ? [
          node.tagName,
          node.className,
          node.style.getPropertyValue('--ms-tok-light'),
          node.style.getPropertyValue('--ms-tok-dark'),
          node.style.length,
          node.textContent,
        ]
      : node.textContent,
  );
}

describe('a highlighted line drawn from the compact token form', () => {
  it('is the same DOM React drew from token objects, and stays so as the line changes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            tokens: fc.array(token, { maxLength: 8 }),
            rest: fc.constantFrom('', ' y', ';'),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (versions) => {
          // One line drawn again and again, as a growing line is: each version from scratch
          // with React, and in place with drawRuns.
          const line = document.createElement('span');
          line.className = 'ms-code__line';
          for (const [i, { tokens: raw, rest }] of versions.entries()) {
            const tokens = mergeCodeTokens(raw);
            const text = tokens.map((t) => t.content).join('') + rest;
            drawRuns(line, runsOf(tokens), text);
            const { container, unmount } = render(<TokenLine tokens={tokens} rest={rest} />);
            const drawn = container.firstElementChild as HTMLElement;
            // Drawn afresh, the same markup; drawn over an older version, a span that gained a
            // colour lists it last in its style attribute (as React's update did): the same
            // nodes, text, classes and colours.
            if (i === 0) expect(line.outerHTML).toBe(drawn.outerHTML);
            expect(nodes(line)).toEqual(nodes(drawn));
            unmount();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** One line's runs, as the page gets them. */
function runsOf(tokens: CodeToken[]): CodeRunsLine {
  const palette = new StylePalette();
  const encoded = encodeLines([tokens], palette);
  return decodeLines(encoded, styleViews(palette.styles))[0] as CodeRunsLine;
}

const kw = { light: '#cf222e', dark: '#ff7b72' };
const str = { light: '#0a3069', dark: '#a5d6ff' };

describe('drawRuns', () => {
  it('draws runs and the text typed since, and keeps the nodes that still fit as the line grows', () => {
    const line = document.createElement('span');
    drawRuns(line, runsOf([{ content: 'const ', ...kw }, { content: 'x' }]), 'const x = "a');
    expect(line.innerHTML).toBe(
      '<span class="ms-code__tok" style="--ms-tok-light: #cf222e; --ms-tok-dark: #ff7b72;">const </span>x = "a',
    );
    const keyword = line.firstChild;
    drawRuns(
      line,
      runsOf([{ content: 'const ', ...kw }, { content: 'x = ' }, { content: '"ab"', ...str }]),
      'const x = "ab";',
    );
    expect(line.innerHTML).toBe(
      '<span class="ms-code__tok" style="--ms-tok-light: #cf222e; --ms-tok-dark: #ff7b72;">const </span>x = ' +
        '<span class="ms-code__tok" style="--ms-tok-light: #0a3069; --ms-tok-dark: #a5d6ff;">"ab"</span>;',
    );
    expect(line.firstChild).toBe(keyword);
    expect(line.textContent).toBe('const x = "ab";');
    // Fewer runs: what is left over goes, a span changes its look in place.
    drawRuns(line, runsOf([{ content: 'let', ...str, italic: true }]), 'let');
    expect(line.innerHTML).toBe(
      '<span class="ms-code__tok ms-code__tok--italic" style="--ms-tok-light: #0a3069; --ms-tok-dark: #a5d6ff;">let</span>',
    );
    expect(line.firstChild).toBe(keyword);
  });
});
