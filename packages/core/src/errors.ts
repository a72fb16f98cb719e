import { isNonEmptyString, isPlainObject } from './object.js';

/**
 * A failure, typed so a UI can say what happened and whether trying again can help.
 *
 * `type` is the API's error type where the server said one (`overloaded_error`,
 * `rate_limit_error`, …) or one of the kit's own: `network_error`, `stream_interrupted`,
 * `idle_timeout`, `invalid_response`, `invalid_endpoint` (a relative endpoint where nothing
 * can resolve it), `headers_error` (the `headers()` callback threw).
 */
export interface StreamError {
  readonly type: string;
  /** What the server (or the kit) said, verbatim where there was a server message. */
  readonly message: string;
  /** A short sentence for a person: what happened and what they can do. */
  readonly description: string;
  /** HTTP status, for errors that came with one. */
  readonly status?: number;
  /** The API's request id, for support. */
  readonly requestId?: string;
  /** A more specific code than `type`, when the server sent one (e.g. `token_revoked`). */
  readonly code?: string;
  /** How long the server asked us to wait before trying again. */
  readonly retryAfterMs?: number;
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

/** HTTP statuses worth another try (the API's own guidance, plus 529 overloaded). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([
  408, 409, 429, 500, 502, 503, 504, 529,
]);

export const isRetryableErrorType = (type: string): boolean => RETRYABLE_TYPES.has(type);

/** The error type a status means when the body does not say. */
function typeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'insufficient_quota';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 408:
      return 'timeout_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** A sentence a person can act on, for each kind of failure. */
export function describeError(error: {
  type: string;
  code?: string;
  message?: string;
  retryAfterMs?: number;
}): string {
  switch (error.type) {
    case 'authentication_error':
      return error.code === 'token_revoked'
        ? 'The API key has been revoked or does not exist. Use a valid key.'
        : 'The API key is missing or invalid. Check the key the server uses.';
    case 'insufficient_quota':
    case 'billing_error':
      return 'The account has no credit left. Add credit or raise the quota, then try again.';
    case 'permission_error':
      return 'This key may not use the requested model: it is not enabled for the project, or does not exist.';
    case 'not_found_error':
      return 'The endpoint or model was not found. Check the URL and the model name.';
    case 'request_too_large':
      return 'The request is too large. Shorten the conversation or the attachments.';
    case 'rate_limit_error':
      return error.retryAfterMs !== undefined
        ? `Too many requests. Try again in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s.`
        : 'Too many requests. Wait a moment, then try again.';
    case 'overloaded_error':
      return 'The service is overloaded right now. Try again in a moment.';
    case 'api_error':
      return 'The service had an internal error. Try again.';
    case 'timeout_error':
      return 'The request timed out. Try again.';
    case 'network_error':
      return 'The network connection failed. Check your connection, then resume.';
    case 'stream_interrupted':
      return 'The answer was cut off before it finished. Resume to continue it.';
    case 'idle_timeout':
      return 'The answer stalled: no data arrived for too long. Resume to continue it.';
    case 'invalid_response':
      return 'The server did not answer with an event stream. Check the endpoint.';
    case 'invalid_endpoint':
      return (
        error.message || 'The endpoint is not a URL this runtime can fetch. Use an absolute URL.'
      );
    case 'headers_error':
      return 'The request headers could not be prepared (the headers callback failed). Check it, then try again.';
    case 'invalid_request_error':
      return error.message
        ? `The request was rejected: ${error.message}`
        : 'The request was rejected as invalid.';
    default:
      return error.message || 'Something went wrong.';
  }
}

/** Builds an error, filling in the description and whether to retry. */
export function createStreamError(fields: {
  type: string;
  message: string;
  status?: number | undefined;
  requestId?: string | undefined;
  code?: string | undefined;
  retryAfterMs?: number | undefined;
  retryable?: boolean;
}): StreamError {
  const error: {
    -readonly [K in keyof StreamError]: StreamError[K];
  } = {
    type: fields.type,
    message: fields.message,
    description: describeError(fields),
    retryable:
      fields.retryable ??
      (fields.status !== undefined
        ? RETRYABLE_STATUSES.has(fields.status)
        : isRetryableErrorType(fields.type)),
  };
  if (fields.status !== undefined) error.status = fields.status;
  if (fields.requestId !== undefined) error.requestId = fields.requestId;
  if (fields.code !== undefined) error.code = fields.code;
  if (fields.retryAfterMs !== undefined) error.retryAfterMs = fields.retryAfterMs;
  return error;
}

/** Builds the error for an in-stream `event: error`. */
export function errorFromEvent(payload: {
  error?: { type?: unknown; message?: unknown } | null;
  request_id?: unknown;
}): StreamError {
  const type = typeof payload.error?.type === 'string' ? payload.error.type : 'api_error';
  const message =
    typeof payload.error?.message === 'string' ? payload.error.message : 'The stream failed.';
  const requestId = typeof payload.request_id === 'string' ? payload.request_id : undefined;
  return createStreamError({ type, message, requestId });
}

/** IMF-fixdate, RFC 850 and asctime, the three forms HTTP allows. */
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * How long to wait before retrying, from `retry-after-ms` (milliseconds) or `retry-after`
 * (seconds, or an HTTP date); undefined when neither says.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  // Only an HTTP date: V8's Date.parse also reads "-1" or "foo 1" as dates, which would
  // turn garbage into "retry now".
  if (!HTTP_DATE.test(after.trim())) return undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Reads a failed response into a typed error. Both body shapes the endpoints use are
 * understood: the API's `{type: "error", error: {type, message}, request_id}` and a
 * gateway's `{message, error: "token_revoked"}`; any other body (an HTML page from a proxy)
 * still gives an error typed by its status, with the start of the body as its message.
 */
export function errorFromResponse(status: number, headers: Headers, body: string): StreamError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const record = (value: unknown): Record<string, unknown> | undefined =>
    isPlainObject(value) ? value : undefined;
  const text = (value: unknown): string | undefined =>
    isNonEmptyString(value) ? value : undefined;
  const top = record(parsed);
  const inner = record(top?.error);
  const serverType = text(inner?.type);
  const code = text(top?.error) ?? text(inner?.code);
  const message =
    text(inner?.message) ??
    text(top?.message) ??
    (top === undefined ? summarize(body) : undefined) ??
    `HTTP ${status}`;
  const shouldRetry = headers.get('x-should-retry');
  return createStreamError({
    type:
      serverType && serverType !== 'error' && (serverType.endsWith('_error') || status < 400)
        ? serverType
        : typeForStatus(status),
    message,
    status,
    requestId: text(top?.request_id) ?? headers.get('request-id') ?? undefined,
    code: code !== serverType ? code : undefined,
    retryAfterMs: retryAfterMs(headers),
    ...(shouldRetry === 'true' || shouldRetry === 'false'
      ? { retryable: shouldRetry === 'true' }
      : {}),
  });
}

/**
 * The readable start of a non-JSON body, so an HTML error page still says something. Only its
 * first 4 KiB are read, and a tag is `<` to the next `>` with no `<` between: on 64 KiB of `<`
 * from a hostile server the scans took seconds, holding the event loop.
 */
function summarize(body: string): string | undefined {
  const plain = body
    .slice(0, 4096)
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain === '') return undefined;
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}
