import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { cx } from './cx.js';
import { canRecover, type ResumeControlProps, recoveryFor } from './resume-control.js';

/** Seconds left until `deadline`, ticking once a second; 0 when there is no deadline. */
function useCountdown(waitMs: number | undefined, key: unknown): number {
  const [deadline] = useDeadline(waitMs, key);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** The moment the wait ends, fixed when the error (`key`) first shows. */
function useDeadline(waitMs: number | undefined, key: unknown): [number | null] {
  const seen = useRef<{ key: unknown; deadline: number | null }>({
    key: undefined,
    deadline: null,
  });
  if (seen.current.key !== key) {
    seen.current = {
      key,
      deadline: waitMs !== undefined && waitMs > 0 ? Date.now() + waitMs : null,
    };
  }
  return [seen.current.deadline];
}

/** `ResumeControl` once its chunk has loaded (resume-control.tsx draws a stand-in until then). */
export function ResumeControlBody({
  stream,
  status: legacyStatus,
  error: legacyError,
  onResume,
  onRetry,
  busy = false,
  label,
  className,
}: ResumeControlProps): ReactElement | null {
  const labelId = useId();
  const status = stream?.status ?? legacyStatus ?? 'idle';
  const error = stream ? stream.error : legacyError;
  const actions: readonly ('resume' | 'retry')[] = stream
    ? [recoveryFor(stream)].filter((a): a is 'resume' | 'retry' => a !== null)
    : canRecover(status, error)
      ? ['resume', 'retry']
      : [];
  const waitMs = actions.length === 1 && actions[0] === 'retry' ? error?.retryAfterMs : undefined;
  const seconds = useCountdown(waitMs, error);
  const waiting = waitMs !== undefined && seconds > 0;
  const retried = useRef<unknown>(null);
  useEffect(() => {
    // The wait is over: retry once for this error, as the server asked.
    if (waitMs === undefined || seconds > 0 || busy || retried.current === error) return;
    retried.current = error;
    onRetry();
  }, [waitMs, seconds, busy, error, onRetry]);
  if (actions.length === 0) return null;

  const words =
    label === undefined
      ? status === 'aborted'
        ? 'The answer was stopped.'
        : 'The answer did not finish.'
      : label;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named group of buttons, not a form's fieldset.
    <div
      className={cx('ms-resume', busy && 'ms-resume--busy', className)}
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
      {actions.includes('resume') ? (
        <button
          type="button"
          className="ms-resume__button ms-resume__button--resume"
          onClick={onResume}
          disabled={busy}
        >
          Resume
        </button>
      ) : null}
      {actions.includes('retry') ? (
        <>
          {waiting ? (
            <span className="ms-resume__wait" data-seconds={seconds}>
              Retrying in {seconds} s
            </span>
          ) : null}
          <button
            type="button"
            className={cx(
              'ms-resume__button',
              'ms-resume__button--retry',
              actions.length === 1 && 'ms-resume__button--primary',
            )}
            onClick={onRetry}
            disabled={busy}
          >
            {waiting ? 'Retry now' : 'Retry'}
          </button>
        </>
      ) : null}
    </div>
  );
}
