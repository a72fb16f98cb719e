/**
 * Resuming an answer whose stream broke off ("Error recovery" in the streaming guide).
 *
 * 1. `canResume(state)`: is the ended stream worth continuing?
 * 2. `continuationRequest(request, state)`: the request that continues it. Claude 4.5 and
 *    earlier continue an assistant *prefill* holding the partial answer; Claude 4.6 and later
 *    (and unknown models) get a *user message* quoting the partial answer and asking to
 *    continue. Always pass the ORIGINAL request, also for a second or third resume.
 * 3. Stream that request, and show `mergeContinuation(interrupted, continuationState)`:
 *    one answer, as if it had never broken off. It can be called on every continuation
 *    update; unchanged blocks keep their identity from call to call.
 *
 * What is recovered ("tool use and extended thinking blocks cannot be partially recovered;
 * you can resume streaming from the most recent text block"): the blocks that were complete
 * plus a text block cut mid-way, up to and including the most recent text block. Dropped:
 * any other incomplete block; client `tool_use` blocks (the API rejects a `tool_use` that is
 * not answered by a `tool_result`); text blocks with no non-whitespace text (the API rejects
 * them); everything after the most recent text block. No text at all → nothing recovered,
 * and the continuation is a plain retry of the original request.
 */
import type { StreamError } from './errors.js';
import { isPlainObject } from './object.js';
import type {
  Citation,
  ContentBlock,
  ContentBlockParam,
  MessageParam,
  MessageRequest,
  Usage,
} from './protocol.js';
import { sendableBlocks, toBlockParam } from './sendable.js';
import type { AttemptSummary, BlockState, Diagnostic, LiveMessage, StreamState } from './state.js';

export type ResumeStrategy = 'prefill' | 'user-message';

export interface ContinuationOptions {
  /**
   * Force a strategy; default: chosen by model (`resumeStrategyFor`). A forced `'prefill'`
   * still falls back to `'user-message'` when thinking is enabled and the prefill would not
   * start with a thinking block (the API rejects that request).
   */
  strategy?: ResumeStrategy;
  /**
   * The user-message instruction, given the partial answer in full. Default:
   * `Your previous response was interrupted and ended with [<partial>]. Continue from where
   * you left off.` (the guide's sample prompt).
   */
  instruction?: (partialText: string) => string;
}

// ---------------------------------------------------------------------------------------
// Strategy

interface ClaudeVersion {
  readonly major: number;
  readonly minor: number;
}

/**
 * The Claude version a model id names, or null. Understands both naming schemes
 * (`claude-3-5-sonnet-…`, `claude-sonnet-4-5-…`), dotted versions (`claude-sonnet-4.5`),
 * gateway and cloud prefixes (`anthropic/…`, `us.anthropic.claude-…`) and suffixes (an
 * 8-digit date, `@date`, `-v1:0`): a date is never read as a minor version.
 */
function claudeVersion(model: string): ClaudeVersion | null {
  if (typeof model !== 'string') return null;
  const lower = model.toLowerCase();
  const at = lower.lastIndexOf('claude');
  if (at === -1) return null;
  const tokens = lower
    .slice(at + 'claude'.length)
    .split(/[^a-z0-9.]+/)
    .filter((token) => token !== '');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const dotted = /^(\d{1,2})\.(\d{1,2})$/.exec(token);
    if (dotted) return { major: Number(dotted[1]), minor: Number(dotted[2]) };
    if (/^\d{1,2}$/.test(token)) {
      const next = tokens[i + 1];
      const minor = next !== undefined && /^\d{1,2}$/.test(next) ? Number(next) : 0;
      return { major: Number(token), minor };
    }
    // A longer number is a date: the id names no version before it.
    if (/^\d+$/.test(token)) return null;
  }
  return null;
}

const strategyForVersion = (version: ClaudeVersion | null): ResumeStrategy =>
  version !== null && (version.major < 4 || (version.major === 4 && version.minor <= 5))
    ? 'prefill'
    : 'user-message';

/**
 * Which strategy a model needs: Claude 4.5 and earlier → `'prefill'`; 4.6 and later, and
 * unknown models → `'user-message'` (it works on every model; a prefill fails on those that
 * do not accept one).
 */
export function resumeStrategyFor(model: string): ResumeStrategy {
  return strategyForVersion(claudeVersion(model));
}

// ---------------------------------------------------------------------------------------
// Recovery

/**
 * Whether a state can be resumed: it ended `interrupted` or `aborted`, or in `error` with a
 * retryable error, and `message_stop` never arrived (an answer that is whole needs no
 * resume). Whatever it holds is then resumable: with nothing recoverable (no text yet) the
 * continuation is the original request, a plain retry.
 */
export function canResume(state: StreamState): boolean {
  if (state === null || typeof state !== 'object' || state.stopReceived) return false;
  switch (state.status) {
    case 'interrupted':
    case 'aborted':
      return true;
    case 'error':
      return state.error?.retryable === true;
    default:
      return false;
  }
}

const isText = (entry: BlockState): boolean =>
  entry.block.type === 'text' && typeof (entry.block as { text?: unknown }).text === 'string';
const textOf = (entry: BlockState): string => (entry.block as { text: string }).text;
const isThinkingType = (type: string): boolean =>
  type === 'thinking' || type === 'redacted_thinking';

/**
 * The blocks a resume carries: those that may be sent back (`sendableBlocks`; a client
 * `tool_use` never, as nothing answered it), up to and including the most recent text block.
 */
function recoverBlocks(message: LiveMessage | null): readonly BlockState[] {
  const kept = sendableBlocks(message);
  let last = kept.length - 1;
  while (last >= 0 && !isText(kept[last] as BlockState)) last--;
  return kept.slice(0, last + 1);
}

const textOfContent = (content: MessageParam['content']): string =>
  typeof content === 'string'
    ? content
    : content
        .filter((block) => block.type === 'text' && typeof block.text === 'string')
        .map((block) => block.text as string)
        .join('');

const asBlocks = (content: MessageParam['content']): ContentBlockParam[] =>
  typeof content === 'string'
    ? content === ''
      ? []
      : [{ type: 'text', text: content }]
    : [...content];

function concatCitations(a: unknown, b: unknown): { citations?: Citation[] | null } {
  const first = Array.isArray(a) ? (a as Citation[]) : [];
  const second = Array.isArray(b) ? (b as Citation[]) : [];
  if (first.length + second.length > 0) return { citations: [...first, ...second] };
  return {};
}

/**
 * The prefill: the original messages, and an assistant turn holding the recovered blocks.
 * An original request that already ends in an assistant turn (its own prefill) has the
 * recovered blocks appended to that turn — the text joined into its last text block — since
 * the answer streamed so far continues that prefill. The final text loses its trailing
 * whitespace (the API rejects a final assistant turn ending in whitespace). Null when
 * thinking is enabled and the turn would not start with a thinking block.
 */
function prefillMessages(
  request: MessageRequest,
  recovered: readonly BlockState[],
): MessageParam[] | null {
  const messages = request.messages.slice();
  const previous = messages[messages.length - 1];
  let content: ContentBlockParam[] = recovered.map(toBlockParam);
  if (previous?.role === 'assistant') {
    messages.pop();
    const before = asBlocks(previous.content);
    const tail = before[before.length - 1];
    const head = content[0];
    if (
      tail?.type === 'text' &&
      typeof tail.text === 'string' &&
      head?.type === 'text' &&
      typeof head.text === 'string'
    ) {
      const { citations: _a, ...tailRest } = tail;
      const joined = {
        ...tailRest,
        text: tail.text + head.text,
        ...concatCitations(tail.citations, head.citations),
      } as ContentBlockParam;
      content = [...before.slice(0, -1), joined, ...content.slice(1)];
    } else {
      content = [...before, ...content];
    }
  }
  const lastIndex = content.length - 1;
  const last = content[lastIndex];
  if (last?.type === 'text' && typeof last.text === 'string') {
    content[lastIndex] = { ...last, text: last.text.trimEnd() };
  }
  if (thinkingEnabled(request) && !isThinkingType(content[0]?.type ?? '')) return null;
  return [...messages, { role: 'assistant', content }];
}

const thinkingEnabled = (request: MessageRequest): boolean =>
  request.thinking !== null &&
  typeof request.thinking === 'object' &&
  typeof request.thinking.type === 'string' &&
  request.thinking.type !== 'disabled';

export const defaultInstruction = (partialText: string): string =>
  `Your previous response was interrupted and ended with [${partialText}]. Continue from where you left off.`;

/**
 * The user-message continuation: only the text travels (thinking and server-tool blocks of
 * the partial answer are not sent; the model starts a fresh turn). A trailing assistant
 * turn of the original request (its own prefill) is folded into the quoted partial answer,
 * which it begins, rather than left in the history where the answer would appear twice.
 */
function userMessageMessages(
  request: MessageRequest,
  recovered: readonly BlockState[],
  instruction: (partialText: string) => string,
): MessageParam[] {
  const messages = request.messages.slice();
  let partialText = recovered.filter(isText).map(textOf).join('');
  const previous = messages[messages.length - 1];
  if (previous?.role === 'assistant') {
    messages.pop();
    partialText = textOfContent(previous.content) + partialText;
  }
  return [...messages, { role: 'user', content: instruction(partialText) }];
}

/**
 * The request that continues an interrupted, aborted or failed answer. Pure: the request is
 * not changed; everything but `messages` and `stream: true` passes through as it was. With
 * nothing recovered, the original request itself (a plain retry). The strategy is chosen
 * from `request.model`, or from the model the stream reported when `request.model` names no
 * Claude version (a gateway alias).
 */
export function continuationRequest(
  request: MessageRequest,
  state: StreamState,
  options: ContinuationOptions = {},
): MessageRequest {
  const retry: MessageRequest = { ...request, stream: true };
  const recovered = recoverBlocks(state?.message ?? null);
  if (recovered.length === 0) return retry;
  const version = claudeVersion(request.model) ?? claudeVersion(state.message?.model ?? '');
  const strategy = options.strategy ?? strategyForVersion(version);
  if (strategy === 'prefill') {
    const messages = prefillMessages(request, recovered);
    if (messages !== null) return { ...retry, messages };
  }
  return {
    ...retry,
    messages: userMessageMessages(request, recovered, options.instruction ?? defaultInstruction),
  };
}

// ---------------------------------------------------------------------------------------
// Merging

/** Longest overlap looked for at the seam, in characters (keeps a merge O(this)). */
const MAX_OVERLAP = 10_000;

const WORD = /[\p{L}\p{N}_]/u;
const isWordChar = (char: string | undefined): boolean => char !== undefined && WORD.test(char);
/** A word character, then a non-word run, then a word character: two words or more. */
const SPANS_WORDS = /[\p{L}\p{N}_][^\p{L}\p{N}_]+[\p{L}\p{N}_]/u;

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
  if (!/[\p{L}\p{N}]/u.test(overlap)) return false;
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
 * Repeat: the longest overlap `isRepeat` accepts is removed (a model told to "continue"
 * often restates the last words). While the continuation's block is still open (streaming,
 * or cut off itself) and all of it so far occurs in the interrupted text, it may be the start
 * of a repeat: it is held back, so a repeat never flashes on screen and a continuation cut
 * mid-repeat adds nothing (the next resume writes it again).
 */
export function joinAtSeam(head: string, tail: string, tailOpen = false): string {
  if (tail === '') return head;
  const base = /^\s/.test(tail) ? head.trimEnd() : head;
  const window = base.slice(-MAX_OVERLAP);
  const start = tail.slice(0, MAX_OVERLAP);
  for (const k of borders(window, start)) {
    if (isRepeat(base, tail, k)) return base + tail.slice(k);
  }
  if (tailOpen && tail.length <= MAX_OVERLAP && window.includes(tail)) return base;
  return base + tail;
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
    const x = a[key];
    const y = b[key];
    if (typeof x === 'number' && typeof y === 'number') sum[key] = x + y;
    else if (isPlainObject(x) && isPlainObject(y)) sum[key] = sumUsage(x, y);
    else if (y !== null && y !== undefined) sum[key] = y;
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

/** Merged text blocks, cached per (interrupted block, continuation block) pair. */
const joined = new WeakMap<BlockState, WeakMap<BlockState, BlockState>>();
function joinTextBlocks(head: BlockState, tail: BlockState, index: number): BlockState {
  let byTail = joined.get(head);
  const cached = byTail?.get(tail);
  if (cached !== undefined && cached.index === index) return cached;
  const { citations: _head, ...headBlock } = head.block as ContentBlock & { citations?: unknown };
  const { citations: _tail, ...tailBlock } = tail.block as ContentBlock & { citations?: unknown };
  const citations = concatCitations(head.block.citations, tail.block.citations);
  const keepNull =
    citations.citations === undefined && ('citations' in head.block || 'citations' in tail.block);
  const otherDeltas = [...(head.otherDeltas ?? []), ...(tail.otherDeltas ?? [])];
  const merged: BlockState = {
    ...tail,
    index,
    block: {
      ...headBlock,
      ...tailBlock,
      type: 'text',
      text: joinAtSeam(textOf(head), textOf(tail), tail.status !== 'complete'),
      ...(keepNull ? { citations: null } : citations),
    },
    ...(otherDeltas.length > 0 ? { otherDeltas } : {}),
  };
  if (byTail === undefined) {
    byTail = new WeakMap();
    joined.set(head, byTail);
  }
  byTail.set(tail, merged);
  return merged;
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
    Array.isArray(item) ? joinTextBlocks(item[0], item[1], index) : atPosition(item, index),
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
 * A merged state that is itself interrupted can be passed to `continuationRequest` (with the
 * original request) and merged again.
 */
export function mergeContinuation(
  interrupted: StreamState,
  continuation: StreamState,
): StreamState {
  try {
    return merge(interrupted, continuation);
  } catch (cause) {
    const diagnostic: Diagnostic = {
      code: 'internal_error',
      message: `Could not merge the continuation: ${String(cause)}`,
    };
    return { ...continuation, diagnostics: [...(continuation?.diagnostics ?? []), diagnostic] };
  }
}

function merge(interrupted: StreamState, continuation: StreamState): StreamState {
  const shared = {
    status: continuation.status,
    stopReceived: continuation.stopReceived,
    error: continuation.error ?? (null as StreamError | null),
    diagnostics: [...interrupted.diagnostics, ...continuation.diagnostics],
    superseded: [...interrupted.superseded, ...continuation.superseded],
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
    content: mergeContent(recoverBlocks(before), after.content),
  };
  return { ...continuation, ...shared, message };
}
