import type { StreamError, StreamState } from '@message-stream/core';
import { type ReactElement, type ReactNode, useEffect, useId, useState } from 'react';
import { cx } from './cx.js';
import { recoveryFor } from './recovery.js';

export interface ResumeControlProps {
  /**
   * The answer's stream: the control offers exactly one action, from `recoveryFor` (Resume
   * only when something resumable arrived), and counts down a server's `retry-after`.
   */
  stream: StreamState;
  /** Continue the answer from where it stopped. */
  onResume(): void;
  /** Discard the partial answer and ask again. */
  onRetry(): void;
  /** A resume or retry is under way: the button is disabled to prevent a second one. */
  busy?: boolean;
  /**
   * Retry by itself when a server's `retry-after` wait ends (default true), once per error
   * however often the control mounts. Pass false where a retry would be a request nobody
   * asked for: an older version of an answer shown again, an answer that is no longer the
   * conversation's last request, or one already retried (a retry in place brings a new error
   * of its own: `ChatStream` retries an answer by itself once). Without it the control shows
   * Retry alone, no countdown.
   */
  autoRetry?: boolean;
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
 * When each error's wait ends, fixed when it is first shown with a wait, and kept past the
 * control: the control unmounts while another version of the answer is shown (or its turn
 * scrolls out of a long log), and mounted again it must not start the wait over.
 */
const deadlines = new WeakMap<StreamError, number>();
/** Errors already retried by the control itself: at most once each, across mounts. */
const autoRetried = new WeakSet<StreamError>();

/** The moment `error`'s wait of `waitMs` ends; null without one. */
function deadlineOf(waitMs: number | undefined, error: StreamError | null | undefined) {
  if (!error || waitMs === undefined || waitMs <= 0) return null;
  let deadline = deadlines.get(error);
  if (deadline === undefined) {
    deadline = Date.now() + waitMs;
    deadlines.set(error, deadline);
  }
  return deadline;
}

/** Seconds left until the wait ends, ticking once a second; 0 when there is no wait. */
function useCountdown(waitMs: number | undefined, error: StreamError | null | undefined): number {
  const deadline = deadlineOf(waitMs, error);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
}

/**
 * Resume or Retry for an answer that stopped early: after an interruption, a stop by the user,
 * or an error that trying again can fix. Resume shows only when part of the answer arrived;
 * otherwise Retry. A rate limit with `retry-after` shows the wait and retries by itself when
 * it ends. Renders nothing for an answer that needs neither.
 */
export function ResumeControl({
  stream,
  onResume,
  onRetry,
  busy = false,
  autoRetry = true,
  label,
  className,
}: ResumeControlProps): ReactElement | null {
  const labelId = useId();
  const { status, error } = stream;
  const action = recoveryFor(stream);
  const waitMs = autoRetry && action === 'retry' ? error?.retryAfterMs : undefined;
  const seconds = useCountdown(waitMs, error);
  const waiting = waitMs !== undefined && seconds > 0;
  useEffect(() => {
    // The wait is over: retry once for this error, as the server asked.
    if (waitMs === undefined || seconds > 0 || busy || !error || autoRetried.has(error)) return;
    autoRetried.add(error);
    onRetry();
  }, [waitMs, seconds, busy, error, onRetry]);
  if (action === null) return null;

  const words =
    label === undefined
      ? status === 'aborted'
        ? 'The answer was stopped.'
        : 'The answer did not finish.'
      : label;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named group of buttons, not a form's fieldset.
    <div
      className={cx(
        'ms-resume',
        busy && 'ms-resume--busy',
        status === 'aborted' && 'ms-resume--stopped',
        className,
      )}
      role="group"
      aria-labelledby={words === null ? undefined : labelId}
      aria-label={words === null ? 'Recover the answer' : undefined}
      aria-busy={busy || undefined}
    >
      {words === null ? null : (
        <span className="ms-resume__label" id={labelId}>
          {words}
        </span>
      )}
      {action === 'resume' ? (
        <button
          type="button"
          className="ms-resume__button ms-resume__button--resume"
          onClick={onResume}
          disabled={busy}
        >
          Resume
        </button>
      ) : (
        <>
          {waiting ? (
            <span className="ms-resume__wait" data-seconds={seconds}>
              Retrying in {seconds} s
            </span>
          ) : null}
          <button
            type="button"
            // Styled as the way on only when trying again can help: after a refused key or
            // no credit, the fix is elsewhere and Retry is there for after it.
            className={cx(
              'ms-resume__button ms-resume__button--retry',
              error?.retryable !== false && 'ms-resume__button--primary',
            )}
            onClick={onRetry}
            disabled={busy}
          >
            {waiting ? 'Retry now' : 'Retry'}
          </button>
        </>
      )}
    </div>
  );
}
