/**
 * A failure, typed so a UI can say what happened and whether trying again can help.
 *
 * `type` is the API's error type where the server said one (`overloaded_error`,
 * `rate_limit_error`, …) or one of the kit's own: `network_error`, `stream_interrupted`,
 * `idle_timeout`, `invalid_response`.
 */
export interface StreamError {
  readonly type: string;
  /** What the server (or the kit) said, verbatim where there was a server message. */
  readonly message: string;
  /** HTTP status, for errors that came with one. */
  readonly status?: number;
  /** The API's request id, for support. */
  readonly requestId?: string;
  /** Whether the same request (or a resume) can be expected to succeed later. */
  readonly retryable: boolean;
}

const RETRYABLE_TYPES = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
  'network_error',
  'stream_interrupted',
  'idle_timeout',
]);

export const isRetryableErrorType = (type: string): boolean => RETRYABLE_TYPES.has(type);

/** Builds the error for an in-stream `event: error`. */
export function errorFromEvent(payload: {
  error?: { type?: unknown; message?: unknown } | null;
  request_id?: unknown;
}): StreamError {
  const type = typeof payload.error?.type === 'string' ? payload.error.type : 'api_error';
  const message =
    typeof payload.error?.message === 'string' ? payload.error.message : 'The stream failed.';
  const requestId = typeof payload.request_id === 'string' ? payload.request_id : undefined;
  return {
    type,
    message,
    ...(requestId === undefined ? {} : { requestId }),
    retryable: isRetryableErrorType(type),
  };
}
