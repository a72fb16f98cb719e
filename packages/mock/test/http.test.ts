import { streamMessage } from '@message-stream/core';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMockHandlers,
  fixtureRequest,
  type HttpErrorKind,
  httpError,
  httpErrorKinds,
  httpErrorStatus,
  type MockRequestInfo,
} from '../src/index.js';

const ENDPOINT = 'https://api.mock.test/v1/messages';
const seen: MockRequestInfo[] = [];
const server = setupServer(...createMockHandlers({ onRequest: (info) => seen.push(info) }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const send = (scenario: string, options: Parameters<typeof streamMessage>[1] = {}) =>
  streamMessage(fixtureRequest('text-pings'), {
    endpoint: ENDPOINT,
    headers: { 'x-mock-scenario': scenario },
    retry: false,
    ...options,
  });

const expected: Record<
  HttpErrorKind,
  { type: string; code?: string; message?: RegExp; retryAfterMs?: number; retryable: boolean }
> = {
  'token-revoked': {
    type: 'authentication_error',
    code: 'token_revoked',
    message: /^API key has been revoked or does not exist\.$/,
    retryable: false,
  },
  'insufficient-quota': {
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    retryable: false,
  },
  permission: { type: 'permission_error', code: 'permission_denied', retryable: false },
  'not-found': { type: 'not_found_error', retryable: false },
  'too-large': { type: 'request_too_large', retryable: false },
  'rate-limit': { type: 'rate_limit_error', retryAfterMs: 1500, retryable: true },
  'api-error': { type: 'api_error', message: /^Internal server error$/, retryable: true },
  overloaded: { type: 'overloaded_error', message: /^Overloaded$/, retryable: true },
  'json-200': { type: 'invalid_response', message: /application\/json/, retryable: false },
  'html-502': { type: 'api_error', message: /502 Bad Gateway/, retryable: true },
};

describe('HTTP faults through streamMessage (MSW)', () => {
  it.each([...httpErrorKinds])(
    '%s gives the right error type, status and details',
    async (kind) => {
      const state = await send(`;fault=http:${kind}`);
      const want = expected[kind];
      expect(state.status).toBe('error');
      expect(state.message).toBeNull();
      expect(state.error).toMatchObject({
        type: want.type,
        status: httpErrorStatus[kind],
        retryable: want.retryable,
      });
      expect(state.error?.requestId).toMatch(/^req_011CMock/);
      if (want.code) expect(state.error?.code).toBe(want.code);
      if (want.message) expect(state.error?.message).toMatch(want.message);
      expect(state.error?.retryAfterMs).toBe(want.retryAfterMs);
    },
  );

  it('the API-shaped bodies carry type, error and request_id matching the request-id header', async () => {
    for (const kind of [
      'not-found',
      'too-large',
      'rate-limit',
      'api-error',
      'overloaded',
    ] as const) {
      const response = httpError(kind, { requestId: 'req_fixed' });
      expect(response.headers.get('request-id')).toBe('req_fixed');
      const body = await response.json();
      expect(body).toMatchObject({
        type: 'error',
        error: { type: expect.any(String), message: expect.any(String) },
        request_id: 'req_fixed',
      });
    }
    const limited = httpError('rate-limit', { retryAfterMs: 2500 });
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('retry-after-ms')).toBe('2500');
    expect(await httpError('token-revoked').json()).toEqual({
      message: 'API key has been revoked or does not exist.',
      error: 'token_revoked',
    });
  });

  it('network-error fails the connection before any response', async () => {
    const state = await send(';fault=network-error');
    expect(state.status).toBe('error');
    expect(state.error?.type).toBe('network_error');
  });

  it('times=1 fails only the first request, so a retry succeeds', async () => {
    seen.length = 0;
    const retries: number[] = [];
    const state = await send('text-pings;fault=http:529;times=1', {
      retry: { retries: 2, baseDelayMs: 1 },
      onRetry: ({ delayMs }) => retries.push(delayMs),
    });
    expect(state.status).toBe('complete');
    expect(retries).toHaveLength(1);
    expect(seen.map((info) => info.faulted)).toEqual([true, false]);
  });

  it('retry-after-ms sets the wait a client is asked for (and honours)', async () => {
    const retries: number[] = [];
    const state = await send(';fault=http:429;retry-after-ms=25;times=1', {
      retry: { retries: 1 },
      onRetry: ({ delayMs }) => retries.push(delayMs),
    });
    expect(retries).toEqual([25]);
    expect(state.status).toBe('complete');
  });
});
