/**
 * Merging a continuation into the answer it continues (step 3 of resume, see
 * `continuation.ts`): one answer, as if it had never broken off.
 */

import { concatCitations, isText, isThinkingType, recoverBlocks, textOf } from './continuation.js';
import type { StreamError } from './errors.js';
import { isPlainObject, setOwn } from './object.js';
import type { ContentBlock, Usage } from './protocol.js';
import { MAX_DIAGNOSTICS, MAX_SUPERSEDED } from './reduce.js';
import { type ResumeStrategy, resumeStrategyFor } from './resume-strategy.js';
import type { AttemptSummary, BlockState, Diagnostic, LiveMessage, StreamState } from './state.js';

/** Longest overlap looked for at the seam, in characters (keeps a merge O(this)). */
const MAX_OVERLAP = 10_000;

const WORD = /[\p{L}\p{N}_]/u;
const isWordChar = (char: string | undefined): boolean => char !== undefined && WORD.test(char);
/** A word character, then a non-word run, then a word character: two words or more. */
const SPANS_WORDS = /[\p{L}\p{N}_][^\p{L}\p{N}_]+[\p{L}\p{N}_]/u;
/** What makes an overlap worth removing: a letter, a digit or an emoji ("🎉" + "🎉 Done"). */
const MEANINGFUL = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * Lengths k (longest first) for which the last k characters of `head` equal the first k of
 * `tail`, from the prefix function (KMP) of `tail + sentinel + head`. Linear.
 */
function borders(head: string, tail: string): number[] {
  const sequence: number[] = [];
  for (let i = 0; i < tail.length; i++) sequence.push(tail.charCodeAt(i));
  sequence.push(-1);
  for (let i = 0; i < head.length; i++) sequence.push(head.charCodeAt(i));
  const pi = new Array<number>(sequence.length).fill(0);
  for (let i = 1; i < sequence.length; i++) {
    let k = pi[i - 1] as number;
    while (k > 0 && sequence[i] !== sequence[k]) k = pi[k - 1] as number;
    if (sequence[i] === sequence[k]) k++;
    pi[i] = k;
  }
  const found: number[] = [];
  for (let k = pi[sequence.length - 1] as number; k > 0; k = pi[k - 1] as number) found.push(k);
  return found;
}

/**
 * Whether an overlap of `k` characters at the seam is a repeat to remove. It must contain a
 * letter or digit and start at a word boundary of `head`; then either it ends at a word
 * boundary of `tail` (whole words: "I am" + "am here"), or it is at least 4 characters and
 * spans two words or more (a repeat from a cut mid-word: "brown fo" + "brown fox"). A
 * single partial word is never removed: "I like the" + " theme" stays "I like the theme".
 */
function isRepeat(head: string, tail: string, k: number): boolean {
  const overlap = tail.slice(0, k);
  // Never half of a surrogate pair at either end of the overlap.
  if (isLowSurrogate(overlap.charCodeAt(0)) || isLowSurrogate(tail.charCodeAt(k))) return false;
  if (!MEANINGFUL.test(overlap)) return false;
  const startsClean =
    k === head.length || !isWordChar(head[head.length - k - 1]) || !isWordChar(overlap[0]);
  if (!startsClean) return false;
  const endsClean = k === tail.length || !isWordChar(tail[k]) || !isWordChar(overlap[k - 1]);
  return endsClean || (k >= 4 && SPANS_WORDS.test(overlap));
}

/**
 * The interrupted text joined with the continuation's. Whitespace: a continuation that
 * starts with whitespace replaces the interrupted text's trailing whitespace (the prefill
 * was sent trimmed, so the model writes it again: "Hello " + " world" → "Hello world").
 * Known limit: a whitespace run cut in two and continued verbatim ("a\n" + "\nb", which only
 * a user-message continuation might produce) loses its first half ("a\nb").
 * Repeat (`removeRepeats`, on for a user-message continuation): the longest overlap
 * `isRepeat` accepts is removed (a model told to "continue" often restates the last words).
 * A prefill continuation never restates the prefill (the model writes what follows it), so
 * there nothing is removed: "He said that" + " that was fine." is exactly that. While the continuation's block is still open (streaming,
 * or cut off itself) and all of it so far occurs in the interrupted text, it may be the start
 * of a repeat: it is held back, so a repeat never flashes on screen and a continuation cut
 * mid-repeat adds nothing (the next resume writes it again).
 */
export function joinAtSeam(
  head: string,
  tail: string,
  tailOpen = false,
  removeRepeats = true,
): string {
  return joinSeam(head, tail, tailOpen, removeRepeats).text;
}

/**
 * A seam decided for good: `tail` (a flat copy) is no substring of the interrupted text's
 * last MAX_OVERLAP characters, so every overlap is shorter than it and no longer tail that
 * starts with it can join differently: `overlap` characters of it are dropped.
 */
interface DecidedSeam {
  readonly tail: string;
  readonly overlap: number;
  /**
   * The latest tail joined past the decision (a version of the growing text, not a copy), and
   * the text it gave: a later tail recorded as it plus an append joins as that text plus the
   * append (`MergeOptions.appendedSince`), reading neither.
   */
  readonly last?: { readonly tail: string; readonly text: string };
}

/** A seam decided at `known` (or undecided, for a prefill), joined last at `tail` into `text`. */
const joinedPast = (known: DecidedSeam, tail: string, text: string) => ({
  text,
  decided: { tail: known.tail, overlap: known.overlap, last: { tail, text } },
});

/** A prefill's seam: nothing is ever removed, so every join is final. */
const PREFILL_SEAM: DecidedSeam = { tail: '', overlap: 0 };

/**
 * `joinAtSeam`, given the seam decided for an earlier version of the same growing tail: a
 * continuation's text is joined at every update, and searching the seam each time cost
 * 0.3-0.5 ms an update (a prefix function over up to 20,000 characters). Once decided, an
 * update compares the tail's first characters with the decided ones; and when the caller
 * knows the tail grew by an append since the last join (`appendedSince`), the join grows by
 * it too, with neither text read: a read of a text built by appending copies it whole, which
 * made each update of a long continuation cost its length.
 */
function joinSeam(
  head: string,
  tail: string,
  tailOpen: boolean,
  removeRepeats: boolean,
  known?: DecidedSeam,
  appendedSince?: MergeOptions['appendedSince'],
): { text: string; decided?: DecidedSeam } {
  if (tail === '') return { text: head };
  if (known?.last !== undefined && appendedSince !== undefined) {
    const appended = appendedSince(tail, known.last.tail);
    if (appended !== undefined) return joinedPast(known, tail, known.last.text + appended);
  }
  const base = /^\s/.test(tail) ? head.trimEnd() : head;
  if (!removeRepeats) return joinedPast(PREFILL_SEAM, tail, base + tail);
  if (known !== undefined && tail.startsWith(known.tail)) {
    return joinedPast(known, tail, base + tail.slice(known.overlap));
  }
  const window = base.slice(-MAX_OVERLAP);
  const start = tail.slice(0, MAX_OVERLAP);
  let overlap = 0;
  for (const k of borders(window, start)) {
    if (isRepeat(base, tail, k)) {
      overlap = k;
      break;
    }
  }
  if (window.includes(tail)) {
    // A longer tail may still overlap more, or be held back: not decided yet.
    if (overlap === 0 && tailOpen && tail.length <= MAX_OVERLAP) return { text: base };
    return { text: base + tail.slice(overlap) };
  }
  // `${…}` then a slice: a copy of its own, not a slice that keeps this version of the text.
  return joinedPast({ tail: `${tail}\n`.slice(0, -1), overlap }, tail, base + tail.slice(overlap));
}

function summarize(state: StreamState): AttemptSummary {
  return {
    messageId: state.message?.id ?? '',
    status: state.status,
    usage: state.message?.usage ?? {},
    error: state.error ?? null,
  };
}

/** Usage of two attempts: numbers summed per field (nested objects too); others: latest. */
export function sumUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = { ...a };
  for (const key of Object.keys(b)) {
    const x = Object.hasOwn(a, key) ? a[key] : undefined;
    const y = b[key];
    // setOwn: a `__proto__` key from the wire is summed like any field, never a prototype.
    if (typeof x === 'number' && typeof y === 'number') setOwn(sum, key, x + y);
    else if (isPlainObject(x) && isPlainObject(y)) setOwn(sum, key, sumUsage(x, y));
    else if (y !== null && y !== undefined) setOwn(sum, key, y);
  }
  return sum;
}

/** Renumbered blocks, cached so a block keeps its identity across repeated merges. */
const renumbered = new WeakMap<BlockState, BlockState>();
function atPosition(entry: BlockState, index: number): BlockState {
  if (entry.index === index) return entry;
  const cached = renumbered.get(entry);
  if (cached !== undefined && cached.index === index) return cached;
  const moved = { ...entry, index };
  renumbered.set(entry, moved);
  return moved;
}

/** Merged text blocks, cached per (interrupted block, continuation block) pair and strategy. */
const joinedByStrategy: Record<
  ResumeStrategy,
  WeakMap<BlockState, WeakMap<BlockState, BlockState>>
> = { prefill: new WeakMap(), 'user-message': new WeakMap() };
/** Per strategy and interrupted text block, the seam its continuation's text was decided at. */
const decidedSeams: Record<ResumeStrategy, WeakMap<BlockState, DecidedSeam>> = {
  prefill: new WeakMap(),
  'user-message': new WeakMap(),
};
function joinTextBlocks(
  head: BlockState,
  tail: BlockState,
  index: number,
  strategy: ResumeStrategy,
  appendedSince: MergeOptions['appendedSince'],
): BlockState {
  const joined = joinedByStrategy[strategy];
  let byTail = joined.get(head);
  const cached = byTail?.get(tail);
  if (cached !== undefined && cached.index === index) return cached;
  const { citations: _head, ...headBlock } = head.block as ContentBlock & { citations?: unknown };
  const { citations: _tail, ...tailBlock } = tail.block as ContentBlock & { citations?: unknown };
  const citations = concatCitations(head.block.citations, tail.block.citations);
  const keepNull =
    citations.citations === undefined && ('citations' in head.block || 'citations' in tail.block);
  const otherDeltas = [...(head.otherDeltas ?? []), ...(tail.otherDeltas ?? [])];
  const seam = joinSeam(
    textOf(head),
    textOf(tail),
    tail.status !== 'complete',
    strategy === 'user-message',
    decidedSeams[strategy].get(head),
    appendedSince,
  );
  if (seam.decided !== undefined) decidedSeams[strategy].set(head, seam.decided);
  const merged: BlockState = {
    ...tail,
    index,
    block: {
      ...headBlock,
      ...tailBlock,
      type: 'text',
      text: seam.text,
      ...(keepNull ? { citations: null } : citations),
    },
    ...(otherDeltas.length > 0 ? { otherDeltas } : {}),
  };
  if (byTail === undefined) {
    byTail = new WeakMap();
    joined.set(head, byTail);
  }
  byTail.set(tail, merged);
  joinedFrom.set(merged, tail);
  return merged;
}

/** Each joined text block's continuation block. */
const joinedFrom = new WeakMap<BlockState, BlockState>();

/**
 * The continuation's block that a text block of `mergeContinuation`'s answer was joined from
 * at the seam, else undefined. The joined text is the interrupted text (less its trailing
 * whitespace when the continuation's text starts with whitespace) followed by an end of the
 * continuation's text. So when the continuation's text grew by an append between two merges
 * and the joined text's length grew by as much, the joined text grew by that same append:
 * what a view that reads only what each update added needs to know.
 */
export function joinedContinuationBlock(block: BlockState): BlockState | undefined {
  return joinedFrom.get(block);
}

/**
 * Content of the merged answer. Recovered blocks first (the same objects), then the
 * continuation's. The continuation's leading thinking blocks go just before the interrupted
 * text block (reasoning above the answer, as in any thinking answer), and its first text
 * block — if it is the first block after that thinking — is joined into the interrupted text
 * block (`joinAtSeam`; status of the continuation's block). If the continuation does
 * something else first (a tool call), its blocks follow the interrupted text as they came.
 * Every block's `index` is its position.
 */
function mergeContent(
  recovered: readonly BlockState[],
  continuation: readonly BlockState[],
  strategy: ResumeStrategy,
  appendedSince: MergeOptions['appendedSince'],
): BlockState[] {
  const last = recovered[recovered.length - 1];
  let ordered: Array<BlockState | [BlockState, BlockState]>;
  if (last === undefined) {
    ordered = [...continuation];
  } else {
    let lead = 0;
    while (lead < continuation.length && isThinkingType(continuation[lead]?.block.type ?? '')) {
      lead++;
    }
    const next = continuation[lead];
    const joinable = next !== undefined && isText(next);
    ordered = [
      ...recovered.slice(0, -1),
      ...continuation.slice(0, lead),
      joinable ? [last, next] : last,
      ...continuation.slice(joinable ? lead + 1 : lead),
    ];
  }
  return ordered.map((item, index) =>
    Array.isArray(item)
      ? joinTextBlocks(item[0], item[1], index, strategy, appendedSince)
      : atPosition(item, index),
  );
}

/**
 * Joins the interrupted answer and the continuation's state into one answer. Pure, total.
 *
 * - content: see `mergeContent`; the interrupted message's unrecoverable blocks are gone.
 * - id, type, role, model: the interrupted message's; every other message field
 *   (stop_reason, stop_sequence, `message_delta` extras) the continuation's where it has it.
 * - usage: both attempts summed per numeric field; `attempts`: the interrupted state's (or
 *   one entry for it), then the continuation's (or one entry for it), so merging again after
 *   a further interruption accumulates.
 * - status, stopReceived, error: the continuation's; diagnostics and superseded: both.
 *
 * - the seam: with `strategy: 'user-message'` a restated overlap is removed; with
 *   `'prefill'` the texts are joined as they are (see `joinAtSeam`). Pass the strategy the
 *   continuation was sent with (`continuationStrategy(request, interrupted)`); by default
 *   it is the one `resumeStrategyFor` gives the interrupted message's model, which is what
 *   `continuationRequest` chose unless a strategy was forced or thinking ruled out a prefill.
 *
 * A merged state that is itself interrupted can be passed to `continuationRequest` (with the
 * original request) and merged again.
 */
export function mergeContinuation(
  interrupted: StreamState,
  continuation: StreamState,
  options: MergeOptions = {},
): StreamState {
  try {
    const given = options.strategy ?? resumeStrategyFor(interrupted?.message?.model ?? '');
    return merge(
      interrupted,
      continuation,
      given === 'retry' ? 'prefill' : given,
      options.appendedSince,
    );
  } catch (cause) {
    const diagnostic: Diagnostic = {
      code: 'internal_error',
      message: `Could not merge the continuation: ${String(cause)}`,
    };
    return { ...continuation, diagnostics: [...(continuation?.diagnostics ?? []), diagnostic] };
  }
}

export interface MergeOptions {
  /**
   * How the continuation was requested (`continuationStrategy`'s answer; `'retry'` means
   * nothing was recovered, so there is no seam); see `mergeContinuation`.
   */
  readonly strategy?: ResumeStrategy | 'retry';
  /**
   * What `next` has after `base`, when the caller built or recorded `next` as `base` followed
   * by it; else undefined. A merge at every update of a streaming continuation passes it so
   * that the joined text grows by the continuation's append, with neither text read (a read
   * of a text built by appending copies it whole: each update would cost the answer's
   * length). The chat store passes its record of what each update appended. Without it, or
   * when it answers undefined, the texts are read as usual; the result is the same.
   */
  readonly appendedSince?: (next: string, base: string) => string | undefined;
}

function merge(
  interrupted: StreamState,
  continuation: StreamState,
  strategy: ResumeStrategy,
  appendedSince: MergeOptions['appendedSince'],
): StreamState {
  // Both requests' lists, held to the reducer's caps (the first diagnostics, the latest
  // superseded messages), with what they leave out counted, as one stream would.
  const diagnostics = [...interrupted.diagnostics, ...continuation.diagnostics];
  const superseded = [...interrupted.superseded, ...continuation.superseded];
  const diagnosticsDropped =
    (interrupted.diagnosticsDropped ?? 0) +
    (continuation.diagnosticsDropped ?? 0) +
    Math.max(0, diagnostics.length - MAX_DIAGNOSTICS);
  const supersededDropped =
    (interrupted.supersededDropped ?? 0) +
    (continuation.supersededDropped ?? 0) +
    Math.max(0, superseded.length - MAX_SUPERSEDED);
  const shared = {
    status: continuation.status,
    stopReceived: continuation.stopReceived,
    error: continuation.error ?? (null as StreamError | null),
    diagnostics: diagnostics.slice(0, MAX_DIAGNOSTICS),
    superseded: superseded.slice(-MAX_SUPERSEDED),
    ...(diagnosticsDropped > 0 ? { diagnosticsDropped } : {}),
    ...(supersededDropped > 0 ? { supersededDropped } : {}),
    attempts: [
      ...(interrupted.attempts ?? [summarize(interrupted)]),
      ...(continuation.attempts ?? [summarize(continuation)]),
    ],
  };
  const before = interrupted.message;
  const after = continuation.message;
  if (before === null) return { ...continuation, ...shared };
  if (after === null) return { ...interrupted, ...shared };
  const message: LiveMessage = {
    ...before,
    ...after,
    id: before.id,
    type: before.type,
    role: before.role,
    model: before.model,
    usage: sumUsage(before.usage ?? {}, after.usage ?? {}),
    content: mergeContent(recoverBlocks(before), after.content, strategy, appendedSince),
  };
  return { ...continuation, ...shared, message };
}
