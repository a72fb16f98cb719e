/**
 * Resuming an answer whose stream broke off ("Error recovery" in the API's streaming guide,
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-recovery).
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
import type { Citation, ContentBlockParam, MessageParam, MessageRequest } from './protocol.js';
import { claudeVersion, type ResumeStrategy, strategyForVersion } from './resume-strategy.js';
import { sendableBlocks, toBlockParam } from './sendable.js';
import type { BlockState, LiveMessage, StreamState } from './state.js';

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

export const isText = (entry: BlockState): boolean =>
  entry.block.type === 'text' && typeof (entry.block as { text?: unknown }).text === 'string';
export const textOf = (entry: BlockState): string => (entry.block as { text: string }).text;
export const isThinkingType = (type: string): boolean =>
  type === 'thinking' || type === 'redacted_thinking';

/**
 * The blocks a resume carries: those that may be sent back (`sendableBlocks`; a client
 * `tool_use` never, as nothing answered it), up to and including the most recent text block.
 */
export function recoverBlocks(message: LiveMessage | null): readonly BlockState[] {
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

export function concatCitations(a: unknown, b: unknown): { citations?: Citation[] | null } {
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
 * the partial answer are not sent; the model starts a fresh turn), as a text block that ends
 * the last user turn, so the request's roles still alternate. A trailing assistant
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
  const ask: ContentBlockParam = { type: 'text', text: instruction(partialText) };
  const before = messages[messages.length - 1];
  // Roles must alternate: after the user's own turn (the usual case) the request to continue
  // joins that turn rather than standing as a second user message.
  if (before?.role === 'user') {
    messages[messages.length - 1] = { role: 'user', content: [...asBlocks(before.content), ask] };
    return messages;
  }
  return [...messages, { role: 'user', content: [ask] }];
}

/** What `continuationRequest` decides: nothing to recover (a plain retry), or a strategy. */
function plan(
  request: MessageRequest,
  state: StreamState,
  options: ContinuationOptions,
):
  | { readonly strategy: 'retry' }
  | { readonly strategy: 'prefill'; readonly messages: MessageParam[] }
  | { readonly strategy: 'user-message'; readonly recovered: readonly BlockState[] } {
  const recovered = recoverBlocks(state?.message ?? null);
  if (recovered.length === 0) return { strategy: 'retry' };
  const version = claudeVersion(request.model) ?? claudeVersion(state.message?.model ?? '');
  const strategy = options.strategy ?? strategyForVersion(version);
  if (strategy === 'prefill') {
    const messages = prefillMessages(request, recovered);
    if (messages !== null) return { strategy: 'prefill', messages };
  }
  return { strategy: 'user-message', recovered };
}

/**
 * How `continuationRequest` (same arguments) continues this answer: `'retry'` when nothing
 * can be recovered, else the strategy it uses. Pass it to `mergeContinuation`, which joins
 * the seam differently for each.
 */
export function continuationStrategy(
  request: MessageRequest,
  state: StreamState,
  options: ContinuationOptions = {},
): ResumeStrategy | 'retry' {
  return plan(request, state, options).strategy;
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
  const decided = plan(request, state, options);
  switch (decided.strategy) {
    case 'retry':
      return retry;
    case 'prefill':
      return { ...retry, messages: decided.messages };
    default:
      return {
        ...retry,
        messages: userMessageMessages(
          request,
          decided.recovered,
          options.instruction ?? defaultInstruction,
        ),
      };
  }
}
