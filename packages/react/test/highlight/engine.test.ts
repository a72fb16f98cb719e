import type { ThemedTokenWithVariants } from 'shiki/types';
import { describe, expect, it } from 'vitest';
import {
  againWhenCutShort,
  createLineTokenizer,
  toCodeTokens,
} from '../../src/highlight/engine.js';

/** A Shiki run with its light and dark colours. */
const run = (content: string, light: string, dark: string): ThemedTokenWithVariants => ({
  content,
  offset: 0,
  variants: { light: { color: light, fontStyle: 0 }, dark: { color: dark, fontStyle: 0 } },
});

const plain = { light: '#1f2328', dark: '#e6edf3' };

describe('toCodeTokens', () => {
  it("leaves the themes' default colour out and joins blanks to their neighbours", () => {
    const tokens = toCodeTokens(
      [
        run('const', '#CF222E', '#FF7B72'),
        run(' ', '#1F2328', '#E6EDF3'),
        run('x', '#0550AE', '#79C0FF'),
        run(' ', '#1F2328', '#E6EDF3'),
        run('=', '#CF222E', '#FF7B72'),
        run(' input[', '#1F2328', '#E6EDF3'),
        run('1', '#0550AE', '#79C0FF'),
        run('];', '#1F2328', '#E6EDF3'),
      ],
      plain,
    );
    expect(tokens).toEqual([
      { content: 'const ', light: '#cf222e', dark: '#ff7b72', italic: false },
      { content: 'x ', light: '#0550ae', dark: '#79c0ff', italic: false },
      { content: '=', light: '#cf222e', dark: '#ff7b72', italic: false },
      { content: ' input[', light: undefined, dark: undefined, italic: false },
      { content: '1', light: '#0550ae', dark: '#79c0ff', italic: false },
      { content: '];', light: undefined, dark: undefined, italic: false },
    ]);
  });

  it('draws a run Shiki left uncoloured (a line too long to tokenize) as plain text', () => {
    expect(toCodeTokens([run('x'.repeat(10), '', '')], plain)).toEqual([
      { content: 'xxxxxxxxxx', light: undefined, dark: undefined, italic: false },
    ]);
  });

  it('keeps both colours of a run that is the default in one theme only', () => {
    expect(toCodeTokens([run('x', '#1F2328', '#79C0FF')], plain)).toEqual([
      { content: 'x', light: '#1f2328', dark: '#79c0ff', italic: false },
    ]);
  });
});

describe('againWhenCutShort', () => {
  it('keeps a pass that ran within the limit', () => {
    let clock = 0;
    let calls = 0;
    const result = againWhenCutShort(
      () => {
        calls++;
        clock += 40;
        return calls;
      },
      100,
      () => clock,
    );
    expect(result).toEqual({ result: 1, quick: true });
    expect(calls).toBe(1);
  });

  it('tokenizes once more after a pass that took the limit (it came back cut short)', () => {
    let clock = 0;
    let calls = 0;
    const result = againWhenCutShort(
      () => {
        calls++;
        clock += calls === 1 ? 100 : 5;
        return calls;
      },
      100,
      () => clock,
    );
    expect(result).toEqual({ result: 2, quick: false });
    expect(calls).toBe(2);
  });

  it('tries again while passes take the limit, three passes at most', () => {
    let clock = 0;
    let calls = 0;
    const slowTwice = againWhenCutShort(
      () => {
        calls++;
        clock += calls <= 2 ? 120 : 5;
        return calls;
      },
      100,
      () => clock,
    );
    expect(slowTwice).toEqual({ result: 3, quick: false });
    expect(calls).toBe(3);
    calls = 0;
    const alwaysSlow = againWhenCutShort(
      () => {
        calls++;
        clock += 150;
        return calls;
      },
      100,
      () => clock,
    );
    expect(alwaysSlow).toEqual({ result: 3, quick: false });
    expect(calls).toBe(3);
  });
});

describe('createLineTokenizer', () => {
  // On a busy machine compiling the grammar took longer than the limit and this line came back
  // in one colour after `const`; on a quick one it passes either way.
  it("colours the grammar's first line as the compiled grammar does", async () => {
    const tokenize = await createLineTokenizer('ts');
    expect(tokenize).not.toBeNull();
    const { tokens } = tokenize?.('const answer = 42;', undefined) ?? { tokens: [] };
    expect(tokens.map((t) => [t.content, t.light])).toEqual([
      ['const ', '#cf222e'],
      ['answer ', '#0550ae'],
      ['= ', '#cf222e'],
      ['42', '#0550ae'],
      [';', undefined],
    ]);
  }, 20_000);
});
