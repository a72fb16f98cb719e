/**
 * streamMessage on the plain-fetch path (Node: no window, no document), against a real
 * node:http server (real sockets); the mock package runs the same contract over MSW
 * (intercepted fetch). The shared behaviours live in ./support/transport-cases.ts, which
 * transport.dom.test.ts runs on the fetch-event-source path.
 */
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { describe, expect, it, vi } from 'vitest';
import { streamMessage } from '../src/index.js';
import { httpBackend } from './support/sse-server.js';
import { sseEvent } from './support/streams.js';
import { BASE, describeTransportContract, REQUEST } from './support/transport-cases.js';

// Spy on the browser transport to prove this path never uses it.
vi.mock('@microsoft/fetch-event-source', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@microsoft/fetch-event-source')>();
  return { ...actual, fetchEventSource: vi.fn(actual.fetchEventSource) };
});

describeTransportContract('streamMessage over $name', [httpBackend], {
  library: vi.mocked(fetchEventSource),
  usesLibrary: false,
});

// ---------------------------------------------------------------------------------------
describe('streamMessage without a server', () => {
  it('a connection refused is a network_error, retried, then error', async () => {
    const srv = await httpBackend.serve(() => ({ body: '' }));
    await srv.close();
    const onRetry = vi.fn();
    const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint, onRetry });
    expect(state.status).toBe('error');
    expect(state.error).toMatchObject({ type: 'network_error', retryable: true });
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('uses an injected fetch, and the plain-fetch path in Node', async () => {
    const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
    const state = await streamMessage(REQUEST, {
      ...BASE,
      endpoint: 'https://example.test/api/messages',
      fetch: async (input, init) => {
        calls.push({ url: String(input), init });
        return new Response(sseEvent({ type: 'message_stop' }), {
          headers: { 'content-type': 'text/event-stream' },
        });
      },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('https://example.test/api/messages');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(state.status).toBe('complete');
    expect(vi.mocked(fetchEventSource)).not.toHaveBeenCalled();
  });

  // An attack review: `idleTimeoutMs: Number(process.env.UNSET)` is NaN, which turned the
  // idle timeout off; it is the default (60 s), here on a fake clock. A negative, too.
  it.each([Number.NaN, -1])(
    'idleTimeoutMs: %d ends a stalled answer after the default idle timeout',
    async (idleTimeoutMs) => {
      vi.useFakeTimers();
      try {
        const encoder = new TextEncoder();
        const stalled = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(
              encoder.encode(
                sseEvent({
                  type: 'content_block_start',
                  index: 0,
                  content_block: { type: 'text', text: '' },
                }),
              ),
            );
          },
        });
        const ending = streamMessage(REQUEST, {
          ...BASE,
          idleTimeoutMs,
          endpoint: 'https://example.test/v1/messages',
          fetch: async () =>
            new Response(stalled, { headers: { 'content-type': 'text/event-stream' } }),
        });
        await vi.advanceTimersByTimeAsync(60_001);
        const state = await ending;
        expect(state.status).toBe('interrupted');
        expect(state.error?.type).toBe('idle_timeout');
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it.each([
    [500, 'text/html'],
    [200, 'text/html'],
  ])('reads only the start of an endless %i %s body, then cancels it', async (status, type) => {
    let pulled = 0;
    let cancelled = false;
    const page = new TextEncoder().encode(`<html>${'x'.repeat(16 * 1024)}`);
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(page);
        },
        cancel() {
          cancelled = true;
        },
      });
    const state = await streamMessage(REQUEST, {
      ...BASE,
      retry: { retries: 0 },
      endpoint: 'https://example.test/v1/messages',
      fetch: async () => new Response(endless(), { status, headers: { 'content-type': type } }),
    });
    expect(state.status).toBe('error');
    expect(state.error?.status).toBe(status);
    // 64 KiB: four or five 16 KiB chunks (one may be queued ahead), never the whole body.
    expect(pulled).toBeLessThanOrEqual(6);
    expect(cancelled).toBe(true);
  });

  it('defaults the endpoint to /v1/messages', async () => {
    const urls: string[] = [];
    await streamMessage(REQUEST, {
      ...BASE,
      retry: false,
      fetch: async (input) => {
        urls.push(String(input));
        return new Response('{}', { status: 500 });
      },
    });
    expect(urls).toEqual(['/v1/messages']);
  });

  it('a relative endpoint in Node is a clear, typed error naming the URL', async () => {
    const onRetry = vi.fn();
    const state = await streamMessage(REQUEST, { ...BASE, onRetry });
    expect(state.status).toBe('error');
    expect(state.error).toMatchObject({ type: 'invalid_endpoint', retryable: false });
    expect(state.error?.message).toContain('"/v1/messages" is a relative URL');
    expect(state.error?.description).toBe(state.error?.message);
    expect(onRetry).not.toHaveBeenCalled();
  });
});
