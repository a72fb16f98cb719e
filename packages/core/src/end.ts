import { createStreamError, type StreamError } from './errors.js';
import { settleBlocks } from './reduce.js';
import { isFinalStatus, type StreamState } from './state.js';

/**
 * Why a stream ended. `eof`: the body ended; `network`: reading it failed; `idle_timeout`:
 * no bytes for too long; `abort`: the caller stopped it; `error`: a failure the transport
 * classified (an HTTP error before any event, a response that was not an event stream).
 */
export type EndCause =
  | { readonly type: 'eof' }
  | { readonly type: 'abort' }
  | { readonly type: 'network'; readonly message?: string }
  | { readonly type: 'idle_timeout'; readonly ms: number }
  | { readonly type: 'error'; readonly error: StreamError };

const EOF: EndCause = { type: 'eof' };

/**
 * The stream is over: decides its final status. `complete` if `message_stop` arrived
 * (whatever happened to the connection afterwards); otherwise `interrupted` for a body that
 * ended, failed or went idle (all resumable), `aborted` when the caller stopped it, `error`
 * for a classified failure. Everything received stays; blocks still open become
 * `incomplete`. Ending an already-ended stream returns it unchanged.
 */
export function endStream(state: StreamState, cause: EndCause = EOF): StreamState {
  if (isFinalStatus(state.status)) return state;
  const message = state.message && settleBlocks(state.message);
  if (state.stopReceived) return { ...state, status: 'complete', message };
  switch (cause.type) {
    case 'abort':
      return { ...state, status: 'aborted', message };
    case 'error':
      return { ...state, status: 'error', message, error: cause.error };
    default:
      return { ...state, status: 'interrupted', message, error: interruption(cause) };
  }
}

function interruption(cause: EndCause): StreamError {
  switch (cause.type) {
    case 'network':
      return createStreamError({
        type: 'network_error',
        message: cause.message ?? 'The connection failed mid-answer.',
      });
    case 'idle_timeout':
      return createStreamError({
        type: 'idle_timeout',
        message: `No data for ${cause.ms} ms.`,
      });
    default:
      return createStreamError({
        type: 'stream_interrupted',
        message: 'The connection closed mid-answer.',
      });
  }
}
