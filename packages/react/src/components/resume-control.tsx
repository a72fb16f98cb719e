import type { StreamError, StreamStatus } from '@message-stream/core';
import { type ReactElement, useId } from 'react';
import { cx } from './cx.js';

export interface ResumeControlProps {
  status: StreamStatus;
  /** The stream's error; with status `error`, the controls show only when it is retryable. */
  error?: StreamError | null;
  /** Continue the answer from where it stopped. */
  onResume(): void;
  /** Discard the partial answer and ask again. */
  onRetry(): void;
  /** A resume or retry is under way: the buttons are disabled to prevent a second one. */
  busy?: boolean;
  className?: string;
}

/** Whether `ResumeControl` shows anything for this status and error. */
export function canRecover(status: StreamStatus, error?: StreamError | null): boolean {
  return (
    status === 'interrupted' || status === 'aborted' || (status === 'error' && !!error?.retryable)
  );
}

/**
 * "Resume" and "Retry" for an answer that stopped early: after an interruption, a stop by the
 * user, or an error that trying again can fix. Renders nothing otherwise, in particular for an
 * error that would only happen again (an invalid key, a bad request).
 */
export function ResumeControl({
  status,
  error,
  onResume,
  onRetry,
  busy = false,
  className,
}: ResumeControlProps): ReactElement | null {
  const labelId = useId();
  if (!canRecover(status, error)) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named group of two buttons, not a form's fieldset.
    <div
      className={cx('ms-resume', busy && 'ms-resume--busy', className)}
      role="group"
      aria-labelledby={labelId}
      aria-busy={busy || undefined}
    >
      <span className="ms-resume__label" id={labelId}>
        {status === 'aborted' ? 'The answer was stopped.' : 'The answer did not finish.'}
      </span>
      <button
        type="button"
        className="ms-resume__button ms-resume__button--resume"
        onClick={onResume}
        disabled={busy}
      >
        Resume
      </button>
      <button
        type="button"
        className="ms-resume__button ms-resume__button--retry"
        onClick={onRetry}
        disabled={busy}
      >
        Retry
      </button>
    </div>
  );
}
