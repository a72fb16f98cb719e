import { flatCopy } from '../flat-copy.js';
import { grownFrom } from '../text-growth.js';

/**
 * Plain text (a thinking block, a text block in plain mode) cut into pieces drawn as blocks of
 * their own, so that a streaming text lays out only its last piece per update. As one text node,
 * each update of a long thinking block re-laid out every line of it: 25-30 ms a frame at 160 K
 * characters (the long-thinking row of `pnpm bench`).
 *
 * A piece ends just after a line break, so the pieces, each a block under `white-space:
 * pre-wrap`, draw the lines the whole text draws. A text that breaks no line for long ends a
 * piece after a sentence instead (a line then ends early there), else at a space, and with no
 * space either, mid-word.
 * Where a piece ends depends only on the text, never on how it arrived, so a text split as it
 * streamed is split as it would be whole.
 */
export interface TextSegments {
  /** The text these pieces are of. */
  readonly source: string;
  /** Finished pieces, in order: they never change. */
  readonly closed: readonly string[];
  /** The rest of the text, still growing while it streams. */
  readonly open: string;
}

/** A piece ends at the first line break at or past this many characters. */
export const SEGMENT_CHARS = 2048;
/** ... or, without one, after the first sentence (". ") ending at or past this many. */
export const UNBROKEN_CHARS = 8192;
/** ... or, without either, at the first space at or past this many. */
export const SPACE_CHARS = 12288;
/** ... or, without any, here. */
export const HARD_CHARS = 16384;

/** HARD_CHARS, or one less where that would cut a surrogate pair or a CR LF in two. */
function hardEnd(text: string): number {
  const code = text.charCodeAt(HARD_CHARS - 1);
  return (code >= 0xd800 && code <= 0xdbff) || code === 13 ? HARD_CHARS - 1 : HARD_CHARS;
}

/**
 * Just past the first `mark` starting at or past `at` (searching from `from`, less what of the
 * mark the text before `from` may hold), or Infinity.
 */
function after(text: string, mark: string, at: number, from: number): number {
  const found = text.indexOf(mark, Math.max(from - mark.length + 1, at));
  return found === -1 ? Number.POSITIVE_INFINITY : found + mark.length;
}

/** Where the first piece of `text` ends, searching only from `from`; -1 when it does not yet. */
function pieceEnd(text: string, from: number): number {
  let end = Math.min(after(text, '\n', SEGMENT_CHARS - 1, from), hardEnd(text));
  if (text.length >= UNBROKEN_CHARS) {
    end = Math.min(end, after(text, '. ', UNBROKEN_CHARS - 1, from));
  }
  if (text.length >= SPACE_CHARS) end = Math.min(end, after(text, ' ', SPACE_CHARS - 1, from));
  return end <= text.length ? end : -1;
}

/** Cuts every finished piece off the front of `open`, searching it from `from` on. */
function cut(closed: readonly string[], open: string, from: number, source: string): TextSegments {
  let pieces: string[] | null = null;
  let rest = open;
  let searchFrom = from;
  for (let end = pieceEnd(rest, searchFrom); end !== -1; end = pieceEnd(rest, searchFrom)) {
    pieces ??= [...closed];
    // A copy of its own: a slice would keep the whole text of this update alive.
    pieces.push(flatCopy(rest.slice(0, end)));
    rest = rest.slice(end);
    searchFrom = 0;
  }
  return { source, closed: pieces ?? closed, open: rest };
}

/**
 * The pieces of `text`, carried on from `previous` (the pieces of an earlier version of the
 * same text) when `text` grew from it: then only what it gained is read, when the store
 * recorded that (`text-growth.ts`), and finished pieces keep their strings and array.
 */
export function segmentText(text: string, previous: TextSegments | null = null): TextSegments {
  if (previous !== null) {
    if (text === previous.source) return previous;
    const appended = grownFrom(text, previous.source);
    if (appended !== undefined) {
      const open = previous.open + appended;
      // The open piece was searched up to its old length already.
      return cut(previous.closed, open, previous.open.length, text);
    }
  }
  return cut([], text, 0, text);
}
