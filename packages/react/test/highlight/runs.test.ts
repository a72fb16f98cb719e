import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeCodeTokens } from '../../src/highlight/merge-tokens.js';
import {
  decodeLines,
  encodeLines,
  lineTokens,
  StylePalette,
  styleViews,
} from '../../src/highlight/runs.js';
import type { CodeToken } from '../../src/highlight/tokens.js';

const token = fc.record({
  content: fc.constantFrom('const', ' ', 'x', '= ', '"é"', '// note', '\t', '𝑥'),
  light: fc.constantFrom(undefined, '#cf222e', '#0550ae'),
  dark: fc.constantFrom(undefined, '#ff7b72', '#79c0ff'),
  italic: fc.boolean(),
});
/** A line as the engine makes it: merged runs, styles only where set. */
const line = fc.array(token, { maxLength: 8 }).map((tokens) =>
  mergeCodeTokens(tokens).map(
    (t): CodeToken => ({
      content: t.content,
      ...(t.light ? { light: t.light } : {}),
      ...(t.dark ? { dark: t.dark } : {}),
      ...(t.italic ? { italic: true } : {}),
    }),
  ),
);

describe('the compact token form', () => {
  it('reads back as the tokens it was made from, over batches that share a palette (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(line, { maxLength: 5 }), { maxLength: 4 }), (batches) => {
        const palette = new StylePalette();
        for (const lines of batches) {
          const encoded = encodeLines(lines, palette);
          expect(encoded.ends).toHaveLength(lines.length);
          const decoded = decodeLines(encoded, styleViews(palette.styles));
          expect(decoded.map((l) => lineTokens(l, palette.styles))).toEqual(lines);
          for (const [i, l] of decoded.entries()) {
            const text = (lines[i] ?? []).map((t) => t.content).join('');
            expect(l.cover(text)).toBe(text.length);
            // A line that grew since: the runs spell its start.
            expect(l.cover(`${text}more`)).toBe(text.length);
            // Other text of the same length, or shorter text: not made from it.
            if (text.length > 0) {
              expect(l.cover(`${text.slice(0, -1)}\u0000`)).toBe(-1);
              expect(l.cover(text.slice(0, -1))).toBe(-1);
            }
          }
        }
        // One entry per look, the block's own text first.
        const keys = palette.styles.map((s) => JSON.stringify(s));
        expect(new Set(keys).size).toBe(keys.length);
        expect(palette.styles[0]).toEqual({});
      }),
    );
  });

  it('draws a style as the token spans were drawn: its class and its colours', () => {
    const views = styleViews([
      {},
      { light: '#cf222e', dark: '#ff7b72' },
      { light: '#6e7781', italic: true },
    ]);
    expect(views.map((v) => [v.plain, v.className, v.light, v.dark])).toEqual([
      [true, 'ms-code__tok', undefined, undefined],
      [false, 'ms-code__tok', '#cf222e', '#ff7b72'],
      [false, 'ms-code__tok ms-code__tok--italic', '#6e7781', undefined],
    ]);
  });
});
