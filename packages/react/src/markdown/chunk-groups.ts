import type { MarkdownChunk } from './split.js';

/** Chunks a group holds at least before it may end (the drawn page's unit of skipping). */
export const CHUNKS_PER_GROUP = 32;

/** Where each group of a text's chunks starts, with the chunk found there (for `groupStarts`). */
export interface GroupStarts {
  readonly starts: readonly number[];
  readonly firsts: readonly (MarkdownChunk | undefined)[];
}

export const NO_GROUP_STARTS: GroupStarts = { starts: [0], firsts: [undefined] };

/** An ATX heading's first line, or a setext heading's underline as a chunk's last line. */
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /\n {0,3}(?:=+|-+)[ \t]*$/;

const opens = new WeakMap<MarkdownChunk, boolean>();

/**
 * Whether a group may start at `chunk`: it draws something and, in the default stylesheet, has
 * no top margin of its own. A skipped group keeps its blocks' margins inside it (layout
 * containment), so two blocks on either side of a group's edge no longer collapse their
 * margins into the larger: a block whose own top margin is larger than the gap the block
 * before leaves (a heading, display math) would sit closer to it there than elsewhere.
 */
export function opensGroup(chunk: MarkdownChunk): boolean {
  let known = opens.get(chunk);
  if (known === undefined) {
    const text = chunk.text;
    known =
      !chunk.definitionsOnly &&
      !ATX_HEADING.test(text) &&
      !text.startsWith('$$') &&
      !SETEXT_UNDERLINE.test(text.trimEnd());
    opens.set(chunk, known);
  }
  return known;
}

/**
 * Where the groups of `chunks` start: a group ends once it holds CHUNKS_PER_GROUP chunks, before
 * the next finished chunk that `opensGroup`; the text's last chunk (still growing while it
 * streams) never starts one. A pure function of the chunks, carried on from `known` (the
 * starts of an earlier version of the same text): starts whose chunk is the same object are
 * kept, so each update looks only at the chunks after the last group's start.
 */
export function groupStarts(chunks: readonly MarkdownChunk[], known: GroupStarts): GroupStarts {
  let keep = 1;
  while (
    keep < known.starts.length &&
    chunks[known.starts[keep] as number] === known.firsts[keep]
  ) {
    keep++;
  }
  const starts = known.starts.slice(0, keep);
  const firsts = known.firsts.slice(0, keep);
  const lastChunk = chunks.length - 1;
  for (let at = (starts[keep - 1] as number) + CHUNKS_PER_GROUP; at < lastChunk; at++) {
    const chunk = chunks[at] as MarkdownChunk;
    if (!opensGroup(chunk)) continue;
    starts.push(at);
    firsts.push(chunk);
    at += CHUNKS_PER_GROUP - 1;
  }
  if (starts.length === known.starts.length && keep === known.starts.length) return known;
  return { starts, firsts };
}
