/**
 * streamMessage on the fetch-event-source path, chosen automatically because this
 * environment (jsdom) has a window and a document. Against a real node:http server and
 * against MSW, which intercepts the global fetch here as well.
 */
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  accumulate,
  continuationRequest,
  createStreamState,
  type EndCause,
  EventStreamDecoder,
  endStream,
  type MessageRequest,
  mergeContinuation,
  reduceStream,
  type StreamError,
  type StreamMessageOptions,
  type StreamState,
  streamMessage,
  toMessage,
} from '../src/index.js';
import {
  type Backend,
  createMswBackend,
  fixtureBytes,
  fixtureRequest,
  fixtureText,
  gate,
  type Handler,
  HTTP_ERROR_CASES,
  httpBackend,
  indexInside,
  type Reply,
  type TestServer,
  textAnswer,
} from './support/sse-server.js';

// A spy around the real library, to prove this path is the one taken.
vi.mock('@microsoft/fetch-event-source', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@microsoft/fetch-event-source')>();
  return { ...actual, fetchEventSource: vi.fn(actual.fetchEventSource) };
});

const mswBackend = await createMswBackend();
const fes = vi.mocked(fetchEventSource);

const BASE: StreamMessageOptions = {
  retry: { baseDelayMs: 1 },
  random: () => 0.5,
  idleTimeoutMs: 3_000,
};

const REQUEST: MessageRequest = {
  model: 'claude-opus-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

function reducePrefix(prefix: string, cause: EndCause): StreamState {
  let state = createStreamState();
  for (const event of new EventStreamDecoder().push(prefix)) state = reduceStream(state, event);
  return endStream(state, cause);
}

const completeEvents = (prefix: string): number => new EventStreamDecoder().push(prefix).length;

/** Send `prefix`, wait until the client handled its complete events, then end as `ending` says. */
function sendThen(prefix: string, ending: 'destroy' | 'hang' | 'end') {
  const expected = completeEvents(prefix);
  const read = gate();
  if (expected === 0) read.open();
  let seen = 0;
  return {
    reply: { body: [prefix, { until: read.promise }], ending } satisfies Reply,
    onEvent: () => {
      seen++;
      if (seen === expected) read.open();
    },
    expected,
  };
}

const textOf = (state: StreamState): string | undefined => {
  const block = toMessage(state)?.content[0];
  return block?.type === 'text' ? (block.text as string) : undefined;
};

/** Makes the page hidden or visible, the way a browser does when a tab is switched. */
function setVisibility(hidden: boolean): void {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  document.dispatchEvent(new Event('visibilitychange'));
}

const overloaded = (headers: Record<string, string> = {}): Reply => ({
  status: 529,
  headers: { 'content-type': 'application/json', ...headers },
  body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
});
const ok = (): Reply => ({ body: fixtureBytes('spec-basic-text') });

it('runs in a DOM, so auto selects fetch-event-source', () => {
  expect(typeof window).toBe('object');
  expect(typeof document.addEventListener).toBe('function');
});

describe.each<Backend>([httpBackend, mswBackend])(
  'fetch-event-source path over $name',
  (backend) => {
    let server: TestServer | undefined;
    const serve = async (handler: Handler): Promise<TestServer> => {
      server = await backend.serve(handler);
      return server;
    };

    if (backend === mswBackend) {
      beforeAll(() => mswBackend.listen());
      afterAll(() => mswBackend.close());
    }
    beforeEach(() => {
      fes.mockClear();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      Reflect.deleteProperty(document, 'hidden');
      Reflect.deleteProperty(document, 'visibilityState');
    });

    // -------------------------------------------------------------------------------------
    it.each(['spec-tool-use', 'large-tool-input'])(
      '%s end to end: complete, the same message as accumulate, one request',
      async (name) => {
        const srv = await serve(() => ({ body: fixtureBytes(name) }));
        const request = fixtureRequest(name);
        const state = await streamMessage(request, {
          ...BASE,
          endpoint: srv.endpoint,
          headers: async () => ({ 'x-api-key': 'test-key' }),
        });
        expect(state.status).toBe('complete');
        expect(toMessage(state)).toEqual(toMessage(await accumulate(fixtureBytes(name))));
        expect(fes).toHaveBeenCalledTimes(1);
        expect(srv.requests).toHaveLength(1);
        const [sent] = srv.requests;
        expect(sent?.method).toBe('POST');
        expect(sent?.json).toEqual({ ...request, stream: true });
        expect(sent?.headers['content-type']).toBe('application/json');
        expect(sent?.headers.accept).toBe('text/event-stream');
        expect(sent?.headers['x-api-key']).toBe('test-key');
      },
      20_000,
    );

    it("transport: 'fetch' forces plain fetch even in a DOM", async () => {
      const srv = await serve(() => ({ body: fixtureBytes('spec-tool-use') }));
      const state = await streamMessage(fixtureRequest('spec-tool-use'), {
        ...BASE,
        endpoint: srv.endpoint,
        transport: 'fetch',
      });
      expect(state.status).toBe('complete');
      expect(fes).not.toHaveBeenCalled();
    });

    // -------------------------------------------------------------------------------------
    describe('HTTP errors', () => {
      it.each(HTTP_ERROR_CASES)('$name', async (c) => {
        const srv = await serve(() => ({
          status: c.status,
          headers: { 'content-type': 'application/json', ...c.headers },
          body: c.body,
        }));
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          ...(c.expected.retryable ? { retry: false } : {}),
        });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({ ...c.expected, status: c.status });
        if (typeof c.description === 'string') expect(state.error?.description).toBe(c.description);
        else if (c.description) expect(state.error?.description).toMatch(c.description);
        expect(srv.requests).toHaveLength(1);
        expect(fes).toHaveBeenCalledTimes(1);
      });

      it('an HTML 502 page gives readable text', async () => {
        const srv = await serve(() => ({
          status: 502,
          headers: { 'content-type': 'text/html' },
          body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
        }));
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          retry: false,
        });
        expect(state.error).toMatchObject({ type: 'api_error', status: 502 });
        expect(state.error?.message).toBe('502 Bad Gateway 502 Bad Gateway');
      });

      it('a 200 that is not an event stream is invalid_response, not retried', async () => {
        const srv = await serve(() => ({
          headers: { 'content-type': 'application/json' },
          body: '{"id":"msg_1"}',
        }));
        const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({
          type: 'invalid_response',
          status: 200,
          retryable: false,
        });
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('drops, stalls and in-stream errors', () => {
      it.each([
        ['spec-tool-use', '" Francisc', 5],
        ['truncated-mid-tool', '06-14', 3],
        ['large-tool-input', '"partial_json":"', 9],
      ] as const)(
        '%s cut mid-line: interrupted, everything before the cut kept, no retry',
        async (name, marker, offset) => {
          const text = fixtureText(name);
          const from = name === 'large-tool-input' ? 2_000_000 : 0;
          const prefix = text.slice(0, indexInside(text, marker, offset, from));
          const script = sendThen(prefix, 'destroy');
          const srv = await serve(() => script.reply);
          const state = await streamMessage(fixtureRequest(name), {
            ...BASE,
            endpoint: srv.endpoint,
            onEvent: script.onEvent,
          });
          expect(state.status).toBe('interrupted');
          expect(['network_error', 'stream_interrupted']).toContain(state.error?.type);
          expect(toMessage(state)).toEqual(toMessage(reducePrefix(prefix, { type: 'network' })));
          expect(toMessage(state)).toEqual(toMessage(await accumulate(prefix)));
          expect(srv.requests).toHaveLength(1);
        },
        20_000,
      );

      it('the in-stream error event: error, overloaded_error, partial text kept', async () => {
        const srv = await serve(() => ({ body: fixtureBytes('in-stream-error') }));
        const state = await streamMessage(fixtureRequest('in-stream-error'), {
          ...BASE,
          endpoint: srv.endpoint,
        });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({ type: 'overloaded_error', message: 'Overloaded' });
        expect(textOf(state)).toBe(
          'Photosynthesis is the process by which plants convert light energy into',
        );
        expect(srv.requests).toHaveLength(1);
      });

      it('a stall ends as interrupted (idle_timeout), content kept, connection closed', async () => {
        const text = fixtureText('text-pings');
        const cut = text.slice(
          0,
          indexInside(text, 'event: content_block_delta', 0, text.indexOf('" variables, but"')),
        );
        const srv = await serve(() => ({ body: cut, ending: 'hang' }));
        const state = await streamMessage(fixtureRequest('text-pings'), {
          ...BASE,
          endpoint: srv.endpoint,
          idleTimeoutMs: 100,
        });
        expect(state.status).toBe('interrupted');
        expect(state.error?.type).toBe('idle_timeout');
        expect(textOf(state)).toBe('Both declare block-scoped variables, but');
        expect(srv.requests).toHaveLength(1);
        if (backend.realSockets) await srv.closedEarly(0);
      });

      it('a body ending without the blank line after its last event: same outcome as the plain-fetch path', async () => {
        // Only the final "\n\n" is missing: message_stop arrived whole.
        const body = textAnswer({ texts: ['Hi', ' there'] }).replace(/\n+$/, '\n');
        const srv = await serve(() => ({ body }));
        const viaFetch = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          transport: 'fetch',
        });
        const viaLibrary = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(fes).toHaveBeenCalledTimes(1);
        expect(viaFetch.status).toBe('complete');
        expect(viaLibrary.status).toBe(viaFetch.status);
        expect(toMessage(viaLibrary)).toEqual(toMessage(viaFetch));
      });
    });

    // -------------------------------------------------------------------------------------
    describe('abort (the library resolves silently on abort; the transport must notice)', () => {
      it('before: no request at all', async () => {
        const srv = await serve(() => ok());
        const controller = new AbortController();
        controller.abort();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
        });
        expect(state.status).toBe('aborted');
        expect(srv.requests).toHaveLength(0);
        expect(fes).not.toHaveBeenCalled();
      });

      it('during: aborted (not complete, not interrupted), content kept, connection closed', async () => {
        const text = fixtureText('spec-tool-use');
        const prefix = text.slice(
          0,
          indexInside(text, 'event: content_block_delta', 0, text.indexOf('" weather"')),
        );
        const expected = completeEvents(prefix);
        const srv = await serve(() => ({ body: prefix, ending: 'hang' }));
        const controller = new AbortController();
        let seen = 0;
        const state = await streamMessage(fixtureRequest('spec-tool-use'), {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onEvent: () => {
            if (++seen === expected) controller.abort();
          },
        });
        expect(fes).toHaveBeenCalledTimes(1);
        expect(state.status).toBe('aborted');
        expect(state.error).toBeNull();
        expect(textOf(state)).toBe("Okay, let's check the weather");
        expect(toMessage(state)).toEqual(toMessage(reducePrefix(prefix, { type: 'abort' })));
        expect(srv.requests).toHaveLength(1);
        if (backend.realSockets) await srv.closedEarly(0);
      });

      it('a callback that throws ends the stream as interrupted and closes the connection', async () => {
        const text = fixtureText('spec-tool-use');
        const prefix = text.slice(0, indexInside(text, 'event: content_block_start', 0));
        const srv = await serve(() => ({ body: prefix, ending: 'hang' }));
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: () => {
            throw new Error('a bug in the UI');
          },
        });
        expect(state.status).toBe('interrupted');
        expect(state.error).toMatchObject({ type: 'network_error', message: 'a bug in the UI' });
        expect(srv.requests).toHaveLength(1);
        if (backend.realSockets) await srv.closedEarly(0);
      });

      it('after completion: stays complete', async () => {
        const srv = await serve(() => ok());
        const controller = new AbortController();
        const states: StreamState[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onState: (next) => states.push(next),
        });
        const published = states.length;
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(state.status).toBe('complete');
        expect(states).toHaveLength(published);
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('a hidden tab', () => {
      /** The first event alone, then the rest once the test has switched tabs back and forth. */
      function slowFixture(name: string) {
        const text = fixtureText(name);
        const split = indexInside(text, 'event: ', 0, text.indexOf('message_start') + 20);
        const released = gate();
        return {
          reply: {
            body: [text.slice(0, split), { until: released.promise }, text.slice(split)],
          } satisfies Reply,
          release: released.open,
        };
      }

      it('does not re-POST when the page is hidden and shown again mid-stream', async () => {
        const slow = slowFixture('spec-tool-use');
        const srv = await serve(({ index }) => (index === 0 ? slow.reply : ok()));
        let switched = false;
        const state = await streamMessage(fixtureRequest('spec-tool-use'), {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: () => {
            if (switched) return;
            switched = true;
            setVisibility(true);
            setVisibility(false);
            slow.release();
          },
        });
        expect(switched).toBe(true);
        expect(state.status).toBe('complete');
        expect(toMessage(state)).toEqual(
          toMessage(await accumulate(fixtureBytes('spec-tool-use'))),
        );
        expect(srv.requests).toHaveLength(1);
        expect(fes).toHaveBeenCalledTimes(1);
      });

      it('control: the same switch makes the bare library re-POST without openWhenHidden', async () => {
        const slow = slowFixture('spec-basic-text');
        const secondPost = gate();
        const srv = await serve(({ index }) => {
          if (index === 0) return slow.reply;
          secondPost.open();
          return ok();
        });
        const controller = new AbortController();
        let switched = false;
        const done = fetchEventSource(srv.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...REQUEST, stream: true }),
          signal: controller.signal,
          fetch: (input, init) => globalThis.fetch(input, init),
          onmessage: () => {
            if (switched) return;
            switched = true;
            setVisibility(true);
            setVisibility(false);
          },
          // The aborted first request reports an error: keep the library going (a long
          // interval, cleared when it ends) so the second request is not aborted with it.
          onerror: () => 60_000,
        });
        await secondPost.promise;
        await done;
        controller.abort();
        slow.release();
        expect(srv.requests).toHaveLength(2);
        expect(srv.requests[1]?.body).toBe(srv.requests[0]?.body);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('retry', () => {
      it('529, 529, then 200: three requests, complete, backoff 0.75× then 1.5× base', async () => {
        const srv = await serve(({ index }) => (index < 2 ? overloaded() : ok()));
        const delays: number[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          retry: { baseDelayMs: 4 },
          endpoint: srv.endpoint,
          onRetry: ({ delayMs }) => delays.push(delayMs),
        });
        expect(state.status).toBe('complete');
        expect(delays).toEqual([3, 6]);
        expect(srv.requests).toHaveLength(3);
        expect(fes).toHaveBeenCalledTimes(3);
      });

      it('retry-after-ms is honoured', async () => {
        const srv = await serve(({ index }) =>
          index === 0 ? overloaded({ 'retry-after-ms': '30' }) : ok(),
        );
        const delays: number[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onRetry: ({ delayMs }) => delays.push(delayMs),
        });
        expect(delays).toEqual([30]);
        expect(state.status).toBe('complete');
      });

      it('three 503s: three requests, then error', async () => {
        const srv = await serve(() => ({
          status: 503,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }));
        const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(state.status).toBe('error');
        expect(state.error?.status).toBe(503);
        expect(srv.requests).toHaveLength(3);
      });

      it('retry: false makes one request', async () => {
        const srv = await serve(() => overloaded());
        await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint, retry: false });
        expect(srv.requests).toHaveLength(1);
      });

      it('a network error before any response is retried', async () => {
        const srv = await serve(({ index }) => (index === 0 ? 'network-error' : ok()));
        const errors: StreamError[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onRetry: ({ error }) => errors.push(error),
        });
        expect(state.status).toBe('complete');
        expect(errors.map((e) => e.type)).toEqual(['network_error']);
        expect(srv.requests).toHaveLength(2);
      });

      it('a 200 whose body drops before its first byte is retried', async () => {
        const srv = await serve(({ index }) =>
          index === 0 ? { body: [], ending: 'destroy' } : ok(),
        );
        const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(state.status).toBe('complete');
        expect(srv.requests).toHaveLength(2);
      });

      it('never retried once an event has arrived', async () => {
        const text = fixtureText('spec-basic-text');
        const script = sendThen(
          text.slice(0, indexInside(text, 'event: content_block_start', 0)),
          'destroy',
        );
        const srv = await serve(() => script.reply);
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: script.onEvent,
        });
        expect(state.status).toBe('interrupted');
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    it('resume end to end (prefill): the merged answer is the whole text', async () => {
      const name = 'text-pings';
      const fullText = textOf(await accumulate(fixtureBytes(name))) ?? '';
      const request = fixtureRequest(name);
      const text = fixtureText(name);
      let at = 0;
      for (let i = 0; i < 5; i++) at = indexInside(text, '"type":"text_delta"', 1, at);
      const script = sendThen(text.slice(0, at), 'destroy');
      let rest = '';
      const srv = await serve(({ index }) =>
        index === 0
          ? script.reply
          : {
              body: textAnswer({ texts: [rest.slice(0, 10), rest.slice(10, 40), rest.slice(40)] }),
            },
      );
      const interrupted = await streamMessage(request, {
        ...BASE,
        endpoint: srv.endpoint,
        onEvent: script.onEvent,
      });
      expect(interrupted.status).toBe('interrupted');
      const partial = textOf(interrupted) ?? '';
      rest = fullText.slice(partial.length);
      const continuation = await streamMessage(
        continuationRequest(request, interrupted, { strategy: 'prefill' }),
        { ...BASE, endpoint: srv.endpoint },
      );
      expect(srv.requests[1]?.json.messages).toEqual([
        ...request.messages,
        { role: 'assistant', content: [{ type: 'text', text: partial }] },
      ]);
      const merged = mergeContinuation(interrupted, continuation);
      expect(merged.status).toBe('complete');
      expect(textOf(merged)).toBe(fullText);
    });
  },
);
