import type { ContentBlock, Message } from './protocol.js';
import type { LiveMessage, StreamState } from './state.js';

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
