/**
 * Failures before the stream: what the API, a gateway or a proxy answers instead of an
 * event stream. Bodies and headers follow the API's documented error shapes: the API's
 * `{"type":"error","error":{type,message},"request_id"}` with a `request-id` header, and the
 * gateway's `{"message", "error": "<code>"}` for 401/402/403.
 */
import { createRandom, DEFAULT_SEED, randomId } from './random.js';

/**
 * - `token-revoked` 401, gateway shape: `{"message":"API key has been revoked or does not exist.","error":"token_revoked"}`
 * - `insufficient-quota` 402, gateway shape, `insufficient_quota` (project balance ≤ 0)
 * - `permission` 403, gateway shape, `permission_denied` (model not enabled for the project)
 * - `not-found` 404 `not_found_error`; `too-large` 413 `request_too_large`
 * - `rate-limit` 429 `rate_limit_error` with `retry-after` (seconds) and `retry-after-ms`
 * - `api-error` 500 `api_error`; `overloaded` 529 `overloaded_error`
 * - `json-200`: 200 with a JSON message instead of an event stream (a proxy that drops
 *   `stream: true`)
 * - `html-502`: a proxy's HTML 502 page
 */
export type HttpErrorKind =
  | 'token-revoked'
  | 'insufficient-quota'
  | 'permission'
  | 'not-found'
  | 'too-large'
  | 'rate-limit'
  | 'api-error'
  | 'overloaded'
  | 'json-200'
  | 'html-502';

export const httpErrorKinds: readonly HttpErrorKind[] = [
  'token-revoked',
  'insufficient-quota',
  'permission',
  'not-found',
  'too-large',
  'rate-limit',
  'api-error',
  'overloaded',
  'json-200',
  'html-502',
];

/** The status each kind answers with; a scenario may name a kind by its status instead. */
export const httpErrorStatus: Readonly<Record<HttpErrorKind, number>> = {
  'token-revoked': 401,
  'insufficient-quota': 402,
  permission: 403,
  'not-found': 404,
  'too-large': 413,
  'rate-limit': 429,
  'api-error': 500,
  overloaded: 529,
  'json-200': 200,
  'html-502': 502,
};

export interface HttpErrorOptions {
  /** The `request-id` header (and `request_id` in API-shaped bodies). Default: generated. */
  readonly requestId?: string;
  /** For `rate-limit`: sent as `retry-after-ms`, and rounded up to seconds as `retry-after`. Default 1500. */
  readonly retryAfterMs?: number;
  /** The model named in messages (`permission`, `not-found`, `json-200`). */
  readonly model?: string;
}

let counter = 0;

/** A ready `Response` for one failure kind: return it from an MSW handler, or send it. */
export function httpError(kind: HttpErrorKind, options: HttpErrorOptions = {}): Response {
  const requestId =
    options.requestId ?? randomId('req_011CMock', createRandom(DEFAULT_SEED + ++counter));
  const model = options.model ?? 'claude-opus-5';
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'request-id': requestId,
  };
  const api = (status: number, type: string, message: string) =>
    json(status, { type: 'error', error: { type, message }, request_id: requestId }, headers);
  switch (kind) {
    case 'token-revoked':
      return json(
        401,
        { message: 'API key has been revoked or does not exist.', error: 'token_revoked' },
        headers,
      );
    case 'insufficient-quota':
      return json(
        402,
        {
          message: 'Insufficient quota: the project balance is used up. Add credit to continue.',
          error: 'insufficient_quota',
        },
        headers,
      );
    case 'permission':
      return json(
        403,
        {
          message: `Model ${model} is not enabled for this project, or does not exist.`,
          error: 'permission_denied',
        },
        headers,
      );
    case 'not-found':
      return api(404, 'not_found_error', `model: ${model}`);
    case 'too-large':
      return api(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    case 'rate-limit': {
      const ms = Math.max(0, options.retryAfterMs ?? 1500);
      headers['retry-after'] = String(Math.ceil(ms / 1000));
      headers['retry-after-ms'] = String(ms);
      return api(
        429,
        'rate_limit_error',
        'This request would exceed the rate limit for your organization. Please try again later.',
      );
    }
    case 'api-error':
      return api(500, 'api_error', 'Internal server error');
    case 'overloaded':
      return api(529, 'overloaded_error', 'Overloaded');
    case 'json-200':
      return json(
        200,
        {
          id: randomId('msg_01', createRandom(DEFAULT_SEED + counter)),
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text: 'Hello! This answer came back as JSON, not a stream.' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 12 },
        },
        headers,
      );
    case 'html-502':
      return new Response(
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        { status: 502, headers: { 'content-type': 'text/html', 'request-id': requestId } },
      );
    default:
      throw new Error(`Unknown HTTP error kind "${String(kind)}".`);
  }
}

/** A plain API-shaped error response, for requests the mock itself rejects. */
export function apiError(
  status: number,
  type: string,
  message: string,
  requestId = randomId('req_011CMock', createRandom(DEFAULT_SEED + ++counter)),
): Response {
  return json(
    status,
    { type: 'error', error: { type, message }, request_id: requestId },
    { 'content-type': 'application/json', 'request-id': requestId },
  );
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers });
}
