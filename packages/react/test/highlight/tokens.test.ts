import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeCodeTokens } from '../../src/highlight/merge-tokens.js';
import {
  IncrementalCodeTokens,
  type LineTokenizer,
  tokensForLine,
  tokensMatch,
} from '../../src/highlight/tokens.js';
import { startsWithText } from '../../src/text-growth.js';

/** A fake grammar: the state counts open `{`; each call is recorded. */
function fakeTokenizer() {
  const calls: string[] = [];
  const tokenize: LineTokenizer<number> = (line, state = 0) => {
    calls.push(line);
    const depth = state + (line.split('{').length - 1) - (line.split('}').length - 1);
    return { tokens: [{ content: line, light: `#00000${Math.min(state, 9)}` }], state: depth };
  };
  return { calls, tokenize };
}

describe('IncrementalCodeTokens', () => {
  it('tokenizes each finished line once, carrying the state; only the last line again', () => {
    const { calls, tokenize } = fakeTokenizer();
    const tokens = new IncrementalCodeTokens(tokenize);
    expect(tokens.advance('a {\nb', Number.POSITIVE_INFINITY)).toBe(true);
    expect(calls).toEqual(['a {', 'b']);
    const first = tokens.snapshot().finished[0];

    tokens.advance('a {\nbc', Number.POSITIVE_INFINITY);
    tokens.advance('a {\nbc\n}', Number.POSITIVE_INFINITY);
    expect(calls).toEqual(['a {', 'b', 'bc', 'bc', '}']);
    const snapshot = tokens.snapshot();
    expect(snapshot.finished[0]).toBe(first);
    // The second line started inside the brace: state 1, from the line before it.
    expect(snapshot.finished[1]?.[0]?.light).toBe('#000001');
    expect(snapshot.tail?.text).toBe('}');
  });

  it('stops at the deadline after at least one line and resumes where it stopped', () => {
    const { calls, tokenize } = fakeTokenizer();
    const tokens = new IncrementalCodeTokens(tokenize);
    const code = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    let clock = 0;
    const now = () => clock++;
    // Each line costs one tick of the fake clock; a deadline 3 ticks away allows a few lines.
    let slices = 0;
    while (!tokens.advance(code, clock + 3, now)) slices++;
    expect(slices).toBeGreaterThan(1);
    expect(calls).toEqual(code.split('\n'));
    expect(tokens.snapshot().finished).toHaveLength(9);
  });

  it('tokenizes appended code as advancing over the whole code does, in slices too (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[ab{}\n]{0,12}$/), { maxLength: 30 }),
        fc.integer({ min: 1, max: 4 }),
        (pieces, budget) => {
          const whole = fakeTokenizer();
          const appended = fakeTokenizer();
          const byWhole = new IncrementalCodeTokens(whole.tokenize);
          const byAppend = new IncrementalCodeTokens(appended.tokenize);
          let code = '';
          let clock = 0;
          const now = () => clock++;
          for (const piece of pieces) {
            code += piece;
            byAppend.append(piece);
            while (!byAppend.step(clock + budget, now));
            byWhole.advance(code, Number.POSITIVE_INFINITY);
            expect(byAppend.snapshot()).toEqual(byWhole.snapshot());
          }
        },
      ),
    );
  });

  it('reads only what was appended, not the code before it', () => {
    const { calls, tokenize } = fakeTokenizer();
    const tokens = new IncrementalCodeTokens(tokenize);
    tokens.replace('a {\nb');
    tokens.step(Number.POSITIVE_INFINITY);
    // A step reads the unfinished line and the append: the finished "a {" is not tokenized
    // again, and a replace starts from the first line.
    tokens.append('c\nd');
    tokens.step(Number.POSITIVE_INFINITY);
    expect(calls).toEqual(['a {', 'b', 'bc', 'd']);
    tokens.replace('x');
    tokens.step(Number.POSITIVE_INFINITY);
    expect(calls.at(-1)).toBe('x');
    expect(tokens.snapshot().finished).toHaveLength(0);
  });

  it('starts over when the code is edited rather than extended', () => {
    const { calls, tokenize } = fakeTokenizer();
    const tokens = new IncrementalCodeTokens(tokenize);
    tokens.advance('one\ntwo\nthree', Number.POSITIVE_INFINITY);
    tokens.advance('uno\ntwo\nthree', Number.POSITIVE_INFINITY);
    expect(calls).toEqual(['one', 'two', 'three', 'uno', 'two', 'three']);
  });

  it('keeps the snapshot object while nothing changes', () => {
    const { tokenize } = fakeTokenizer();
    const tokens = new IncrementalCodeTokens(tokenize);
    tokens.advance('x\ny', Number.POSITIVE_INFINITY);
    const snapshot = tokens.snapshot();
    tokens.advance('x\ny', Number.POSITIVE_INFINITY);
    expect(tokens.snapshot()).toBe(snapshot);
  });
});

describe('tokensForLine / tokensMatch', () => {
  it('gives finished lines, the tail, and nothing past them; match checks the text', () => {
    const { tokenize } = fakeTokenizer();
    const tokens = new IncrementalCodeTokens(tokenize);
    tokens.advance('ab\ncd', Number.POSITIVE_INFINITY);
    const snapshot = tokens.snapshot();
    expect(tokensForLine(snapshot, 0)?.[0]?.content).toBe('ab');
    expect(tokensForLine(snapshot, 1)?.[0]?.content).toBe('cd');
    expect(tokensForLine(snapshot, 2)).toBeNull();
    expect(tokensForLine(null, 0)).toBeNull();
    expect(tokensMatch([{ content: 'c' }, { content: 'd' }], 'cd')).toBe(true);
    expect(tokensMatch([{ content: 'cd' }], 'cde')).toBe(false);
    expect(tokensMatch([{ content: 'cx' }], 'cd')).toBe(false);
  });
});

describe('mergeCodeTokens', () => {
  const kw = { light: '#cf222e', dark: '#ff7b72' };
  const num = { light: '#0550ae', dark: '#79c0ff' };

  it('joins a blank run to the token before it, and leading blanks to the token after', () => {
    expect(
      mergeCodeTokens([
        { content: '  ' },
        { content: 'const', ...kw },
        { content: ' ' },
        { content: 'x', ...num },
        { content: '\t ' },
        { content: '=', ...kw },
      ]),
    ).toEqual([
      { content: '  const ', ...kw },
      { content: 'x\t ', ...num },
      { content: '=', ...kw },
    ]);
  });

  it('joins neighbours that look the same and keeps apart those that do not', () => {
    const merged = mergeCodeTokens([
      { content: 'a', ...kw },
      { content: 'b', ...kw },
      { content: 'c', ...kw, italic: true },
      { content: 'd' },
      { content: 'e' },
    ]);
    expect(merged).toEqual([
      { content: 'ab', ...kw },
      { content: 'c', ...kw, italic: true },
      { content: 'de' },
    ]);
  });

  it('spells the same text for any tokens (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            content: fc.constantFrom('', ' ', '\t', 'x', 'if', ' y ', '  '),
            light: fc.constantFrom(undefined, '#111111', '#222222'),
            italic: fc.boolean(),
          }),
        ),
        (tokens) => {
          const merged = mergeCodeTokens(tokens);
          expect(merged.map((t) => t.content).join('')).toBe(tokens.map((t) => t.content).join(''));
          // No two neighbours look the same, and no run is only blanks unless it is the line.
          for (let i = 1; i < merged.length; i++) {
            const [a, b] = [merged[i - 1], merged[i]];
            expect(a?.light === b?.light && !!a?.italic === !!b?.italic).toBe(false);
          }
          if (merged.length > 1) for (const t of merged) expect(t.content.trim()).not.toBe('');
        },
      ),
    );
  });
});

describe('startsWithText', () => {
  it('says what startsWith says, for views of long strings too (property)', () => {
    const long = 'x'.repeat(1000);
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (a, b) => {
        for (const [text, prefix] of [
          [a, b],
          [a + b, a],
          [`${long}${a}`, `${long}${b}`],
          [`${long}${a}`.slice(3), `${long}`.slice(3)],
        ] as const) {
          expect(startsWithText(text, prefix)).toBe(text.startsWith(prefix));
        }
      }),
    );
  });
});
