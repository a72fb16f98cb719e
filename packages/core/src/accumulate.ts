import { type EventStreamBody, openChunkSource } from './body.js';
import { type EndCause, endStream } from './end.js';
import { errorText } from './object.js';
import { reduceStream, reduceStreamEvents } from './reduce.js';
import { EventStreamDecoder } from './sse.js';
import { createStreamState, type StreamState } from './state.js';

/**
 * Decodes a whole body and reduces every event: the final state of the stream. A body
 * that fails while being read ends the state as `interrupted`, with everything that
 * arrived before kept; it never rejects for bad input.
 */
export async function accumulate(body: EventStreamBody | null | undefined): Promise<StreamState> {
  // Events are reduced per chunk rather than pulled one by one through an async iterator:
  // the same result, without a promise per event on the hot path.
  const decoder = new EventStreamDecoder();
  let state = createStreamState();
  let cause: EndCause = { type: 'eof' };
  try {
    const source = openChunkSource(body);
    for (;;) {
      const chunk = await source.read();
      const events = chunk === undefined ? decoder.end() : decoder.push(chunk);
      state = reduceStreamEvents(state, events);
      if (chunk === undefined) break;
    }
  } catch (error) {
    cause = { type: 'network', message: errorText(error) };
    // A complete last event may sit before the failure without its blank line: keep it
    // (a message_stop there makes the answer complete, not interrupted).
    for (const event of decoder.end()) state = reduceStream(state, event);
  }
  return endStream(state, cause);
}
