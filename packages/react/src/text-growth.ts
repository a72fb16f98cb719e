/**
 * What a streaming text gained since an earlier version of it, known without reading either.
 *
 * A string built by appending is a rope in V8, and the first read of each version (a search,
 * a slice, a comparison of equal lengths) copies it whole into a flat string. A view that
 * compared or sliced each update of a growing answer so copied the whole answer per update:
 * work and garbage per frame that grew with the answer (at 275 KB, 0.9 ms and a large object
 * a frame, freed only by full collections). Whoever builds a version by appending records
 * here how it was built; whoever reads it asks here first and reads only the new part.
 *
 * A short journal of the latest appends, searched newest first with `===`: strings cannot be
 * weak keys, and a map keyed by strings would hash (so read) them. `===` finds the same
 * string at once and tells strings of different lengths apart without reading them; an
 * entry that scrolled out (or was forgotten) only means the reader reads the whole text, as
 * it would without the journal.
 */

/** Appends remembered: a few per streaming block and step (store, markdown split, code). */
const JOURNAL_SIZE = 64;

const grown: (string | undefined)[] = new Array(JOURNAL_SIZE);
const bases: (string | undefined)[] = new Array(JOURNAL_SIZE);
const added: (string | undefined)[] = new Array(JOURNAL_SIZE);
let nextSlot = 0;

/** Records that `next` is `base` followed by `appended` (the caller built it so). */
export function recordAppend(next: string, base: string, appended: string): void {
  if (appended === '' || next.length !== base.length + appended.length) return;
  grown[nextSlot] = next;
  bases[nextSlot] = base;
  added[nextSlot] = appended;
  nextSlot = (nextSlot + 1) % JOURNAL_SIZE;
}

/**
 * What `next` has after `base` when `next` was recorded as `base` plus it, else undefined
 * (the caller then compares the texts itself). Reads neither string, unless a newer entry is
 * another string of the same length (then `===` compares the two: rare, and correct).
 */
export function appendedSince(next: string, base: string): string | undefined {
  if (next.length <= base.length) return undefined;
  // Newest first: a growing text's latest step is the one asked for.
  for (let k = 1; k <= JOURNAL_SIZE; k++) {
    const slot = (nextSlot - k + JOURNAL_SIZE) % JOURNAL_SIZE;
    const candidate = grown[slot];
    if (candidate === undefined) return undefined;
    // Lengths first: `===` on two different strings of one length compares their characters.
    if (candidate.length === next.length && candidate === next) {
      const from = bases[slot] as string;
      if (from.length === base.length && from === base) return added[slot];
    }
  }
  return undefined;
}

/**
 * Drops every record: what they hold (versions of an answer's text) need not outlive its
 * stream. A reader then reads the whole text once, as without the journal.
 */
export function forgetAppends(): void {
  grown.fill(undefined);
  bases.fill(undefined);
  added.fill(undefined);
}

/**
 * Whether `text` starts with `prefix`: what `text.startsWith(prefix)` says, as fast as the
 * engine compares two strings. A growing block is checked against the code it had a frame
 * ago on every frame; V8's `startsWith` compares character by character (some 0.2-0.5 ms
 * for a 5,000-line block, measured), while `===` on the cut prefix compares the memory at
 * once (a few microseconds). The cut is a view of `text`, not a copy.
 */
export function startsWithText(text: string, prefix: string): boolean {
  return text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
}

/**
 * What `next` has after `base` when it grew from it: from the journal when recorded, else by
 * comparing (`startsWithText`); undefined when `next` is not `base` plus something.
 */
export function grownFrom(next: string, base: string): string | undefined {
  const recorded = appendedSince(next, base);
  if (recorded !== undefined) return recorded;
  return next.length > base.length && startsWithText(next, base)
    ? next.slice(base.length)
    : undefined;
}
