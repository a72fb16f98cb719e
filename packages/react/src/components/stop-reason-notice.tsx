import type { StreamState } from '@message-stream/core';
import type { ReactElement } from 'react';
import { Icon } from '../chat/icons.js';
import { cx } from './cx.js';

/** What the notice says about an answer, or null when it ended normally. */
export interface StopReasonInfo {
  /** `length` offers Continue; `refusal` is a warning; `note` is a quiet line; `mark` a tag. */
  readonly kind: 'length' | 'refusal' | 'note' | 'mark';
  readonly reason: string;
  readonly text: string;
}

/**
 * Why an answer ended, when a reader should know: a length limit, a refusal, a stop sequence,
 * a full context window, or a stop by the user or the network. `end_turn`, `tool_use` and
 * `pause_turn` (continued by the store) say nothing, nor does an answer still streaming.
 */
export function stopReasonInfo(stream: StreamState): StopReasonInfo | null {
  if (stream.status === 'aborted') return { kind: 'mark', reason: 'aborted', text: 'Stopped' };
  if (stream.status === 'interrupted' || stream.status === 'error') {
    if (stream.stopReceived) return null;
    return stream.message === null
      ? { kind: 'mark', reason: 'failed', text: 'Failed' }
      : { kind: 'mark', reason: 'interrupted', text: 'Interrupted' };
  }
  if (stream.status !== 'complete') return null;
  const message = stream.message;
  const reason = message?.stop_reason;
  switch (reason) {
    case 'max_tokens':
      return { kind: 'length', reason, text: 'The answer reached the length limit.' };
    case 'refusal':
      return {
        kind: 'refusal',
        reason,
        text: 'The model declined to answer this request. Try rephrasing it.',
      };
    case 'stop_sequence': {
      const sequence = message?.stop_sequence;
      return {
        kind: 'note',
        reason,
        text:
          typeof sequence === 'string' && sequence !== ''
            ? `Stopped at the stop sequence “${sequence}”.`
            : 'Stopped at a stop sequence.',
      };
    }
    case 'model_context_window_exceeded':
      return {
        kind: 'note',
        reason,
        text: 'The conversation filled the model’s context window. Start a new one to go on.',
      };
    default:
      return null;
  }
}

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
