/**
 * The transport contract: every behaviour of streamMessage that must hold on both paths,
 * written once. `transport.test.ts` runs it on the plain-fetch path (Node) and
 * `transport.dom.test.ts` on the fetch-event-source path (jsdom), against a real
 * node:http server. Plus the helpers both files share.
 */
import type { fetchEventSource } from '@microsoft/fetch-event-source';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import {
  accumulate,
  continuationRequest,
  createStreamState,
  defaultInstruction,
  type EndCause,
  EventStreamDecoder,
  endStream,
  type MessageRequest,
  mergeContinuation,
  reduceStream,
  type StreamError,
  type StreamEvent,
  type StreamMessageOptions,
  type StreamState,
  streamMessage,
  toMessage,
} from '../../src/index.js';
import {
  type Backend,
  gate,
  type Handler,
  HTTP_ERROR_CASES,
  indexInside,
  type Reply,
  sseEvent,
  type TestServer,
  textAnswer,
} from './sse-server.js';
import { type StreamName, streamBytes, streamRequest, streamText } from './streams.js';

/** The user's last turn with the request to continue joined onto it (roles alternate). */
function withAsk(last: MessageRequest['messages'][number] | undefined, instruction: string) {
  expect(last?.role).toBe('user');
  const content = last?.content ?? [];
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return { role: 'user', content: [...blocks, { type: 'text', text: instruction }] };
}

// ---------------------------------------------------------------------------------------
// Shared helpers

/** Fast, deterministic retries; an idle timeout that ends a stuck test rather than hanging it. */
export const BASE: StreamMessageOptions = {
  retry: { baseDelayMs: 1 },
  random: () => 0.5,
  idleTimeoutMs: 3_000,
};

export const REQUEST: MessageRequest = {
  model: 'claude-opus-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

/** The state the reducer reaches from the complete events of `prefix`, ended by `cause`. */
export function reducePrefix(prefix: string, cause: EndCause): StreamState {
  let state = createStreamState();
  for (const event of new EventStreamDecoder().push(prefix)) state = reduceStream(state, event);
  return endStream(state, cause);
}

export const completeEvents = (prefix: string): number =>
  new EventStreamDecoder().push(prefix).length;

/**
 * A reply that sends `prefix`, waits until the client has handled its complete events, then
 * ends the way `ending` says; with the client-side `onEvent` that opens the gate. (Dropping the
 * connection before the client has read the bytes would let the HTTP stack discard them.)
 */
export function sendThen(prefix: string, ending: 'destroy' | 'hang' | 'end') {
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

export const textOf = (state: StreamState): string | undefined => {
  const block = toMessage(state)?.content[0];
  return block?.type === 'text' ? (block.text as string) : undefined;
};

export const overloaded = (headers: Record<string, string> = {}): Reply => ({
  status: 529,
  headers: { 'content-type': 'application/json', ...headers },
  body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
});

export const ok = (): Reply => ({ body: streamBytes('spec-basic-text') });

// ---------------------------------------------------------------------------------------
// The contract

export interface TransportContext {
  readonly backend: Backend;
  /** Starts the backend's server for this test; it is closed after the test. */
  serve(handler: Handler): Promise<TestServer>;
}

export interface TransportContractOptions {
  /** The spy around fetchEventSource (the test file's `vi.mock` installs it). */
  readonly library: MockInstance<typeof fetchEventSource>;
  /** Whether streamMessage's default transport in this environment is fetch-event-source. */
  readonly usesLibrary: boolean;
  /** Extra clean-up after each test. */
  readonly afterEach?: () => void;
  /** Tests only this transport has, run inside the same per-backend suite. */
  readonly extra?: (context: TransportContext) => void;
}

/**
 * `describe.each` over the node:http and MSW backends (`title` may use `$name`), with every
 * shared transport behaviour. On the plain-fetch path the library spy must never be called.
 */
export function describeTransportContract(
  title: string,
  backends: ReadonlyArray<Backend & { listen?(): void; close?(): void }>,
  options: TransportContractOptions,
): void {
  const { library, usesLibrary } = options;
  /** The number of fetch-event-source calls `n` requests make on this path. */
  const expectLibraryCalls = (n: number) =>
    expect(library).toHaveBeenCalledTimes(usesLibrary ? n : 0);

  describe.each<Backend & { listen?(): void; close?(): void }>([...backends])(title, (backend) => {
    let server: TestServer | undefined;
    const serve = async (handler: Handler): Promise<TestServer> => {
      server = await backend.serve(handler);
      return server;
    };

    if (backend.listen !== undefined) beforeAll(() => backend.listen?.());
    if (backend.close !== undefined) afterAll(() => backend.close?.());
    beforeEach(() => {
      library.mockClear();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      options.afterEach?.();
      if (!usesLibrary) expect(library).not.toHaveBeenCalled();
    });

    // -------------------------------------------------------------------------------------
    describe('a fixture end to end', () => {
      const headerKinds = ['an object', 'an async function'] as const;
      it.each(
        (['spec-tool-use', 'large-tool-input'] as const).flatMap((name) =>
          headerKinds.map((headers) => [name, headers] as const),
        ),
      )(
        '%s, headers as %s: complete, the same message as accumulate, one request with the right body and headers',
        async (name, headerKind) => {
          const srv = await serve(() => ({ body: streamBytes(name) }));
          const request = streamRequest(name);
          const states: StreamState[] = [];
          const events: StreamEvent[] = [];
          const headers = { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' };
          const state = await streamMessage(request, {
            ...BASE,
            endpoint: srv.endpoint,
            headers: headerKind === 'an object' ? headers : async () => headers,
            onEvent: (event) => events.push(event),
            onState: (next) => states.push(next),
          });
          const expected = await accumulate(streamBytes(name));
          expect(expected.status).toBe('complete');
          expect(state.status).toBe('complete');
          expect(state.error).toBeNull();
          expect(toMessage(state)).toEqual(toMessage(expected));
          expect(states.at(-1)).toBe(state);
          expect(events.at(-1)).toEqual({ type: 'message_stop' });
          expectLibraryCalls(1);

          expect(srv.requests).toHaveLength(1);
          const [sent] = srv.requests;
          expect(sent?.method).toBe('POST');
          expect(new URL(sent?.url ?? '', srv.endpoint).pathname).toBe('/v1/messages');
          expect(sent?.json).toEqual({ ...request, stream: true });
          expect(sent?.json.model).toBe(request.model);
          expect(sent?.json.messages).toEqual(request.messages);
          expect(sent?.headers['content-type']).toBe('application/json');
          expect(sent?.headers.accept).toBe('text/event-stream');
          expect(sent?.headers['x-api-key']).toBe('test-key');
          expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
        },
        20_000,
      );

      it('tells onEvent of each event before onState gets the state it produced', async () => {
        const srv = await serve(() => ({ body: streamBytes('spec-basic-text') }));
        const calls: { kind: 'event' | 'state'; state: StreamState }[] = [];
        await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: (_event, state) => calls.push({ kind: 'event', state }),
          onState: (state) => calls.push({ kind: 'state', state }),
        });
        const states = calls.filter((call) => call.kind === 'state');
        expect(states.length).toBeGreaterThan(3);
        // Every state but the end's (which no event made) right after its event.
        for (const call of states.slice(0, -1)) {
          const before = calls[calls.indexOf(call) - 1];
          expect(before?.kind).toBe('event');
          expect(before?.state).toBe(call.state);
        }
      });

      it('sends stream: true even when the request says otherwise', async () => {
        const srv = await serve(() => ({ body: streamBytes('spec-basic-text') }));
        const state = await streamMessage(
          { ...REQUEST, stream: false },
          { ...BASE, endpoint: srv.endpoint },
        );
        expect(state.status).toBe('complete');
        expect(srv.requests[0]?.json.stream).toBe(true);
      });

      it('asks an async headers function again for every attempt', async () => {
        const srv = await serve(({ index }) =>
          index === 0
            ? { status: 503, headers: { 'content-type': 'application/json' }, body: '{}' }
            : { body: streamBytes('spec-basic-text') },
        );
        let calls = 0;
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          headers: async () => {
            calls++;
            await Promise.resolve();
            return { authorization: `Bearer token-${calls}` };
          },
        });
        expect(state.status).toBe('complete');
        expect(srv.requests.map((r) => r.headers.authorization)).toEqual([
          'Bearer token-1',
          'Bearer token-2',
        ]);
        expect(srv.requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(
          true,
        );
      });
      // Regression: a caller's `Content-Type` once joined the lower-case default instead of
      // replacing it ("application/json, application/json").
      it('header names in another case replace the defaults instead of doubling them', async () => {
        const srv = await serve(() => ({ body: streamBytes('spec-basic-text') }));
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          headers: {
            'Content-Type': 'application/json',
            Accept: 'text/event-stream',
            'X-Api-Key': 'k',
          },
        });
        expect(state.status).toBe('complete');
        expect(srv.requests[0]?.headers['content-type']).toBe('application/json');
        expect(srv.requests[0]?.headers.accept).toBe('text/event-stream');
        expect(srv.requests[0]?.headers['x-api-key']).toBe('k');
      });
    });

    // -------------------------------------------------------------------------------------
    describe('HTTP errors before the stream', () => {
      it.each(HTTP_ERROR_CASES)('$name', async (c) => {
        const srv = await serve(() => ({
          status: c.status,
          headers: { 'content-type': 'application/json', ...c.headers },
          body: c.body,
        }));
        // Retryable statuses are retried (tested below); here one attempt shows the error.
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          ...(c.expected.retryable ? { retry: false } : {}),
        });
        expect(state.status).toBe('error');
        expect(state.message).toBeNull();
        expect(state.error).toMatchObject({ ...c.expected, status: c.status });
        if (typeof c.description === 'string') expect(state.error?.description).toBe(c.description);
        else if (c.description) expect(state.error?.description).toMatch(c.description);
        // Non-retryable statuses are not retried even though retries are on.
        expect(srv.requests).toHaveLength(1);
        expectLibraryCalls(1);
      });

      it.each([
        {
          page: 'from an nginx proxy',
          body: '<html>\n<head><title>502 Bad Gateway</title><style>body{color:red}</style></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n',
          message: '502 Bad Gateway 502 Bad Gateway nginx',
        },
        {
          page: 'on one line',
          body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
          message: '502 Bad Gateway 502 Bad Gateway',
        },
      ])('an HTML 502 page $page gives readable text, not tags', async ({ body, message }) => {
        const srv = await serve(() => ({
          status: 502,
          headers: { 'content-type': 'text/html' },
          body,
        }));
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          retry: false,
        });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({ type: 'api_error', status: 502, retryable: true });
        expect(state.error?.message).toBe(message);
        expect(state.error?.message).not.toMatch(/[<>]/);
        expect(srv.requests).toHaveLength(1);
      });

      it('a 200 that is not an event stream is invalid_response, not retried', async () => {
        const srv = await serve(() => ({
          status: 200,
          headers: { 'content-type': 'application/json', 'request-id': 'req_json' },
          body: '{"id":"msg_1","type":"message","content":[]}',
        }));
        const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(state.status).toBe('error');
        expect(state.message).toBeNull();
        expect(state.error).toMatchObject({
          type: 'invalid_response',
          status: 200,
          requestId: 'req_json',
          retryable: false,
        });
        expect(state.error?.message).toContain('application/json');
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('a connection dropped mid-stream', () => {
      const cuts: Array<[StreamName, string, () => number]> = [
        [
          'spec-tool-use',
          'mid-line inside an input_json_delta',
          () => indexInside(streamText('spec-tool-use'), '" Francisc', 5),
        ],
        [
          'spec-tool-use',
          'mid-line inside a text_delta',
          () => indexInside(streamText('spec-tool-use'), '" weather"', 4),
        ],
        [
          'spec-tool-use',
          'inside an event: line',
          () => indexInside(streamText('spec-tool-use'), 'event: content_block_stop', 10),
        ],
        [
          'truncated-mid-tool',
          'mid-line inside the last input_json_delta',
          () => indexInside(streamText('truncated-mid-tool'), '06-14', 3),
        ],
        [
          'large-tool-input',
          'mid-line inside the tool input, 2 MB in',
          () => indexInside(streamText('large-tool-input'), '"partial_json":"', 9, 2_000_000),
        ],
      ];

      it.each(cuts)(
        '%s cut %s: interrupted, everything before the cut kept, no retry',
        async (name, _where, at) => {
          const prefix = streamText(name).slice(0, at());
          const script = sendThen(prefix, 'destroy');
          expect(script.expected).toBeGreaterThan(0);
          const srv = await serve(() => script.reply);
          const state = await streamMessage(streamRequest(name), {
            ...BASE,
            endpoint: srv.endpoint,
            onEvent: script.onEvent,
          });
          expect(state.status).toBe('interrupted');
          expect(['network_error', 'stream_interrupted']).toContain(state.error?.type);
          expect(state.error?.retryable).toBe(true);
          const expected = reducePrefix(prefix, { type: 'network' });
          expect(toMessage(state)).toEqual(toMessage(expected));
          expect(toMessage(state)).toEqual(toMessage(await accumulate(prefix)));
          expect(state.message?.content.map((b) => b.status)).toEqual(
            expected.message?.content.map((b) => b.status),
          );
          expect(state.message?.content.at(-1)?.status).toBe('incomplete');
          expect(srv.requests).toHaveLength(1);
        },
        20_000,
      );

      it('a drop right after a whole last event, before its blank line, still delivers it', async () => {
        // message_stop arrived whole; only its closing blank line was lost with the connection.
        const prefix = textAnswer({ texts: ['Hi', ' there'] }).replace(/\n+$/, '\n');
        const script = sendThen(prefix, 'destroy');
        const srv = await serve(() => script.reply);
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: script.onEvent,
        });
        expect(state.status).toBe('complete');
        expect(textOf(state)).toBe('Hi there');
        expect(srv.requests).toHaveLength(1);
      });

      it('a cut inside the last event is reported the same way on both paths', async () => {
        const text = textAnswer({ texts: ['Hi', ' there'] });
        const prefix = text.slice(0, text.lastIndexOf('"text_delta"') + 5);
        const run = async (transport?: 'fetch') => {
          const script = sendThen(prefix, 'destroy');
          const srv = await serve(() => script.reply);
          return streamMessage(REQUEST, {
            ...BASE,
            endpoint: srv.endpoint,
            onEvent: script.onEvent,
            ...(transport ? { transport } : {}),
          });
        };
        const viaFetch = await run('fetch');
        const viaDefault = await run();
        expect(viaFetch.status).toBe('interrupted');
        expect(viaDefault.status).toBe('interrupted');
        const truncated = (state: StreamState) =>
          state.diagnostics.filter((d) => d.message.includes('stream truncated'));
        expect(truncated(viaFetch)).toHaveLength(1);
        expect(viaDefault.diagnostics).toEqual(viaFetch.diagnostics);
        expect(toMessage(viaDefault)).toEqual(toMessage(viaFetch));
      });

      it('bytes that are not UTF-8 read as U+FFFD, reported once, the same on both paths', async () => {
        // A U+FFFD the API sent (EF BF BD, cut between two reads), then a byte that is never
        // UTF-8 and a lone continuation byte where "X" and "Y" were.
        const bytes = new TextEncoder().encode(
          textAnswer({ texts: ['Hi', ' \uFFFDXY', ' there'] }),
        );
        const x = bytes.indexOf(0x58);
        bytes[x] = 0xff;
        bytes[x + 1] = 0x80;
        const cut = bytes.indexOf(0xef) + 1;
        const run = async (transport?: 'fetch') => {
          const srv = await serve(() => ({
            body: [bytes.slice(0, cut), { wait: 20 }, bytes.slice(cut)],
          }));
          return streamMessage(REQUEST, {
            ...BASE,
            endpoint: srv.endpoint,
            ...(transport ? { transport } : {}),
          });
        };
        const viaFetch = await run('fetch');
        const viaDefault = await run();
        expect(viaFetch.status).toBe('complete');
        expect(textOf(viaFetch)).toBe('Hi \uFFFD\uFFFD\uFFFD there');
        const notUtf8 = (state: StreamState) =>
          state.diagnostics.filter((d) => d.message.includes('not UTF-8'));
        expect(notUtf8(viaFetch)).toHaveLength(1);
        expect(viaDefault.diagnostics).toEqual(viaFetch.diagnostics);
        expect(toMessage(viaDefault)).toEqual(toMessage(viaFetch));
      });

      describe('bytes that are not UTF-8, reported at the same place on both paths', () => {
        const bytesOf = (text: string) => new TextEncoder().encode(text);
        const join = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
        const sameOnBoth = async (reply: () => { reply: Reply; onEvent?: () => void }) => {
          const run = async (transport?: 'fetch') => {
            const { reply: answer, onEvent } = reply();
            const srv = await serve(() => answer);
            return streamMessage(REQUEST, {
              ...BASE,
              endpoint: srv.endpoint,
              ...(onEvent ? { onEvent } : {}),
              ...(transport ? { transport } : {}),
            });
          };
          const viaFetch = await run('fetch');
          const viaDefault = await run();
          expect(viaDefault.diagnostics).toEqual(viaFetch.diagnostics);
          expect(viaDefault.status).toBe(viaFetch.status);
          return viaFetch;
        };

        it('with an unknown event in the same read', async () => {
          const text = textAnswer({ texts: ['Hi', ' there'] });
          const at = text.indexOf('event: content_block_start');
          const bytes = bytesOf(
            `${text.slice(0, at)}${sseEvent({ type: 'brand_new_event' })}${text.slice(at)}`,
          );
          bytes[bytes.indexOf(0x48 /* the H of Hi */)] = 0xff;
          const state = await sameOnBoth(() => ({ reply: { body: [bytes] } }));
          expect(state.diagnostics.map((d) => d.code)).toEqual(['unknown_event', 'invalid_event']);
          expect(state.diagnostics[1]?.message).toContain('not UTF-8');
        });

        it('in the read that brings an error event', async () => {
          const text = textAnswer({ texts: ['Hi'] });
          const head = text.slice(0, text.indexOf('event: content_block_stop'));
          const bytes = join(
            bytesOf(
              `${head}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Over`,
            ),
            new Uint8Array([0xff]),
            bytesOf('"}}\n\n'),
          );
          // The error ended the stream: the report comes after it, so it is noted as such.
          const state = await sameOnBoth(() => ({ reply: { body: [bytes] } }));
          expect(state.status).toBe('error');
          expect(state.diagnostics.map((d) => d.code)).toEqual(['event_after_end']);
        });

        it('half a character, then the connection resets', async () => {
          const text = textAnswer({ texts: ['Hi', ' there é'] });
          const prefix = text.slice(0, text.indexOf('é'));
          const state = await sameOnBoth(() => {
            const script = sendThen(prefix, 'destroy');
            return {
              reply: {
                ...script.reply,
                body: [
                  join(bytesOf(prefix), new Uint8Array([0xc3])),
                  ...script.reply.body.slice(1),
                ],
              },
              onEvent: script.onEvent,
            };
          });
          expect(state.status).toBe('interrupted');
          expect(state.diagnostics.at(-1)?.message).toContain('not UTF-8');
        });
      });

      it('a tool input cut mid-way keeps its raw JSON and best-effort input', async () => {
        const text = streamText('truncated-mid-tool');
        const prefix = text.slice(0, indexInside(text, '06-14', 3));
        const script = sendThen(prefix, 'destroy');
        const srv = await serve(() => script.reply);
        const state = await streamMessage(streamRequest('truncated-mid-tool'), {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: script.onEvent,
        });
        const tool = state.message?.content[1];
        expect(tool?.status).toBe('incomplete');
        expect(tool?.inputJson).toBe(
          '{"origin": "SFO", "destination": "JFK", "depart_date": "2025-',
        );
        expect(tool?.block).toMatchObject({ type: 'tool_use', name: 'search_flights' });
        expect((tool?.block as { input?: unknown } | undefined)?.input).toMatchObject({
          origin: 'SFO',
          destination: 'JFK',
        });
        expect(textOf(state)).toBe("I'll search for flights from San Francisco to New York.");
      });

      it('a body that ends cleanly before message_stop is interrupted (stream_interrupted)', async () => {
        const srv = await serve(() => ({ body: streamBytes('truncated-mid-tool') }));
        const state = await streamMessage(streamRequest('truncated-mid-tool'), {
          ...BASE,
          endpoint: srv.endpoint,
        });
        expect(state.status).toBe('interrupted');
        expect(state.error?.type).toBe('stream_interrupted');
        expect(toMessage(state)).toEqual(
          toMessage(await accumulate(streamBytes('truncated-mid-tool'))),
        );
        expect(srv.requests).toHaveLength(1);
      });

      it('the in-stream error event ends the stream in error, partial text kept, no retry', async () => {
        const srv = await serve(() => ({ body: streamBytes('in-stream-error') }));
        const state = await streamMessage(streamRequest('in-stream-error'), {
          ...BASE,
          endpoint: srv.endpoint,
        });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({
          type: 'overloaded_error',
          message: 'Overloaded',
          requestId: 'req_011CSHoEeqs5C35K2UUqR7Fy',
          retryable: true,
        });
        expect(textOf(state)).toBe(
          'Photosynthesis is the process by which plants convert light energy into',
        );
        expect(state.message?.content[0]?.status).toBe('incomplete');
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('a stalled stream', () => {
      const pings = streamText('text-pings');
      const beforeVariables = pings.slice(0, indexInside(pings, '" variables, but"', 0));
      const stalls = [
        {
          where: 'before the " variables, but" delta',
          cut: beforeVariables.slice(0, beforeVariables.lastIndexOf('event:')),
          text: 'Both declare block-scoped',
        },
        {
          where: 'after the " variables, but" delta',
          cut: pings.slice(
            0,
            indexInside(pings, 'event: content_block_delta', 0, pings.indexOf('" variables, but"')),
          ),
          text: 'Both declare block-scoped variables, but',
        },
      ];

      const STALL_MS = 400;
      it.each(stalls)(
        'stalled $where: interrupted (idle_timeout), content kept, and the client closes it',
        async ({ cut, text }) => {
          const srv = await serve(() => ({ body: cut, ending: 'hang' }));
          const started = performance.now();
          // Long enough that a busy runner delivers the bytes before the stall is called (at
          // 100 ms a CI run once timed out before the last delta had been read).
          const state = await streamMessage(streamRequest('text-pings'), {
            ...BASE,
            endpoint: srv.endpoint,
            idleTimeoutMs: STALL_MS,
          });
          expect(performance.now() - started).toBeGreaterThanOrEqual(STALL_MS - 5);
          expect(state.status).toBe('interrupted');
          expect(state.error).toMatchObject({ type: 'idle_timeout', retryable: true });
          expect(state.error?.message).toContain(`${STALL_MS} ms`);
          expect(textOf(state)).toBe(text);
          expect(toMessage(state)).toEqual(toMessage(reducePrefix(cut, { type: 'eof' })));
          expect(srv.requests).toHaveLength(1);
          if (backend.realSockets) await srv.closedEarly(0);
        },
      );

      it('a steady trickle of bytes keeps the stream alive past the idle timeout', async () => {
        // Gaps of 40 ms against a 500 ms timeout (wide margins for a loaded CI machine), over
        // about a second in all: only the bytes keep it alive.
        const texts = 'abcdefghijklmnopqrst'.split('');
        const events = textAnswer({ texts }).split(/(?<=\n\n)/);
        const body = events.flatMap((event) => [event, { wait: 40 }]);
        const srv = await serve(() => ({ body }));
        const started = Date.now();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          idleTimeoutMs: 500,
        });
        expect(Date.now() - started).toBeGreaterThan(500);
        expect(state.status).toBe('complete');
        expect(textOf(state)).toBe(texts.join(''));
      });

      it('a body ending without the blank line after its last event: the same outcome as the plain-fetch path', async () => {
        // Only the final "\n\n" is missing: message_stop arrived whole.
        const body = textAnswer({ texts: ['Hi', ' there'] }).replace(/\n+$/, '\n');
        const srv = await serve(() => ({ body }));
        const viaFetch = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          transport: 'fetch',
        });
        const viaDefault = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expectLibraryCalls(1);
        expect(viaFetch.status).toBe('complete');
        expect(viaDefault.status).toBe(viaFetch.status);
        expect(toMessage(viaDefault)).toEqual(toMessage(viaFetch));
      });
    });

    // -------------------------------------------------------------------------------------
    describe('abort', () => {
      it('before: an already-aborted signal sends no request', async () => {
        const srv = await serve(() => ({ body: streamBytes('spec-basic-text') }));
        const controller = new AbortController();
        controller.abort();
        const states: StreamState[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onState: (next) => states.push(next),
        });
        expect(state.status).toBe('aborted');
        expect(state.message).toBeNull();
        expect(states).toEqual([state]);
        expect(srv.requests).toHaveLength(0);
        expectLibraryCalls(0);
      });

      it('during: aborted, content kept, the connection closed', async () => {
        const text = streamText('spec-tool-use');
        const prefix = text.slice(
          0,
          indexInside(text, 'event: content_block_delta', 0, text.indexOf('" weather"')),
        );
        const expected = completeEvents(prefix);
        const srv = await serve(() => ({ body: prefix, ending: 'hang' }));
        const controller = new AbortController();
        let seen = 0;
        let afterAbort = 0;
        const state = await streamMessage(streamRequest('spec-tool-use'), {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onEvent: () => {
            if (controller.signal.aborted) afterAbort++;
            if (++seen === expected) controller.abort();
          },
        });
        expect(afterAbort).toBe(0);
        expectLibraryCalls(1);
        expect(state.status).toBe('aborted');
        expect(state.error).toBeNull();
        expect(textOf(state)).toBe("Okay, let's check the weather");
        expect(toMessage(state)).toEqual(toMessage(reducePrefix(prefix, { type: 'abort' })));
        expect(state.message?.content[0]?.status).toBe('incomplete');
        expect(srv.requests).toHaveLength(1);
        if (backend.realSockets) await srv.closedEarly(0);
      });

      it('during the retry backoff: aborted without another request', async () => {
        const srv = await serve(() => ({
          status: 529,
          headers: { 'content-type': 'application/json', 'retry-after-ms': '10000' },
          body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        }));
        const controller = new AbortController();
        const delays: number[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onRetry: ({ delayMs }) => {
            delays.push(delayMs);
            controller.abort();
          },
        });
        expect(delays).toEqual([10_000]);
        expect(state.status).toBe('aborted');
        expect(srv.requests).toHaveLength(1);
      });

      it('while waiting for the response headers: aborted, the connection closed', async () => {
        const never = gate();
        const srv = await serve(async () => {
          await never.promise;
          return { body: '' };
        });
        const controller = new AbortController();
        const pending = streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
        });
        while (srv.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        controller.abort();
        const state = await pending;
        expect(state.status).toBe('aborted');
        expect(state.message).toBeNull();
        expect(srv.requests).toHaveLength(1);
        if (backend.realSockets) await srv.closedEarly(0);
      });

      // Regression: an exception from onEvent/onState once left the response body open on the
      // plain-fetch path (forever, for a stalled server).
      it('a callback that throws ends the stream as interrupted and closes the connection', async () => {
        const text = streamText('spec-tool-use');
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
        expect(state.message?.id).toBe('msg_014p7gG3wDgGV9EUtLvnow3U');
        expect(srv.requests).toHaveLength(1);
        if (backend.realSockets) {
          const closed = await Promise.race([
            srv.closedEarly(0).then(() => 'closed'),
            new Promise((resolve) => setTimeout(() => resolve('still open after 500 ms'), 500)),
          ]);
          expect(closed).toBe('closed');
        }
      });

      it('from a callback: nothing more is delivered, mid-chunk included', async () => {
        // The whole answer in one write, so the events after the abort sit in the same chunk.
        const srv = await serve(() => ({ body: textAnswer({ texts: ['a', 'b', 'c'] }) }));
        const controller = new AbortController();
        const seen: string[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onEvent: (event) => {
            seen.push(event.type);
            if (event.type === 'content_block_start') controller.abort();
          },
        });
        expect(state.status).toBe('aborted');
        expect(seen).toEqual(['message_start', 'content_block_start']);
      });

      it('after completion: the state stays complete', async () => {
        const srv = await serve(() => ({ body: streamBytes('spec-basic-text') }));
        const controller = new AbortController();
        const states: StreamState[] = [];
        const state = await streamMessage(streamRequest('spec-basic-text'), {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onState: (next) => states.push(next),
        });
        const published = states.length;
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(state.status).toBe('complete');
        expect(textOf(state)).toBe('Hello!');
        expect(states).toHaveLength(published);
        expect(states.at(-1)).toBe(state);
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('retry', () => {
      it('529, 529, then 200: three requests, complete, backoff 0.75× then 1.5× base', async () => {
        const srv = await serve(({ index }) => (index < 2 ? overloaded() : ok()));
        const retries: Array<{ attempt: number; delayMs: number; type: string }> = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          retry: { baseDelayMs: 4 },
          endpoint: srv.endpoint,
          onRetry: ({ attempt, delayMs, error }) =>
            retries.push({ attempt, delayMs, type: error.type }),
        });
        expect(state.status).toBe('complete');
        expect(textOf(state)).toBe('Hello!');
        expect(srv.requests).toHaveLength(3);
        expect(retries).toEqual([
          { attempt: 1, delayMs: 3, type: 'overloaded_error' },
          { attempt: 2, delayMs: 6, type: 'overloaded_error' },
        ]);
        // Each retry sends the same body.
        expect(new Set(srv.requests.map((r) => r.body)).size).toBe(1);
        expectLibraryCalls(3);
      });

      it('backoff doubles per attempt with equal jitter, capped by maxDelayMs', async () => {
        const srv = await serve(() => overloaded());
        const delays: number[] = [];
        await streamMessage(REQUEST, {
          ...BASE,
          retry: { retries: 4, baseDelayMs: 4, maxDelayMs: 20 },
          endpoint: srv.endpoint,
          onRetry: ({ delayMs }) => delays.push(delayMs),
        });
        // ceilings 4, 8, 16, 20 (capped); delay = ceiling/2 + 0.5 * ceiling/2
        expect(delays).toEqual([3, 6, 12, 15]);
        expect(srv.requests).toHaveLength(5);
      });

      it('jitter spans half to the whole ceiling', async () => {
        for (const [random, expected] of [
          [0, 2],
          [0.999, 3.998],
        ] as const) {
          const srv = await serve(({ index }) => (index === 0 ? overloaded() : ok()));
          const delays: number[] = [];
          await streamMessage(REQUEST, {
            ...BASE,
            random: () => random,
            retry: { baseDelayMs: 4 },
            endpoint: srv.endpoint,
            onRetry: ({ delayMs }) => delays.push(delayMs),
          });
          expect(delays[0]).toBeCloseTo(expected, 6);
          await srv.close();
        }
      });

      it('honours retry-after-ms', async () => {
        const srv = await serve(({ index }) =>
          index === 0 ? overloaded({ 'retry-after-ms': '30' }) : ok(),
        );
        const delays: number[] = [];
        const started = performance.now();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onRetry: ({ delayMs }) => delays.push(delayMs),
        });
        expect(delays).toEqual([30]);
        expect(performance.now() - started).toBeGreaterThanOrEqual(25);
        expect(state.status).toBe('complete');
        expect(srv.requests).toHaveLength(2);
      });

      it('honours retry-after in seconds', async () => {
        const srv = await serve(({ index }) =>
          index === 0 ? overloaded({ 'retry-after': '0.02' }) : ok(),
        );
        const delays: number[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onRetry: ({ delayMs }) => delays.push(delayMs),
        });
        expect(delays).toEqual([20]);
        expect(state.status).toBe('complete');
        expect(srv.requests).toHaveLength(2);
      });

      it('a retry-after of 1 s is waited for (the abort proves the wait had started)', async () => {
        const srv = await serve(() => overloaded({ 'retry-after': '1' }));
        const controller = new AbortController();
        const delays: number[] = [];
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onRetry: ({ delayMs }) => {
            delays.push(delayMs);
            setTimeout(() => controller.abort(), 5);
          },
        });
        expect(delays).toEqual([1000]);
        expect(state.status).toBe('aborted');
        expect(srv.requests).toHaveLength(1);
      });

      it('a retry-after longer than maxRetryAfterMs is not retried', async () => {
        const srv = await serve(() => overloaded({ 'retry-after': '2' }));
        const onRetry = vi.fn();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          retry: { baseDelayMs: 1, maxRetryAfterMs: 1000 },
          endpoint: srv.endpoint,
          onRetry,
        });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({ type: 'overloaded_error', retryAfterMs: 2000 });
        expect(onRetry).not.toHaveBeenCalled();
        expect(srv.requests).toHaveLength(1);
      });

      it.each([
        {
          shape: 'an API error body',
          body: '{"type":"error","error":{"type":"api_error","message":"Service unavailable"}}',
        },
        { shape: 'an empty JSON body', body: '{}' },
      ])(
        'two retries by default: three 503s ($shape) make three requests, then error',
        async ({ body }) => {
          const srv = await serve(() => ({
            status: 503,
            headers: { 'content-type': 'application/json' },
            body,
          }));
          const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
          expect(state.status).toBe('error');
          expect(state.error).toMatchObject({ type: 'api_error', status: 503, retryable: true });
          expect(state.error?.status).toBe(503);
          expect(srv.requests).toHaveLength(3);
        },
      );

      // Regression: an explicit `undefined` once replaced a default, and `retries: undefined`
      // never stopped. Bounded here by aborting at the 6th request.
      it('an option given as undefined keeps its default (two retries)', async () => {
        const controller = new AbortController();
        const srv = await serve(({ index }) => {
          if (index >= 5) controller.abort();
          return { status: 503, headers: { 'content-type': 'application/json' }, body: '{}' };
        });
        const state = await streamMessage(REQUEST, {
          ...BASE,
          retry: { retries: undefined, baseDelayMs: 1 },
          endpoint: srv.endpoint,
          signal: controller.signal,
        });
        expect(srv.requests).toHaveLength(3);
        expect(state.status).toBe('error');
      });

      // An attack review: `retries: Number(process.env.UNSET)` is NaN, `attempt >= NaN` is
      // never true, and 574 requests went out in a second. Bounded here by aborting.
      it.each([
        ['NaN retries', { retries: Number.NaN, baseDelayMs: 1 }],
        ['negative retries', { retries: -1, baseDelayMs: 1 }],
        ['a NaN delay', { baseDelayMs: Number.NaN, maxDelayMs: 4 }],
      ])('%s: the defaults hold (two retries)', async (_, retry) => {
        const controller = new AbortController();
        const srv = await serve(({ index }) => {
          if (index >= 5) controller.abort();
          return { status: 503, headers: { 'content-type': 'application/json' }, body: '{}' };
        });
        const onRetry = vi.fn();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          retry,
          endpoint: srv.endpoint,
          signal: controller.signal,
          onRetry,
        });
        expect(srv.requests).toHaveLength(3);
        expect(state.status).toBe('error');
        for (const [{ delayMs }] of onRetry.mock.calls) expect(delayMs).toBeGreaterThan(0);
      });

      it('retry: false makes one request', async () => {
        const srv = await serve(() => overloaded());
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          retry: false,
        });
        expect(state.status).toBe('error');
        expect(state.error?.type).toBe('overloaded_error');
        expect(srv.requests).toHaveLength(1);
      });

      it('x-should-retry overrides the status both ways', async () => {
        const no = await serve(() => overloaded({ 'x-should-retry': 'false' }));
        const a = await streamMessage(REQUEST, { ...BASE, endpoint: no.endpoint });
        expect(a.error?.retryable).toBe(false);
        expect(no.requests).toHaveLength(1);
        await no.close();

        const yes = await serve(({ index }) =>
          index === 0
            ? {
                status: 400,
                headers: { 'content-type': 'application/json', 'x-should-retry': 'true' },
                body: '{"type":"error","error":{"type":"invalid_request_error","message":"try again"}}',
              }
            : ok(),
        );
        const b = await streamMessage(REQUEST, { ...BASE, endpoint: yes.endpoint });
        expect(b.status).toBe('complete');
        expect(yes.requests).toHaveLength(2);
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
        expect(errors[0]?.retryable).toBe(true);
        expect(srv.requests).toHaveLength(2);
      });

      it('a network error on every attempt ends as error (network_error) after the retries', async () => {
        const srv = await serve(() => 'network-error');
        const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(state.status).toBe('error');
        expect(state.error?.type).toBe('network_error');
        expect(state.error?.description).toMatch(/network connection failed/);
        expect(srv.requests).toHaveLength(3);
      });

      it('a 200 whose body drops before its first byte is retried', async () => {
        const srv = await serve(({ index }) =>
          index === 0 ? { body: [], ending: 'destroy' } : ok(),
        );
        const state = await streamMessage(REQUEST, { ...BASE, endpoint: srv.endpoint });
        expect(state.status).toBe('complete');
        expect(srv.requests).toHaveLength(2);
      });

      it('never retried once an event has arrived: a drop after the first event is one request', async () => {
        const text = streamText('spec-basic-text');
        const prefix = text.slice(0, indexInside(text, 'event: content_block_start', 0));
        const script = sendThen(prefix, 'destroy');
        expect(script.expected).toBe(1);
        const srv = await serve(() => script.reply);
        const onRetry = vi.fn();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          onEvent: script.onEvent,
          onRetry,
        });
        expect(state.status).toBe('interrupted');
        expect(state.message?.id).toBe('msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY');
        expect(onRetry).not.toHaveBeenCalled();
        expect(srv.requests).toHaveLength(1);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('timers past 2^31-1 ms and a failing headers callback', () => {
      it('idleTimeoutMs: 2**31 never fires early: a stream pausing mid-way completes', async () => {
        const text = streamText('spec-basic-text');
        const half = indexInside(text, 'event: content_block_delta', 0);
        const srv = await serve(() => ({
          body: [text.slice(0, half), { wait: 60 }, text.slice(half)],
        }));
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          idleTimeoutMs: 2 ** 31,
        });
        expect(state.status).toBe('complete');
        expect(state.error).toBeNull();
      });

      it('a retry-after longer than a timer can wait is not retried, even with no cap', async () => {
        const srv = await serve(() => overloaded({ 'retry-after': String(3 * 2 ** 31) }));
        const onRetry = vi.fn();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          retry: { baseDelayMs: 1, maxRetryAfterMs: Number.POSITIVE_INFINITY },
          onRetry,
        });
        expect(state.status).toBe('error');
        expect(state.error?.type).toBe('overloaded_error');
        expect(onRetry).not.toHaveBeenCalled();
        expect(srv.requests).toHaveLength(1);
      });

      it('a throwing headers() is its own error, names the failure, and is not retried', async () => {
        const srv = await serve(ok);
        const onRetry = vi.fn();
        const state = await streamMessage(REQUEST, {
          ...BASE,
          endpoint: srv.endpoint,
          headers: () => {
            throw new Error('token refresh failed');
          },
          onRetry,
        });
        expect(state.status).toBe('error');
        expect(state.error).toMatchObject({ type: 'headers_error', retryable: false });
        expect(state.error?.message).toContain('token refresh failed');
        expect(onRetry).not.toHaveBeenCalled();
        expect(srv.requests).toHaveLength(0);
      });
    });

    // -------------------------------------------------------------------------------------
    describe('resume end to end', () => {
      /** Where to cut `name`: inside the data line of its `deltas + 1`-th text delta. */
      function cutAfterDeltas(name: StreamName, deltas: number) {
        const text = streamText(name);
        let at = 0;
        for (let i = 0; i <= deltas; i++) at = indexInside(text, '"type":"text_delta"', 1, at);
        return text.slice(0, at);
      }

      const cases: Array<{
        name: StreamName;
        deltas: number;
        model: string;
        strategy: 'prefill' | 'user-message';
      }> = [
        { name: 'text-pings', deltas: 3, model: 'claude-sonnet-4-5', strategy: 'prefill' },
        { name: 'text-pings', deltas: 3, model: 'claude-opus-5', strategy: 'user-message' },
        { name: 'text-pings', deltas: 4, model: 'claude-sonnet-4-5', strategy: 'prefill' },
        { name: 'long-markdown', deltas: 700, model: 'claude-sonnet-4-5', strategy: 'prefill' },
        { name: 'long-markdown', deltas: 700, model: 'claude-opus-5', strategy: 'user-message' },
      ];

      it.each(cases)(
        '$name cut after $deltas deltas, $strategy ($model): the merged answer is the whole text',
        async ({ name, deltas, model, strategy }) => {
          const full = await accumulate(streamBytes(name));
          const fullText = textOf(full) ?? '';
          const request: MessageRequest = { ...streamRequest(name), model };
          const prefix = cutAfterDeltas(name, deltas);
          const script = sendThen(prefix, 'destroy');
          let rest = '';
          const srv = await serve(({ index }) => {
            if (index === 0) return script.reply;
            const third = Math.ceil(rest.length / 3);
            return {
              body: textAnswer({
                model,
                texts: [rest.slice(0, third), rest.slice(third, 2 * third), rest.slice(2 * third)],
              }),
            };
          });

          const interrupted = await streamMessage(request, {
            ...BASE,
            endpoint: srv.endpoint,
            onEvent: script.onEvent,
          });
          expect(interrupted.status).toBe('interrupted');
          const partial = textOf(interrupted) ?? '';
          expect(partial.length).toBeGreaterThan(0);
          expect(partial).toMatch(/\S$/);
          expect(fullText.startsWith(partial)).toBe(true);
          rest = fullText.slice(partial.length);

          const next = continuationRequest(request, interrupted, { strategy });
          expect(continuationRequest(request, interrupted)).toEqual(next);
          const continuation = await streamMessage(next, { ...BASE, endpoint: srv.endpoint });
          expect(continuation.status).toBe('complete');

          expect(srv.requests).toHaveLength(2);
          const sent = srv.requests[1]?.json;
          const { messages: _messages, ...rest0 } = request;
          expect(sent).toEqual({
            ...rest0,
            stream: true,
            messages:
              strategy === 'prefill'
                ? [
                    ...request.messages,
                    { role: 'assistant', content: [{ type: 'text', text: partial }] },
                  ]
                : [
                    ...request.messages.slice(0, -1),
                    withAsk(request.messages.at(-1), defaultInstruction(partial)),
                  ],
          });

          const merged = mergeContinuation(interrupted, continuation, { strategy });
          expect(merged.status).toBe('complete');
          expect(merged.error).toBeNull();
          const message = toMessage(merged);
          expect(message?.content).toHaveLength(1);
          expect(textOf(merged)).toBe(fullText);
          expect(message?.id).toBe(interrupted.message?.id);
          expect(message?.stop_reason).toBe('end_turn');
          expect(merged.attempts?.map((a) => a.status)).toEqual(['interrupted', 'complete']);
        },
        20_000,
      );
    });

    options.extra?.({ backend, serve });
  });
}
