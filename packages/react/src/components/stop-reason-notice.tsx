import type { StreamState } from '@message-stream/core';
import type { ReactElement } from 'react';
import { Icon } from '../chat/icons.js';
import { stopReasonInfo } from './answer-info.js';
import { cx } from './cx.js';

export interface StopReasonNoticeProps {
  /** The answer's stream state. */
  readonly stream: StreamState;
  /**
   * Continues an answer cut off by `max_tokens` in place. Without it, the length notice shows
   * without a button.
   */
  readonly onContinue?: () => void;
  /** A request is under way: Continue is disabled so a second one cannot start. */
  readonly busy?: boolean;
  /** Extra class names on the root element, for your own styles. */
  readonly className?: string;
}

/**
 * The end of an answer made visible: "The answer reached the length limit" with Continue, a
 * refusal notice, a quiet note for a stop sequence or a full context window, and a lasting
 * "Stopped" / "Interrupted" tag on an answer that did not finish.
 */
export function StopReasonNotice({
  stream,
  onContinue,
  busy = false,
  className,
}: StopReasonNoticeProps): ReactElement | null {
  const info = stopReasonInfo(stream);
  if (info === null) return null;
  if (info.kind === 'mark') {
    return (
      <p
        className={cx('ms-stop', 'ms-stop--mark', `ms-stop--${info.reason}`, className)}
        data-stop-reason={info.reason}
      >
        <span className="ms-stop__tag">{info.text}</span>
      </p>
    );
  }
  return (
    <div
      className={cx('ms-stop', `ms-stop--${info.kind}`, className)}
      data-stop-reason={info.reason}
      role={info.kind === 'refusal' ? 'note' : undefined}
    >
      <p className="ms-stop__text">{info.text}</p>
      {info.kind === 'length' && onContinue ? (
        <button
          type="button"
          className="ms-button ms-button--small ms-stop__continue"
          onClick={onContinue}
          disabled={busy}
        >
          <Icon name="continue" />
          Continue
        </button>
      ) : null}
    </div>
  );
}
