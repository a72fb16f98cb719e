import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HARD_CHARS,
  SEGMENT_CHARS,
  SPACE_CHARS,
  segmentText,
  type TextSegments,
  UNBROKEN_CHARS,
} from '../../src/components/text-segments.js';
import { recordAppend } from '../../src/text-growth.js';

const pieces = (segments: TextSegments) => [...segments.closed, segments.open];

/** Grows `text` in the given cut points' steps, carrying the pieces on, as a view renders it. */
function grow(text: string, cuts: readonly number[], record: boolean): TextSegments[] {
  let previous = segmentText('');
  const steps: TextSegments[] = [previous];
  let shown = '';
  for (const at of [...cuts, text.length]) {
    if (at <= shown.length) continue;
    const appended = text.slice(shown.length, at);
    const next = shown + appended;
    if (record) recordAppend(next, shown, appended);
    previous = segmentText(next, previous);
    steps.push(previous);
    shown = next;
  }
  return steps;
}

const word = fc.constantFrom('thinking', 'about', 'the', 'answer', 'x', '—', '😀', '\n', '\n\n');
const line = fc.array(word, { maxLength: 40 }).map((words) => `${words.join(' ')}\n`);
/** Text that breaks no line: pieces end at spaces, or mid-word. */
const run = fc
  .tuple(
    fc.array(fc.constantFrom('word ', 'x', 'yy', '😀', ' ', '. ', '.'), { maxLength: 60 }),
    fc.nat(600),
  )
  .map(([words, times]) => words.join('').repeat(times));

describe('segmentText', () => {
  it('keeps a short text in one piece', () => {
    const segments = segmentText('A short thought.\nAnd a second line.');
    expect(segments.closed).toEqual([]);
    expect(segments.open).toBe('A short thought.\nAnd a second line.');
  });

  it('ends a piece just after the first line break past SEGMENT_CHARS characters', () => {
    const head = 'a'.repeat(SEGMENT_CHARS + 10);
    const text = `${'b'.repeat(100)}\n${head}\nrest`;
    const segments = segmentText(text);
    // The line break at 100 is too early; the next one ends the piece.
    expect(segments.closed).toEqual([`${'b'.repeat(100)}\n${head}\n`]);
    expect(segments.open).toBe('rest');
  });

  it('ends a long run without line breaks after a sentence, else at a space, else mid-word', () => {
    const sentences = 'One short sentence. '.repeat(UNBROKEN_CHARS / 20 + 10);
    const bySentence = segmentText(sentences);
    // The first ". " at or past UNBROKEN_CHARS - 1 (its "." at 8198): a whole sentence ends it.
    expect(bySentence.closed[0]?.length).toBe(8200);
    expect(bySentence.closed[0]?.endsWith('sentence. ')).toBe(true);
    const words = 'word '.repeat(SPACE_CHARS / 5 + 10);
    const bySpace = segmentText(words);
    // The first space at or past SPACE_CHARS - 1 (12287 is inside a word; 12289 is a space).
    expect(bySpace.closed[0]?.length).toBe(12290);
    expect(bySpace.closed.join('') + bySpace.open).toBe(words);
    const solid = segmentText('x'.repeat(HARD_CHARS + 5));
    expect(solid.closed).toEqual(['x'.repeat(HARD_CHARS)]);
    expect(solid.open).toBe('xxxxx');
  });

  it('never cuts a CR LF in two at the hard limit', () => {
    const text = `${'a'.repeat(HARD_CHARS - 1)}\r\nb`;
    const segments = segmentText(text);
    // A line break is a piece's end only past SEGMENT_CHARS: here it is the hard limit's.
    expect(segments.closed).toEqual(['a'.repeat(HARD_CHARS - 1)]);
    expect(segments.open).toBe('\r\nb');
  });

  it('never cuts a surrogate pair in two', () => {
    const text = `${'x'.repeat(HARD_CHARS - 1)}😀${'y'.repeat(10)}`;
    const segments = segmentText(text);
    expect(segments.closed).toEqual(['x'.repeat(HARD_CHARS - 1)]);
    expect(segments.open.startsWith('😀')).toBe(true);
  });

  it('splits a text growing in any steps exactly as it splits the whole text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(line, run), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        (parts, rawCuts, record) => {
          const text = parts.join('');
          const cuts = rawCuts.map((n) => n % (text.length + 1)).sort((a, b) => a - b);
          const steps = grow(text, cuts, record);
          const whole = segmentText(text);
          const last = steps.at(-1) as TextSegments;
          expect(pieces(last)).toEqual(pieces(whole));
          expect(pieces(last).join('')).toBe(text);
          for (const step of steps) expect(pieces(step).join('')).toBe(step.source);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('splits a text growing a character at a time as it splits the whole text', () => {
    // Every step boundary falls once just before each place a piece can end.
    const text = [
      'a thought\n'.repeat(700),
      'A sentence. '.repeat(1000),
      'word '.repeat(3000),
      'z'.repeat(HARD_CHARS + 3),
      '\n\nend\n',
    ].join('');
    const cuts = Array.from({ length: text.length }, (_, i) => i);
    const last = grow(text, cuts, true).at(-1) as TextSegments;
    expect(pieces(last)).toEqual(pieces(segmentText(text)));
    expect(last.closed.length).toBeGreaterThan(4);
  });

  it('keeps finished pieces, and their array, as the text grows', () => {
    const first = 'line of thought\n'.repeat(200);
    const one = segmentText(first);
    expect(one.closed.length).toBeGreaterThan(0);
    const two = segmentText(`${first}more`, one);
    expect(two.closed).toBe(one.closed);
    expect(two.open).toBe(`${one.open}more`);
    expect(segmentText(two.source, two)).toBe(two);
  });

  it('reads only what the store recorded an update added', () => {
    const base = `${'a'.repeat(SEGMENT_CHARS)}`;
    const first = segmentText(base);
    // A record that lies on purpose: the pieces follow it, so the new text itself was not read.
    const next = `${'b'.repeat(SEGMENT_CHARS)}ccc`;
    recordAppend(next, base, 'ccc');
    const grown = segmentText(next, first);
    expect(grown.source).toBe(next);
    expect(pieces(grown).join('')).toBe(`${base}ccc`);
  });

  it('starts again from the whole text when the text did not grow from the last one', () => {
    const first = segmentText(`${'x'.repeat(SEGMENT_CHARS)}\nold`);
    const other = segmentText(`${'y'.repeat(SEGMENT_CHARS)}\nnew`, first);
    expect(pieces(other)).toEqual([`${'y'.repeat(SEGMENT_CHARS)}\n`, 'new']);
    const shorter = segmentText('short', other);
    expect(pieces(shorter)).toEqual(['short']);
  });
});
