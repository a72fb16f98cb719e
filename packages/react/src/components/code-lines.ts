import { appendedSince, startsWithText } from '../text-growth.js';

/** Lines per memoized group: a growing block re-renders its last group, not every line. */
export const GROUP = 64;

/** A block's lines in groups of `GROUP`, and where its last line starts. */
export interface SplitCode {
  readonly code: string;
  readonly groups: readonly (readonly string[])[];
  readonly lastLineStart: number;
}

/**
 * `code` split into lines, in groups of `GROUP`. When `code` only grew from `previous`'s code,
 * only its last line onwards is split again, and every group before the last keeps its array.
 */
export function splitLines(code: string, previous: SplitCode | null): SplitCode {
  // Recorded as the previous code plus an append (text-growth.ts): only that is read.
  const appended = previous === null ? undefined : appendedSince(code, previous.code);
  if (previous === null || (appended === undefined && !startsWithText(code, previous.code))) {
    const groups: string[][] = [];
    const all = ownLines(code);
    for (let start = 0; start < all.length; start += GROUP) {
      groups.push(all.slice(start, start + GROUP));
    }
    return { code, groups, lastLineStart: code.lastIndexOf('\n') + 1 };
  }
  if (code.length === previous.code.length) return previous;
  const groups = previous.groups.slice(0, -1);
  // The last group again, less its last line (the one that grew), then the new lines.
  const lastGroup = previous.groups.at(-1) as readonly string[];
  let current = lastGroup.slice(0, -1);
  let lastLineStart = previous.lastLineStart;
  const fresh = ownLines(
    appended === undefined ? code.slice(lastLineStart) : (lastGroup.at(-1) as string) + appended,
  );
  for (let i = 0; i < fresh.length; i++) {
    const line = fresh[i] as string;
    if (current.length === GROUP) {
      groups.push(current);
      current = [];
    }
    current.push(line);
    if (i < fresh.length - 1) lastLineStart += line.length + 1;
  }
  groups.push(current);
  return { code, groups, lastLineStart };
}

/**
 * `text`'s lines, as strings of their own. A substring (`split`, `slice`) points into the
 * string it was cut from and keeps all of it alive (V8's sliced strings). Read whole, a
 * streaming block's code is a new flat copy each frame, and lines cut from it kept one copy
 * per frame that split them (a 2,000-line answer kept some forty, 4 MB, which minor GCs
 * copied and promoted). Cut from `text` plus a newline, a new string the engine makes flat
 * before splitting it, the lines keep only that copy of the new text.
 */
function ownLines(text: string): string[] {
  const lines = `${text}\n`.split('\n');
  lines.pop();
  return lines;
}
