import {
  describeError,
  type StreamError as StreamErrorInfo,
  type StreamStatus,
} from '@message-stream/core';
import type { ReactElement } from 'react';
import { cx } from './cx.js';

export interface StreamErrorNoticeProps {
  /** The stream's error; nothing renders without one. */
  error: StreamErrorInfo | null | undefined;
  /** The stream's status, exposed as a modifier class (`ms-error--interrupted`) for styling. */
  status?: StreamStatus;
  /**
   * Announce the notice when it appears (`role="alert"`, the default). Off for notices on
   * earlier answers in a log, which are history, not news.
   */
  announce?: boolean;
  /** Says it in other words than the error's own `description`. */
  description?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * A stream failure, said for a person: the error's `description` (a sentence saying what
 * happened and what to do; derived from its type when missing), and the request id to quote to
 * support. An alert, so it is announced when it appears.
 */
export function StreamErrorNotice({
  error,
  status,
  announce = true,
  description: override,
  className,
}: StreamErrorNoticeProps): ReactElement | null {
  if (!error) return null;
  const description =
    override ??
    (typeof error.description === 'string' && error.description !== ''
      ? error.description
      : describeError({
          type: typeof error.type === 'string' ? error.type : 'unknown',
          message: typeof error.message === 'string' ? error.message : '',
        }));
  return (
    <div
      role={announce ? 'alert' : undefined}
      className={cx('ms-error', status && `ms-error--${status}`, className)}
      data-error-type={error.type}
    >
      <p className="ms-error__description">{description}</p>
      {typeof error.requestId === 'string' && error.requestId !== '' ? (
        <p className="ms-error__request">
          Request id: <code className="ms-error__request-id">{error.requestId}</code>
        </p>
      ) : null}
    </div>
  );
}
