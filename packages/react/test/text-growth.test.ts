import { describe, expect, it } from 'vitest';
import { appendedSince, grownFrom, recordAppend } from '../src/text-growth.js';

/** A string built by appending, as a stream builds its text (a new string each time). */
const grown = (base: string, appended: string) => base + appended;

describe('text growth journal', () => {
  it('gives what a recorded text gained after its base', () => {
    const base = grown('The answer ', 'so far');
    const next = grown(base, ', and more');
    recordAppend(next, base, ', and more');
    expect(appendedSince(next, base)).toBe(', and more');
  });

  it('knows nothing of texts it was not told about, or of another base', () => {
    const base = grown('unrecorded ', 'base');
    const next = grown(base, ' plus');
    expect(appendedSince(next, base)).toBeUndefined();
    recordAppend(next, base, ' plus');
    const other = grown('unrecorded ', 'bass');
    expect(appendedSince(next, other)).toBeUndefined();
    expect(appendedSince(base, next)).toBeUndefined();
  });

  it('answers from the recorded append, without comparing the texts', () => {
    // Recorded wrongly on purpose: the answer is what was recorded, so the texts were not read.
    const base = grown('Hello', '');
    const next = grown('Jello', ' world');
    recordAppend(next, base, ' world');
    expect(appendedSince(next, base)).toBe(' world');
  });

  it('ignores a record whose lengths do not add up', () => {
    const base = grown('abc', 'def');
    const next = grown(base, 'ghi');
    recordAppend(next, base, 'gh');
    expect(appendedSince(next, base)).toBeUndefined();
  });

  it('forgets the oldest records once 64 newer ones were made', () => {
    const base = grown('first ', 'base');
    const next = grown(base, '!');
    recordAppend(next, base, '!');
    for (let i = 0; i < 63; i++) recordAppend(grown(`n${i}`, 'x'), `n${i}`, 'x');
    expect(appendedSince(next, base)).toBe('!');
    recordAppend(grown('one ', 'more'), 'one ', 'more');
    expect(appendedSince(next, base)).toBeUndefined();
  });
});

describe('grownFrom', () => {
  it('gives what a text gained, from the journal when recorded, else by comparing', () => {
    const base = grown('Thinking ', 'about it');
    const recorded = grown(base, ', step one');
    recordAppend(recorded, base, ', step one');
    expect(grownFrom(recorded, base)).toBe(', step one');
    // Not recorded: compared, and still the part after the base.
    const compared = grown(base, ' and more');
    expect(grownFrom(compared, base)).toBe(' and more');
  });

  it('gives nothing for a text that did not grow from the base', () => {
    const base = grown('abc', 'def');
    expect(grownFrom(grown('abx', 'defg'), base)).toBeUndefined();
    expect(grownFrom(grown('abc', 'def'), base)).toBeUndefined();
    expect(grownFrom('abc', base)).toBeUndefined();
  });
});
