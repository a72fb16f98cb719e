import { canResume, type StreamState } from '@message-stream/core';
import { somethingArrived } from '../store/conversation.js';

/** What can be done about an answer that ended early: continue it, ask again, or nothing. */
export type Recovery = 'resume' | 'retry' | null;

/**
 * Resume when core's `canResume` says the stream can be continued and something of the answer
 * arrived to continue from; Retry when it failed or stopped before anything arrived (a
 * "resume" would only be the same request again), and after an error that trying again cannot
 * fix by itself (a key, credit, a model's permission: the user may have fixed it since, and
 * without Retry the only way to ask again was to send the message anew); nothing for an
 * answer that is whole.
 */
export function recoveryFor(stream: StreamState): Recovery {
  if (canResume(stream)) return somethingArrived(stream) ? 'resume' : 'retry';
  return stream.status === 'error' ? 'retry' : null;
}
