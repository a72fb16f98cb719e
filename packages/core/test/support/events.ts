import {
  createStreamState,
  type Message,
  reduceStream,
  type StreamEvent,
  type StreamState,
} from '../../src/index.js';

/** Builders for the events of a stream, so tests read as the protocol does. */
export const messageStart = (message: Partial<Message> = {}): StreamEvent => ({
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-opus-5',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 1 },
    ...message,
  },
});
export const blockStart = (index: number, content_block: Record<string, unknown>): StreamEvent =>
  ({ type: 'content_block_start', index, content_block }) as StreamEvent;
export const delta = (index: number, d: Record<string, unknown>): StreamEvent =>
  ({ type: 'content_block_delta', index, delta: d }) as StreamEvent;
export const text = (index: number, t: string) => delta(index, { type: 'text_delta', text: t });
export const json = (index: number, partial_json: string) =>
  delta(index, { type: 'input_json_delta', partial_json });
export const blockStop = (index: number): StreamEvent => ({ type: 'content_block_stop', index });
export const messageDelta = (
  d: Record<string, unknown>,
  usage?: Record<string, unknown>,
): StreamEvent => ({ type: 'message_delta', delta: d, ...(usage ? { usage } : {}) }) as StreamEvent;
export const stop: StreamEvent = { type: 'message_stop' };

/** Reduces events from `from` (default: a fresh state). */
export const run = (events: StreamEvent[], from: StreamState = createStreamState()) =>
  events.reduce(reduceStream, from);
