/**
 * Which blocks of an answer may go back to the API: as history in the next request, or as
 * the prefill of a resume. One rule for both, so the two never disagree.
 *
 * - Text is kept whole or cut mid-way ("you can resume streaming from the most recent text
 *   block"), but never when it has no non-whitespace text (the API rejects an empty text
 *   block). Its `citations` are dropped when null or empty (the API rejects `null`).
 * - Every other block only when it finished (`content_block_stop` arrived): "tool use and
 *   extended thinking blocks cannot be partially recovered".
 * - Thinking only with its signature, redacted thinking only with its data: the API refuses
 *   a thinking block it cannot verify. A thinking block cut off by an interruption has no
 *   signature yet, so it is never sent.
 * - A client `tool_use` only when the caller says it has been answered (`isAnswered`): the
 *   API rejects a `tool_use` that no `tool_result` follows.
 * - Nothing the reducer could not read as a block (the `unknown` placeholder).
 */
import { isNonEmptyString } from './object.js';
import type { ContentBlock, ContentBlockParam } from './protocol.js';
import type { BlockState, LiveMessage, StreamState } from './state.js';

export interface SendableOptions {
  /** Whether the client `tool_use` with this id has a result to send with it. Default: none has. */
  readonly isAnswered?: (toolUseId: string) => boolean;
}

/**
 * A thinking block with its signature, or a redacted one with its data: whole, so the API
 * can verify it (validateMessages applies the same rule to a request).
 */
export const isWholeThinking = (block: Record<string, unknown>): boolean =>
  block.type === 'thinking'
    ? typeof block.thinking === 'string' && isNonEmptyString(block.signature)
    : isNonEmptyString(block.data);

/** Whether one block of an answer may be sent back (see the module comment). */
export function isSendableBlock(entry: BlockState, options: SendableOptions = {}): boolean {
  if (entry === null || typeof entry !== 'object') return false;
  const block = entry.block as (ContentBlock & Record<string, unknown>) | null;
  if (block === null || typeof block !== 'object') return false;
  if (block.type === 'text') return typeof block.text === 'string' && block.text.trim() !== '';
  if (entry.status !== 'complete') return false;
  switch (block.type) {
    case 'unknown':
      return false;
    case 'thinking':
    case 'redacted_thinking':
      return isWholeThinking(block);
    case 'tool_use':
      return typeof block.id === 'string' && options.isAnswered?.(block.id) === true;
    default:
      return true;
  }
}

/** The block states of `message` that may be sent back, as they are (same objects). */
export function sendableBlocks(
  message: LiveMessage | null | undefined,
  options: SendableOptions = {},
): BlockState[] {
  if (message === null || message === undefined || !Array.isArray(message.content)) return [];
  return message.content.filter((entry) => isSendableBlock(entry, options));
}

/** A block as a request carries it: plain data (a tool input read once), no null citations. */
export function toBlockParam(entry: BlockState): ContentBlockParam {
  const plain: ContentBlock = { ...entry.block };
  if (plain.type === 'text' && !(Array.isArray(plain.citations) && plain.citations.length > 0)) {
    delete plain.citations;
  }
  return plain;
}

/**
 * The blocks of an answer that may be sent back to the API, as request blocks: what a
 * conversation puts in the assistant turn of its next request.
 *
 * ```ts
 * const history = [...messages, { role: 'assistant', content: sendableContent(state) }];
 * ```
 */
export function sendableContent(
  state: StreamState,
  options: SendableOptions = {},
): ContentBlockParam[] {
  return sendableBlocks(state?.message, options).map(toBlockParam);
}
