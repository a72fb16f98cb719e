import { describe, expect, it } from 'vitest';
import {
  createStreamError,
  describeError,
  errorFromEvent,
  errorFromResponse,
  isRetryableErrorType,
  RETRYABLE_STATUSES,
  retryAfterMs,
} from '../src/index.js';

const headers = (init: Record<string, string> = {}) => new Headers(init);

describe('errorFromResponse', () => {
  it('reads the API shape: type, message, request_id', () => {
    const error = errorFromResponse(
      529,
      headers(),
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
    );
    expect(error).toEqual({
      type: 'overloaded_error',
      message: 'Overloaded',
      description: 'The service is overloaded right now. Try again in a moment.',
      status: 529,
      requestId: 'req_011CSHoEeqs5C35K2UUqR7Fy',
      retryable: true,
    });
  });

  it('reads the gateway shape: the string error is the code, the status gives the type', () => {
    const error = errorFromResponse(
      401,
      headers(),
      '{"message":"API key has been revoked or does not exist.","error":"token_revoked"}',
    );
    expect(error).toEqual({
      type: 'authentication_error',
      code: 'token_revoked',
      message: 'API key has been revoked or does not exist.',
      description: 'The API key has been revoked or does not exist. Use a valid key.',
      status: 401,
      retryable: false,
    });
  });

  it.each([
    [402, 'insufficient_quota', 'insufficient_quota'],
    [403, 'permission_denied', 'permission_error'],
    [404, 'model_not_found', 'not_found_error'],
    [429, 'rate_limited', 'rate_limit_error'],
    [500, 'internal', 'api_error'],
  ])('gateway shape %i with error %s → type %s', (status, code, type) => {
    const error = errorFromResponse(
      status,
      headers(),
      JSON.stringify({ message: 'm', error: code }),
    );
    expect(error).toMatchObject({ type, code, status, message: 'm' });
  });

  it('takes a code nested in the API error object', () => {
    const error = errorFromResponse(
      400,
      headers(),
      '{"type":"error","error":{"type":"invalid_request_error","code":"context_too_long","message":"too long"}}',
    );
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'context_too_long' });
  });

  it('ignores a server type that is not an error type, and the generic "error"', () => {
    expect(
      errorFromResponse(
        413,
        headers(),
        '{"type":"error","error":{"type":"error","message":"big"}}',
      ),
    ).toMatchObject({ type: 'request_too_large', message: 'big' });
    expect(
      errorFromResponse(403, headers(), '{"error":{"type":"forbidden","message":"no"}}'),
    ).toMatchObject({ type: 'permission_error', message: 'no' });
  });

  it('keeps an unknown server error type verbatim, with its message as the description', () => {
    const error = errorFromResponse(
      400,
      headers(),
      '{"type":"error","error":{"type":"future_error","message":"Something new."}}',
    );
    expect(error).toMatchObject({
      type: 'future_error',
      message: 'Something new.',
      description: 'Something new.',
      retryable: false,
    });
  });

  it('an HTML page from a proxy: readable text, scripts and styles dropped, typed by status', () => {
    const html = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title>
<style>body { font-family: sans-serif }</style><script>var x = "<b>";</script></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body></html>`;
    const error = errorFromResponse(502, headers({ 'content-type': 'text/html' }), html);
    expect(error).toMatchObject({
      type: 'api_error',
      status: 502,
      message: '502 Bad Gateway 502 Bad Gateway cloudflare',
      retryable: true,
    });
  });

  it('cuts a long non-JSON body to 200 characters and an ellipsis', () => {
    const error = errorFromResponse(500, headers(), `<p>${'x'.repeat(500)}</p>`);
    expect(error.message).toBe(`${'x'.repeat(200)}…`);
  });

  // An attack review: 64 KiB of `<` from a failing server took 2.5 s to summarize.
  it('reads a non-JSON body up to its first 4 KiB, and a `<` without its `>` as text', () => {
    expect(errorFromResponse(503, headers(), `${'<br>'.repeat(1100)}late words`).message).toBe(
      'HTTP 503',
    );
    expect(errorFromResponse(502, headers(), '<'.repeat(65536)).message).toBe(
      `${'<'.repeat(200)}…`,
    );
  });

  it.each([
    ['an empty body', ''],
    ['whitespace', '  \n '],
    ['only tags', '<html><body></body></html>'],
    ['an empty JSON object', '{}'],
    ['JSON with empty strings', '{"message":"","error":""}'],
  ])('%s → "HTTP <status>"', (_name, body) => {
    expect(errorFromResponse(503, headers(), body)).toMatchObject({
      type: 'api_error',
      message: 'HTTP 503',
      status: 503,
      retryable: true,
    });
  });

  it('the request-id header when the body has none; the body wins when both have one', () => {
    const fromHeader = errorFromResponse(
      500,
      headers({ 'request-id': 'req_header' }),
      '{"message":"boom","error":"internal"}',
    );
    expect(fromHeader.requestId).toBe('req_header');
    const fromBody = errorFromResponse(
      500,
      headers({ 'request-id': 'req_header' }),
      '{"type":"error","error":{"type":"api_error","message":"boom"},"request_id":"req_body"}',
    );
    expect(fromBody.requestId).toBe('req_body');
    expect(errorFromResponse(500, headers(), '').requestId).toBeUndefined();
    expect(
      errorFromResponse(500, headers({ 'request-id': 'req_html' }), '<h1>x</h1>').requestId,
    ).toBe('req_html');
  });

  it('x-should-retry overrides the status either way; other values are ignored', () => {
    const body = '{"type":"error","error":{"type":"invalid_request_error","message":"m"}}';
    expect(errorFromResponse(400, headers({ 'x-should-retry': 'true' }), body).retryable).toBe(
      true,
    );
    expect(errorFromResponse(529, headers({ 'x-should-retry': 'false' }), '').retryable).toBe(
      false,
    );
    expect(errorFromResponse(529, headers({ 'x-should-retry': 'maybe' }), '').retryable).toBe(true);
    expect(errorFromResponse(400, headers({ 'x-should-retry': 'yes' }), body).retryable).toBe(
      false,
    );
  });

  it('carries retry-after into retryAfterMs and the rate-limit description', () => {
    const error = errorFromResponse(
      429,
      headers({ 'retry-after': '2' }),
      '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}',
    );
    expect(error).toMatchObject({
      type: 'rate_limit_error',
      retryAfterMs: 2000,
      description: 'Too many requests. Try again in 2 s.',
      retryable: true,
    });
    expect('retryAfterMs' in errorFromResponse(429, headers(), '')).toBe(false);
  });

  it.each([
    [400, 'invalid_request_error', false],
    [401, 'authentication_error', false],
    [402, 'insufficient_quota', false],
    [403, 'permission_error', false],
    [404, 'not_found_error', false],
    [408, 'timeout_error', true],
    [409, 'invalid_request_error', true],
    [413, 'request_too_large', false],
    [418, 'invalid_request_error', false],
    [422, 'invalid_request_error', false],
    [429, 'rate_limit_error', true],
    [500, 'api_error', true],
    [501, 'api_error', false],
    [502, 'api_error', true],
    [503, 'api_error', true],
    [504, 'api_error', true],
    [529, 'overloaded_error', true],
  ])('status %i with no body → %s, retryable %s', (status, type, retryable) => {
    expect(errorFromResponse(status, headers(), '')).toMatchObject({ type, status, retryable });
    expect(RETRYABLE_STATUSES.has(status)).toBe(retryable);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('retry-after-ms in milliseconds, fractional too', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '30' }))).toBe(30);
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500.5' }))).toBe(1500.5);
    expect(retryAfterMs(headers({ 'retry-after-ms': '0' }))).toBe(0);
  });

  it('retry-after-ms wins over retry-after', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '30', 'retry-after': '5' }))).toBe(30);
  });

  it('a negative or garbage retry-after-ms falls back to retry-after', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '-5', 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after-ms': 'soon', 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after-ms': 'soon' }))).toBeUndefined();
  });

  it('retry-after in seconds', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after': '0' }))).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after': ' 3 ' }))).toBe(3000);
  });

  it('retry-after as an HTTP date, relative to now; a past date is 0', () => {
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:05 GMT' }), now)).toBe(
      5000,
    );
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }), now)).toBe(0);
  });

  it('no header, an empty one or plain garbage: undefined', () => {
    expect(retryAfterMs(headers())).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '   ' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'in 5 minutes' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'Infinity' }), now)).toBeUndefined();
  });

  // V8's Date.parse reads almost anything with a number in it as a date ("-1" is the year
  // 2001); such values must not become 0, "retry now".
  it('garbage that V8 would read as a date is still garbage', () => {
    expect(retryAfterMs(headers({ 'retry-after': '-1' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'foo 1' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '1.5.2' }), now)).toBeUndefined();
  });
});

describe('describeError', () => {
  it.each([
    [
      { type: 'authentication_error' },
      'The API key is missing or invalid. Check the key the server uses.',
    ],
    [
      { type: 'authentication_error', code: 'token_revoked' },
      'The API key has been revoked or does not exist. Use a valid key.',
    ],
    [
      { type: 'insufficient_quota' },
      'The account has no credit left. Add credit or raise the quota, then try again.',
    ],
    [
      { type: 'billing_error' },
      'The account has no credit left. Add credit or raise the quota, then try again.',
    ],
    [
      { type: 'permission_error' },
      'This key may not use the requested model: it is not enabled for the project, or does not exist.',
    ],
    [
      { type: 'not_found_error' },
      'The endpoint or model was not found. Check the URL and the model name.',
    ],
    [
      { type: 'request_too_large' },
      'The request is too large. Shorten the conversation or the attachments.',
    ],
    [{ type: 'rate_limit_error' }, 'Too many requests. Wait a moment, then try again.'],
    [{ type: 'rate_limit_error', retryAfterMs: 2000 }, 'Too many requests. Try again in 2 s.'],
    [{ type: 'rate_limit_error', retryAfterMs: 1500 }, 'Too many requests. Try again in 2 s.'],
    [{ type: 'rate_limit_error', retryAfterMs: 100 }, 'Too many requests. Try again in 1 s.'],
    [{ type: 'rate_limit_error', retryAfterMs: 0 }, 'Too many requests. Try again in 1 s.'],
    [{ type: 'overloaded_error' }, 'The service is overloaded right now. Try again in a moment.'],
    [{ type: 'api_error' }, 'The service had an internal error. Try again.'],
    [{ type: 'timeout_error' }, 'The request timed out. Try again.'],
    [
      { type: 'network_error' },
      'The network connection failed. Check your connection, then resume.',
    ],
    [
      { type: 'stream_interrupted' },
      'The answer was cut off before it finished. Resume to continue it.',
    ],
    [
      { type: 'idle_timeout' },
      'The answer stalled: no data arrived for too long. Resume to continue it.',
    ],
    [
      { type: 'invalid_response' },
      'The server did not answer with an event stream. Check the endpoint.',
    ],
    [{ type: 'invalid_request_error' }, 'The request was rejected as invalid.'],
    [
      { type: 'invalid_request_error', message: 'max_tokens: Field required' },
      'The request was rejected: max_tokens: Field required',
    ],
    [{ type: 'something_new', message: 'A new failure.' }, 'A new failure.'],
    [{ type: 'something_new' }, 'Something went wrong.'],
  ])('%o → %s', (error, description) => {
    expect(describeError(error)).toBe(description);
  });
});

describe('createStreamError', () => {
  it('fills in the description and retryable, and omits absent fields', () => {
    const error = createStreamError({ type: 'idle_timeout', message: 'No data.' });
    expect(error).toEqual({
      type: 'idle_timeout',
      message: 'No data.',
      description: describeError({ type: 'idle_timeout' }),
      retryable: true,
    });
    expect(Object.keys(error).sort()).toEqual(['description', 'message', 'retryable', 'type']);
  });

  it('retryable: explicit, else by status when there is one, else by type', () => {
    expect(createStreamError({ type: 'api_error', message: '', retryable: false }).retryable).toBe(
      false,
    );
    expect(
      createStreamError({ type: 'overloaded_error', message: '', status: 400 }).retryable,
    ).toBe(false);
    expect(
      createStreamError({ type: 'invalid_request_error', message: '', status: 529 }).retryable,
    ).toBe(true);
    expect(createStreamError({ type: 'network_error', message: '' }).retryable).toBe(true);
    expect(createStreamError({ type: 'invalid_response', message: '' }).retryable).toBe(false);
  });

  it('retryable error types', () => {
    for (const type of [
      'overloaded_error',
      'api_error',
      'rate_limit_error',
      'timeout_error',
      'network_error',
      'stream_interrupted',
      'idle_timeout',
    ]) {
      expect(isRetryableErrorType(type)).toBe(true);
    }
    for (const type of [
      'invalid_request_error',
      'authentication_error',
      'permission_error',
      'not_found_error',
      'request_too_large',
      'insufficient_quota',
      'billing_error',
      'invalid_response',
    ]) {
      expect(isRetryableErrorType(type)).toBe(false);
    }
  });
});

describe('errorFromEvent', () => {
  it('reads an in-stream error event', () => {
    expect(
      errorFromEvent({
        error: { type: 'overloaded_error', message: 'Overloaded' },
        request_id: 'req_1',
      }),
    ).toEqual({
      type: 'overloaded_error',
      message: 'Overloaded',
      description: describeError({ type: 'overloaded_error' }),
      requestId: 'req_1',
      retryable: true,
    });
  });

  it('defaults a malformed one to a retryable api_error', () => {
    expect(errorFromEvent({ error: null })).toMatchObject({
      type: 'api_error',
      message: 'The stream failed.',
      retryable: true,
    });
  });
});
