import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../src/object.js';
import {
  DEFAULT_MAX_JSON_DEPTH,
  PartialJsonParser,
  parsePartialJson,
} from '../src/partial-json.js';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/** Value after feeding `text` in one piece. */
function partialValue(text: string): unknown {
  return parsePartialJson(text).value;
}

/** Feeds `fragments` one by one, reading after each, and returns every read. */
function feed(fragments: readonly string[]): { parser: PartialJsonParser; reads: unknown[] } {
  const parser = new PartialJsonParser();
  const reads: unknown[] = [];
  for (const f of fragments) {
    parser.write(f);
    reads.push(parser.value());
  }
  return { parser, reads };
}

function chars(text: string): string[] {
  return text.split('');
}

/** True when `s` contains a surrogate code unit that is not half of a well-formed pair. */
function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return true;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return true;
    }
  }
  return false;
}

/**
 * Whether a partial read could still grow into `final` without anything shown being
 * taken back (the streaming UI's contract).
 */
function isConsistentWith(partial: unknown, final: unknown): boolean {
  if (typeof final === 'string') return typeof partial === 'string' && final.startsWith(partial);
  if (typeof final === 'number') {
    if (typeof partial !== 'number') return false;
    if (Object.is(partial, final)) return true;
    // The document text of a number is what JSON.stringify wrote for it.
    const text = JSON.stringify(final);
    for (let k = 1; k <= text.length; k++) {
      if (Object.is(Number(text.slice(0, k)), partial)) return true;
    }
    return false;
  }
  if (typeof final === 'boolean' || final === null) return Object.is(partial, final);
  if (Array.isArray(final)) {
    if (!Array.isArray(partial) || partial.length > final.length) return false;
    for (let i = 0; i < partial.length - 1; i++) {
      if (!isDeepStrictEqual(partial[i], final[i])) return false;
    }
    return partial.length === 0 || isConsistentWith(partial.at(-1), final[partial.length - 1]);
  }
  if (isPlainObject(final)) {
    if (!isPlainObject(partial)) return false;
    const finalKeys = Object.keys(final);
    const keys = Object.keys(partial);
    // Keys appear in document order (Object.keys order, as JSON.stringify wrote them),
    // so the visible keys are exactly a prefix of the final ones.
    const visible = new Set(finalKeys.slice(0, keys.length));
    if (!keys.every((k) => visible.has(k))) return false;
    const latest = finalKeys[keys.length - 1];
    for (const k of keys) {
      if (k === latest) {
        if (!isConsistentWith(partial[k], final[k])) return false;
      } else if (!isDeepStrictEqual(partial[k], final[k])) {
        return false;
      }
    }
    return true;
  }
  return false;
}

/** Tries JSON.parse; `ok` false when it throws. */
function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

// Strings that stress escapes, surrogates (escaped lone ones and raw pairs) and controls.
const trickyUnit = fc.oneof(
  fc.constantFrom(
    '\ud83d',
    '\ude00',
    '\ud83d\ude00',
    '"',
    '\\',
    '/',
    '\n',
    '\t',
    '\u0000',
    '\u001f',
    '\u2028',
    'é',
    '__proto__',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

const jsonValues = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3, stringUnit: trickyUnit }),
  fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }),
);

/** A JSON document as the API could send it: compact or indented, maybe padded. */
const jsonDocuments = fc
  .tuple(jsonValues, fc.constantFrom(undefined, 2, '\t'), fc.constantFrom('', ' ', '\n', ' \r\n\t'))
  .map(([value, indent, pad]) => pad + JSON.stringify(value, null, indent) + pad);

/** Splits `text` at the given (unsorted, possibly repeated) cut points. */
function splitAt(text: string, cuts: readonly number[]): string[] {
  const points = cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

// ---------------------------------------------------------------------------------------
// Unit tests
// ---------------------------------------------------------------------------------------

describe('partial strings', () => {
  it('shows a string value while it is still open', () => {
    expect(partialValue('{"city": "Tai')).toEqual({ city: 'Tai' });
    expect(partialValue('{"city": "')).toEqual({ city: '' });
    expect(partialValue('"Tai')).toBe('Tai');
    expect(partialValue('["a", "b')).toEqual(['a', 'b']);
  });

  it('grows the string across fragments, including a multi-fragment run', () => {
    const { reads } = feed(['{"city"', ': "Ta', 'i', 'pei"', '}']);
    expect(reads).toEqual([
      {},
      { city: 'Ta' },
      { city: 'Tai' },
      { city: 'Taipei' },
      { city: 'Taipei' },
    ]);
  });

  it('decodes every escape exactly like JSON.parse', () => {
    const text = '"q\\"b\\\\s\\/b\\bf\\fn\\nr\\rt\\t\\u0041\\u00e9\\u00E9\\u2028\\ud83d\\ude00"';
    expect(partialValue(text)).toBe(JSON.parse(text));
  });

  it('hides an unfinished escape', () => {
    expect(partialValue('"a\\')).toBe('a');
    expect(partialValue('"a\\u')).toBe('a');
    expect(partialValue('"a\\u0')).toBe('a');
    expect(partialValue('"a\\u00')).toBe('a');
    expect(partialValue('"a\\u00e')).toBe('a');
    expect(partialValue('{"k": "a\\')).toEqual({ k: 'a' });
  });

  it('shows "\\u00e9" cut at every position without garbage', () => {
    const text = '"\\u00e9"';
    const expected = [undefined, '', '', '', '', '', '', 'é', 'é'];
    for (let k = 0; k <= text.length; k++) {
      expect(partialValue(text.slice(0, k)), `prefix ${k}`).toBe(expected[k]);
      // Fragmented at this point, the result is the same.
      const { parser } = feed([text.slice(0, k), text.slice(k)]);
      expect(parser.value()).toBe('é');
    }
  });

  it('holds back an escaped high surrogate until its low half completes', () => {
    const text = '"\\ud83d\\ude00"';
    for (let k = 0; k <= text.length; k++) {
      const v = partialValue(text.slice(0, k));
      if (k === 0) expect(v).toBeUndefined();
      else expect(v, `prefix ${k}`).toBe(k >= 13 ? '😀' : '');
      if (typeof v === 'string') expect(hasLoneSurrogate(v)).toBe(false);
    }
    const { reads } = feed(chars(text));
    expect(reads.at(-1)).toBe('😀');
    expect(reads.some((r) => typeof r === 'string' && hasLoneSurrogate(r))).toBe(false);
  });

  it('emits a lone escaped high surrogate as JSON.parse does once the next unit decides', () => {
    for (const text of [
      '"\\ud83dx"',
      '"\\ud83d"',
      '"\\ud83d\\u0041"',
      '"\\ud83d\\n"',
      '"\\ud83d\\ud83d\\ude00"',
      '"\\ude00"',
    ]) {
      expect(partialValue(text)).toBe(JSON.parse(text));
    }
    expect(partialValue('"\\ud83dx')).toBe('\ud83dx');
    expect(partialValue('"\\ud83d\\ud83d')).toBe('\ud83d'); // the first is decided, the second held
    expect(partialValue('"\\ud83d\\ud83d\\ude00')).toBe('\ud83d😀');
    // A lone low surrogate can never become part of a pair later, so it shows at once.
    expect(partialValue('"\\ude00')).toBe('\ude00');
  });

  it('holds back a raw trailing high surrogate', () => {
    const { reads } = feed(['"a\ud83d', '\ude00b"']);
    expect(reads).toEqual(['a', 'a😀b']);
    expect(partialValue('["a\ud83d')).toEqual(['a']);
    // Raw high half followed by an escaped low half is still a pair.
    expect(partialValue('"\ud83d\\ude00"')).toBe('😀');
    expect(partialValue('"\ud83d\\ude0')).toBe('');
    // Raw lone high surrogate closed by the quote is what JSON.parse gives.
    expect(partialValue('"a\ud83d"')).toBe('a\ud83d');
    expect(feed(['"a\ud83d', '"']).reads).toEqual(['a', 'a\ud83d']);
    // Keys go through the same path.
    expect(feed(['{"k\ud83d', '\ude00": 1, "\ud83d', '": 2}']).reads.at(-1)).toEqual({
      'k😀': 1,
      '\ud83d': 2,
    });
  });
});

describe('keys', () => {
  it('leaves out a key whose value has not started', () => {
    expect(partialValue('{"a": 1, "b')).toEqual({ a: 1 });
    expect(partialValue('{"a": 1, "b"')).toEqual({ a: 1 });
    expect(partialValue('{"a": 1, "b":')).toEqual({ a: 1 });
    expect(partialValue('{"a": 1, "b": ')).toEqual({ a: 1 });
    expect(partialValue('{"a": 1, "b": "')).toEqual({ a: 1, b: '' });
    expect(partialValue('{"a": 1, "b": [')).toEqual({ a: 1, b: [] });
    expect(partialValue('{"a": 1, "b": {')).toEqual({ a: 1, b: {} });
  });

  it('never shows a partial key, even inside escapes', () => {
    const text = '{"ke\\u0079\\n": {"inner\\"": true}}';
    const final = JSON.parse(text) as Record<string, unknown>;
    for (let k = 0; k <= text.length; k++) {
      const v = partialValue(text.slice(0, k));
      if (isPlainObject(v)) {
        for (const key of Object.keys(v)) expect(Object.keys(final)).toContain(key);
        const inner = v['key\n'];
        if (isPlainObject(inner))
          expect(Object.keys(inner).every((x) => x === 'inner"')).toBe(true);
      }
    }
  });

  it('makes __proto__ an own data property like JSON.parse, not a prototype change', () => {
    const text = '{"__proto__": {"x": 1}, "y": {"__proto__": [1]}}';
    const v = partialValue(text);
    expect(v).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')).toEqual({
      value: { x: 1 },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect((v as { x?: unknown }).x).toBeUndefined();
    // Also while the object is still open (snapshots are copies) and the value partial.
    const partial = partialValue('{"__proto__": {"x": 1}, "y": {"__proto__": [1');
    expect(Object.getPrototypeOf(partial)).toBe(Object.prototype);
    expect(Object.hasOwn(partial as object, '__proto__')).toBe(true);
    const y = (partial as Record<string, unknown>).y;
    expect(Object.getOwnPropertyDescriptor(y, '__proto__')?.value).toEqual([1]);
    expect(Object.getPrototypeOf(y)).toBe(Object.prototype);
  });

  it('lets a duplicate key overwrite in place, like JSON.parse', () => {
    const text = '{"a": 1, "b": 2, "a": 3}';
    const v = partialValue(text);
    expect(v).toEqual(JSON.parse(text));
    expect(Object.keys(v as object)).toEqual(['a', 'b']);
  });
});

describe('literals', () => {
  it('leaves out a literal until it is complete', () => {
    expect(partialValue('[tr')).toEqual([]);
    expect(partialValue('{"x": nul')).toEqual({});
    expect(partialValue('[1, fals')).toEqual([1]);
    expect(partialValue('t')).toBeUndefined();
    expect(partialValue('nul')).toBeUndefined();
  });

  it('shows true, false and null once complete', () => {
    expect(partialValue('[true')).toEqual([true]);
    expect(partialValue('{"x": null')).toEqual({ x: null });
    expect(partialValue('[false')).toEqual([false]);
    expect(parsePartialJson('false')).toEqual({ value: false, error: null, done: true });
    expect(parsePartialJson('null')).toEqual({ value: null, error: null, done: true });
    expect(parsePartialJson('true')).toEqual({ value: true, error: null, done: true });
  });
});

describe('numbers', () => {
  it('shows the longest valid number prefix', () => {
    expect(partialValue('12')).toBe(12);
    expect(partialValue('12.')).toBe(12);
    expect(partialValue('12.5')).toBe(12.5);
    expect(partialValue('1e')).toBe(1);
    expect(partialValue('1e+')).toBe(1);
    expect(partialValue('1e5')).toBe(100000);
    expect(partialValue('1.5E-2')).toBe(0.015);
  });

  it('keeps the key while the number is incomplete, and never invents one', () => {
    expect(partialValue('{"a": 12.')).toEqual({ a: 12 });
    const v = partialValue('{"a": 1e');
    expect(v).toEqual({ a: 1 });
    expect(Object.keys(v as object)).toEqual(['a']);
    expect(partialValue('[1e')).toEqual([1]);
  });

  it('leaves out a lone minus sign', () => {
    expect(partialValue('[-')).toEqual([]);
    expect(partialValue('-')).toBeUndefined();
    expect(partialValue('{"a": -')).toEqual({});
    expect(partialValue('[-1')).toEqual([-1]);
  });

  it('keeps -0 as -0', () => {
    expect(Object.is(partialValue('-0'), -0)).toBe(true);
    expect(Object.is(partialValue('-0.'), -0)).toBe(true);
    expect(Object.is((partialValue('[-0]') as number[])[0], -0)).toBe(true);
  });

  it('extends a number across fragments', () => {
    const { reads, parser } = feed(['[1', '2', '.', '5', 'e', '1', ']']);
    expect(reads).toEqual([[1], [12], [12], [12.5], [12.5], [125], [125]]);
    expect(parser.done).toBe(true);
  });

  it('rejects numbers JSON.parse rejects', () => {
    for (const [text, position] of [
      ['01', 1],
      ['[01]', 2],
      ['1.e5', 2],
      ['[1.]', 3],
      ['+1', 0],
      ['-x', 1],
      ['1e+x', 3],
      ['.5', 0],
      ['1ex', 2],
    ] as const) {
      expect(() => JSON.parse(text)).toThrow();
      const r = parsePartialJson(text);
      expect(r.error?.position, text).toBe(position);
      expect(r.done).toBe(false);
    }
  });
});

describe('top level', () => {
  it('accepts any JSON value with surrounding whitespace', () => {
    for (const text of [' {"a": [1]} ', '\n[1, 2]\t', ' "s" ', '\r\n42\n', ' true ', 'null']) {
      expect(parsePartialJson(text)).toEqual({ value: JSON.parse(text), error: null, done: true });
    }
  });

  it('is undefined for empty and whitespace-only text', () => {
    expect(parsePartialJson('')).toEqual({ value: undefined, error: null, done: false });
    expect(parsePartialJson(' \n\t\r ')).toEqual({ value: undefined, error: null, done: false });
  });

  it('handles an empty first fragment and empty fragments in between', () => {
    const { reads, parser } = feed(['', '', '{"a"', '', ': 1', '', '}', '']);
    expect(reads).toEqual([undefined, undefined, {}, {}, { a: 1 }, { a: 1 }, { a: 1 }, { a: 1 }]);
    expect(parser.consumed).toBe(8);
    expect(parser.done).toBe(true);
  });

  it('is done only when the text so far is complete JSON', () => {
    const p = new PartialJsonParser();
    p.write('[1');
    expect(p.done).toBe(false);
    p.write(']');
    expect(p.done).toBe(true);
    p.write('  \n');
    expect(p.done).toBe(true);
    const n = new PartialJsonParser();
    n.write('12');
    expect(n.done).toBe(true); // as complete as JSON.parse considers it
    n.write('.');
    expect(n.done).toBe(false);
    n.write('5');
    expect(n.done).toBe(true);
    expect(n.value()).toBe(12.5);
  });
});

describe('identity and immutability', () => {
  it('keeps completed sub-values identical while an open sibling grows', () => {
    const p = new PartialJsonParser();
    p.write('{"a": {"b": 1}, "c": "x');
    const first = p.value() as Record<string, unknown>;
    const a = first.a;
    expect(first).toEqual({ a: { b: 1 }, c: 'x' });
    expect(p.value()).toBe(first); // no write in between

    p.write('y');
    const second = p.value() as Record<string, unknown>;
    expect(second).not.toBe(first);
    expect(second.a).toBe(a);
    expect(second.c).toBe('xy');

    p.write('z"}');
    const third = p.value() as Record<string, unknown>;
    expect(third.a).toBe(a);
    expect(third).toEqual({ a: { b: 1 }, c: 'xyz' });
    expect(p.value()).toBe(third);

    // Earlier snapshots were not mutated.
    expect(first).toEqual({ a: { b: 1 }, c: 'x' });
    expect(second).toEqual({ a: { b: 1 }, c: 'xy' });
  });

  it('returns fresh copies of changed open containers and never mutates old reads', () => {
    const p = new PartialJsonParser();
    p.write('[1, [2');
    const r1 = p.value() as unknown[];
    p.write(', 3');
    const r2 = p.value() as unknown[];
    p.write('], 4');
    const r3 = p.value() as unknown[];
    expect(r1).toEqual([1, [2]]);
    expect(r2).toEqual([1, [2, 3]]);
    expect(r3).toEqual([1, [2, 3], 4]);
    expect(r2[1]).not.toBe(r1[1]);
    p.write(']');
    const r4 = p.value() as unknown[];
    expect(r4[1]).toBe(r3[1]); // closed at r3 already: stable from then on
    expect(p.value()).toBe(r4);
  });

  it('returns the same snapshot when a write changed nothing visible', () => {
    const p = new PartialJsonParser();
    p.write('{"a": [1, 2]');
    const before = p.value();
    for (const f of [' ', '', ',\n', ' "b', 'c"', ': ', 'tr', 'u']) {
      p.write(f);
      expect(p.value(), JSON.stringify(f)).toBe(before);
    }
    p.write('e');
    expect(p.value()).toEqual({ a: [1, 2], bc: true });
  });

  it('hands out the final root object itself once complete', () => {
    const p = new PartialJsonParser();
    p.write('{"a": [1], "b": {"c": 2}}');
    const v = p.value() as Record<string, unknown>;
    p.write('  ');
    expect(p.value()).toBe(v);
  });
});

describe('errors', () => {
  const cases: [name: string, good: string, bad: string, position: number][] = [
    ['bad escape', '{"a": "x', '\\x"}', 9],
    ['bad unicode escape', '["\\u00', 'g0"]', 6],
    ['unexpected character', '[1, ', '}', 4],
    ['mismatched closer', '[1, 2', '}', 5],
    ['garbage after an unterminated container', '{"a": "b"', ']', 9],
    ['trailing comma', '[1,', ']', 3],
    ['missing colon', '{"a"', ' 1', 5],
    ['unquoted key', '{', 'a: 1}', 1],
    ['second top-level value', '{"a": 1} ', '{"b": 2}', 9],
    ['second top-level scalar', '"one"', '"two"', 5],
    ['raw control character in a string', '{"a": "x', '\u0001"}', 8],
    ['raw newline in a string', '"line', '\n"', 5],
    ['bad literal', '[nu', 'x]', 3],
    ['non-JSON whitespace', '[1,', '\u00a02]', 3],
  ];

  for (const [name, good, bad, position] of cases) {
    it(`records ${name} without throwing and keeps the last good value`, () => {
      expect(() => JSON.parse(good + bad)).toThrow();
      const p = new PartialJsonParser();
      p.write(good);
      const lastGood = p.value();
      expect(p.error).toBeNull();
      expect(() => p.write(bad)).not.toThrow();
      expect(p.error).not.toBeNull();
      expect(p.error?.position).toBe(position);
      expect(p.error?.message).toMatch(/\S/);
      expect(p.value()).toEqual(lastGood);
      expect(p.done).toBe(false);
      // One-shot parsing agrees on where it failed.
      expect(parsePartialJson(good + bad).error).toEqual(p.error);
    });
  }

  it('rejects every raw U+0000–U+001F inside a string, and only those', () => {
    for (let c = 0; c <= 0x7f; c++) {
      const text = `["a${String.fromCharCode(c)}b"]`;
      const r = parsePartialJson(text);
      if (c < 0x20) {
        expect(() => JSON.parse(text)).toThrow();
        expect(r.error?.position, `U+${c.toString(16)}`).toBe(3);
        expect(r.value).toEqual(['a']);
      } else if (c !== 0x22 && c !== 0x5c) {
        expect(r).toEqual({ value: JSON.parse(text), error: null, done: true });
      }
    }
  });

  it('keeps the first error, ignores later input and still counts it', () => {
    const p = new PartialJsonParser();
    p.write('[1, "a\\q');
    const error = p.error;
    expect(error).toEqual({ message: expect.any(String), position: 7 });
    const value = p.value();
    p.write('", 2]');
    p.write('');
    p.write('{{{');
    expect(p.error).toBe(error);
    expect(p.value()).toEqual(value);
    expect(p.value()).toEqual([1, 'a']);
    expect(p.consumed).toBe(8 + 5 + 3);
    expect(p.done).toBe(false);
  });

  it('reports the value from before a bad character that ends a number', () => {
    expect(parsePartialJson('[12x')).toMatchObject({ value: [12], done: false });
    expect(parsePartialJson('[12x').error?.position).toBe(3);
    expect(parsePartialJson('{"a": 1.5 2}')).toMatchObject({ value: { a: 1.5 } });
  });

  it('never throws on arbitrary text fed in arbitrary fragments', () => {
    const alphabet = fc.constantFrom(
      ...'{}[]",:\\/ \n\t0123456789.eE+-tfnrulasbu'.split(''),
      '\u0000',
      '\ud83d',
      '\ude00',
      '\u00a0',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string({ unit: alphabet, maxLength: 60 }),
          // Nearly-valid JSON: a document with one character replaced.
          fc
            .tuple(
              jsonDocuments,
              fc.nat(),
              fc.string({ unit: alphabet, minLength: 1, maxLength: 1 }),
            )
            .map(([d, at, ch]) => {
              const k = at % (d.length + 1);
              return d.slice(0, k) + ch + d.slice(k + 1);
            }),
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        (text, cuts) => {
          const p = new PartialJsonParser();
          let last: unknown;
          let errored = false;
          for (const f of splitAt(text, cuts)) {
            p.write(f);
            const v = p.value();
            if (errored) expect(v).toEqual(last);
            last = v;
            errored = p.error !== null;
          }
          expect(p.consumed).toBe(text.length);
          const oneShot = parsePartialJson(text);
          expect(oneShot.error).toEqual(p.error);
          expect(oneShot.done).toBe(p.done);
          const parsed = tryParse(text);
          // Sound: whatever JSON.parse accepts is accepted with the same value; whatever
          // we reject JSON.parse rejects, and the text before the error was fine.
          if (parsed.ok) {
            expect(p.error).toBeNull();
            expect(p.done).toBe(true);
            expect(p.value()).toEqual(parsed.value);
          }
          if (p.done) expect(parsed.ok).toBe(true);
          if (p.error !== null) {
            expect(parsed.ok).toBe(false);
            expect(parsePartialJson(text.slice(0, p.error.position)).error).toBeNull();
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

describe('properties', () => {
  it('parses a whole document exactly like JSON.parse', () => {
    fc.assert(
      fc.property(jsonDocuments, (text) => {
        const r = parsePartialJson(text);
        const expected: unknown = JSON.parse(text);
        expect(r.error).toBeNull();
        expect(r.done).toBe(true);
        expect(r.value).toEqual(expected);
        if (typeof expected === 'number') expect(Object.is(r.value, expected)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with JSON.parse on every parseable prefix and stays consistent with the end', () => {
    fc.assert(
      fc.property(jsonDocuments, (text) => {
        const final: unknown = JSON.parse(text);
        const p = new PartialJsonParser();
        for (let k = 0; k <= text.length; k++) {
          if (k > 0) p.write(text.charAt(k - 1));
          const v = p.value();
          expect(p.error).toBeNull();
          const parsed = tryParse(text.slice(0, k));
          // A top-level number that may still continue (`12` of `123`) parses, but its
          // final value is not known yet.
          const midNumber = /[0-9]/.test(text.charAt(k - 1)) && /[0-9.eE+-]/.test(text.charAt(k));
          if (parsed.ok && !midNumber) {
            expect(v).toEqual(parsed.value);
            // A scalar exactly as JSON.parse gives it (Object.is tells -0 from 0).
            if (v === null || typeof v !== 'object') expect(Object.is(v, parsed.value)).toBe(true);
          }
          expect(p.done).toBe(parsed.ok);
          if (v !== undefined) expect(isConsistentWith(v, final), `prefix ${k}`).toBe(true);
          // Nothing is shown only before a value starts or inside a top-level `-` or literal.
          else expect(text.slice(0, k)).toMatch(/^[ \t\n\r]*(-|t|tr|tru|f|fa|fal|fals|n|nu|nul)?$/);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('gives the one-shot result at every fragment boundary of any split', () => {
    fc.assert(
      fc.property(
        jsonDocuments,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        (text, cuts, readEveryTime) => {
          const fragments = splitAt(text, cuts);
          const p = new PartialJsonParser();
          const snapshots: [unknown, string][] = [];
          for (const f of fragments) {
            p.write(f);
            if (!readEveryTime && f.length % 3 === 0) continue;
            const v = p.value();
            const oneShot = parsePartialJson(text.slice(0, p.consumed));
            expect(v).toEqual(oneShot.value);
            expect(p.done).toBe(oneShot.done);
            expect(p.error).toBeNull();
            expect(p.value()).toBe(v);
            snapshots.push([v, JSON.stringify(v) ?? 'undefined']);
          }
          expect(p.value()).toEqual(JSON.parse(text));
          // No snapshot handed out earlier was changed by later writes.
          for (const [v, json] of snapshots) expect(JSON.stringify(v) ?? 'undefined').toBe(json);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads of a split document never show a lone surrogate that the final text lacks', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (s, cuts) => {
          const text = JSON.stringify([s]);
          const p = new PartialJsonParser();
          for (const f of splitAt(text, cuts)) {
            p.write(f);
            const v = p.value();
            const shown: unknown = Array.isArray(v) && v.length > 0 ? v[0] : '';
            expect(typeof shown === 'string' && !hasLoneSurrogate(shown)).toBe(true);
          }
          expect(p.value()).toEqual([s]);
        },
      ),
    );
  });
});

describe('nesting depth', () => {
  it(`stops with an error past DEFAULT_MAX_JSON_DEPTH levels and keeps the last good value`, () => {
    const p = new PartialJsonParser();
    p.write('['.repeat(DEFAULT_MAX_JSON_DEPTH));
    expect(p.error).toBeNull();
    const before = p.value();
    p.write('[[[1]]]');
    expect(p.error).toEqual({
      message: `Nesting deeper than ${DEFAULT_MAX_JSON_DEPTH} levels at position ${DEFAULT_MAX_JSON_DEPTH}`,
      position: DEFAULT_MAX_JSON_DEPTH,
    });
    expect(p.value()).toBe(before);
    expect(p.consumed).toBe(DEFAULT_MAX_JSON_DEPTH + 7);
  });

  it('takes a lower limit per parser, objects and arrays alike', () => {
    expect(parsePartialJson('{"a":[{"b":1}]}', { maxDepth: 3 })).toEqual({
      value: { a: [{ b: 1 }] },
      error: null,
      done: true,
    });
    const deeper = parsePartialJson('{"a":[{"b":[1]}]}', { maxDepth: 3 });
    expect(deeper.error?.position).toBe(11);
    expect(deeper.value).toStrictEqual({ a: [{}] });
  });
});
