import {
  canResume,
  type StreamError,
  type StreamState,
  type StreamStatus,
} from '@message-stream/core';
import type { ReactElement, ReactNode } from 'react';
import { lazyParts } from './lazy-part.js';

/** What can be done about an answer that ended early: continue it, ask again, or nothing. */
export type Recovery = 'resume' | 'retry' | null;

/** Some of the answer arrived: text, or a block that finished. */
const somethingArrived = (stream: StreamState): boolean =>
  (stream.message?.content ?? []).some(
    (entry) =>
      entry.status === 'complete' ||
      (entry.block.type === 'text' &&
        String((entry.block as { text?: unknown }).text ?? '') !== ''),
  );

/**
 * Resume when core's `canResume` says the stream can be continued and something of the answer
 * arrived to continue from; Retry when it failed or stopped before anything arrived (a
 * "resume" would only be the same request again); nothing for an answer that is whole or an
 * error that would only happen again (an invalid key, a bad request).
 */
export function recoveryFor(stream: StreamState): Recovery {
  if (canResume(stream)) return somethingArrived(stream) ? 'resume' : 'retry';
  return null;
}

/**
 * @deprecated Decides on the status alone and offers Resume even when nothing arrived; use
 * `recoveryFor(stream)`.
 */
export function canRecover(status: StreamStatus, error?: StreamError | null): boolean {
  return (
    status === 'interrupted' || status === 'aborted' || (status === 'error' && !!error?.retryable)
  );
}

export interface ResumeControlProps {
  /**
   * The answer's stream: the control offers exactly one action, from `recoveryFor` (Resume
   * only when something resumable arrived), and counts down a server's `retry-after`.
   */
  stream?: StreamState;
  /** @deprecated Pass `stream`. With `status` alone, Resume and Retry both show. */
  status?: StreamStatus;
  /** @deprecated Pass `stream`. */
  error?: StreamError | null;
  /** Continue the answer from where it stopped. */
  onResume(): void;
  /** Discard the partial answer and ask again. */
  onRetry(): void;
  /** A resume or retry is under way: the buttons are disabled to prevent a second one. */
  busy?: boolean;
  /**
   * The words before the buttons; by default they say the answer stopped or did not finish.
   * `null` when a notice beside the control already says it (the group is then named
   * "Recover the answer" for screen readers), so a failure is said once.
   */
  label?: ReactNode | null;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * Resume or Retry for an answer that stopped early: after an interruption, a stop by the user,
 * or an error that trying again can fix. Resume shows only when part of the answer arrived;
 * otherwise Retry. A rate limit with `retry-after` shows the wait and retries by itself when
 * it ends. Renders nothing for an answer that needs neither.
 *
 * Its code loads on demand (the chat asks for it when idle after it has painted); until it
 * arrives the action it will offer is drawn, disabled.
 */
export const ResumeControl: (props: ResumeControlProps) => ReactElement = lazyParts(
  () => import('./resume-control-body.js'),
).part('ResumeControl', (parts) => parts.ResumeControlBody, ResumeControlPlaceholder);

/** The control until its chunk arrives: the one action it will offer, disabled. For its test. */
export function ResumeControlPlaceholder({
  stream,
  status = 'idle',
  error,
}: ResumeControlProps): ReactElement | null {
  const action = stream ? recoveryFor(stream) : canRecover(status, error) ? 'resume' : null;
  if (action === null) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: the same group the loaded control is.
    <div
      className="ms-resume ms-resume--busy"
      role="group"
      aria-label="Recover the answer"
      aria-busy
    >
      <button type="button" className="ms-resume__button" disabled>
        {action === 'resume' ? 'Resume' : 'Retry'}
      </button>
    </div>
  );
}
