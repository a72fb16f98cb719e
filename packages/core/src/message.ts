import type { ContentBlock, Message, MessageFields } from './protocol.js';
import type { LiveMessage, StreamState } from './state.js';

/**
 * A message with no content yet and every field at its empty value; `fields` override
 * them. The reducer starts from it when content arrives before `message_start`, and a
 * store that shows a past answer from plain history starts from it too:
 *
 * ```ts
 * const message = { ...emptyMessage({ stop_reason: 'end_turn' }), content: blocks };
 * ```
 */
export function emptyMessage(fields: Partial<MessageFields> = {}): LiveMessage {
  return {
    id: '',
    type: 'message',
    role: 'assistant',
    model: '',
    stop_reason: null,
    stop_sequence: null,
    usage: {},
    ...fields,
    content: [],
  };
}

/**
 * The Message exactly as the non-streaming API returns it: tool inputs as parsed objects,
 * thinking with its signature, citations on their text block, final usage. On a partial
 * state, the best effort so far; `null` before any message began. Of several messages in
 * one stream (a spliced retry), the latest.
 */
export function toMessage(state: StreamState): Message | null {
  return state.message && liveToMessage(state.message);
}

export function liveToMessage(live: LiveMessage): Message {
  const { content, ...rest } = live;
  return {
    ...rest,
    usage: { ...rest.usage },
    content: content.map((entry): ContentBlock => ({ ...entry.block })),
  };
}
