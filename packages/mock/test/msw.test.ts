import { accumulate, type MessageRequest, streamMessage, toMessage } from '@message-stream/core';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createMockFetch,
  createMockHandlers,
  fixtureForMessages,
  fixtureNames,
  fixtureRequest,
  type MockRequestInfo,
} from '../src/index.js';
import { splitSegments } from '../src/sse.js';
import { bodyOf, fixtureFile } from './support/helpers.js';

const ENDPOINT = 'https://api.mock.test/v1/messages';
const seen: MockRequestInfo[] = [];
const server = setupServer(...createMockHandlers({ onRequest: (info) => seen.push(info) }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  seen.length = 0;
  server.resetHandlers();
});
afterAll(() => server.close());

const ask = (content: string, model = 'claude-sonnet-4-5'): MessageRequest => ({
  model,
  max_tokens: 1024,
  messages: [{ role: 'user', content }],
});

/** The body up to and including the n-th event. */
function firstEvents(text: string, n: number): string {
  let out = '';
  let count = 0;
  for (const segment of splitSegments(bodyOf(text))) {
    if (count === n) break;
    out += segment.text;
    if (segment.isEvent) count++;
  }
  return out;
}

describe('createMockHandlers: selecting the fixture', () => {
  it.each([...fixtureNames])(
    'serves %s by `mock:` model with its exact final state',
    async (name) => {
      const state = await streamMessage(ask('anything', `mock:${name}`), {
        endpoint: ENDPOINT,
        retry: false,
      });
      expect(seen.at(-1)?.fixture).toBe(name);
      expect(state).toEqual(await accumulate(fixtureFile(name)));
    },
    // large-tool-input streams 1 MB through MSW's interceptor: seconds on a busy machine.
    30_000,
  );

  it('selects by header first, then ?scenario=, then the model', async () => {
    await streamMessage(ask('hi', 'mock:gateway-text'), {
      endpoint: `${ENDPOINT}?scenario=refusal`,
      headers: { 'x-mock-scenario': 'spec-thinking' },
    });
    await streamMessage(ask('hi', 'mock:gateway-text'), {
      endpoint: `${ENDPOINT}?scenario=refusal`,
    });
    await streamMessage(ask('hi', 'mock:gateway-text'), { endpoint: ENDPOINT });
    expect(seen.map((info) => info.fixture)).toEqual(['spec-thinking', 'refusal', 'gateway-text']);
  });

  it('without a scenario: a last message naming a fixture, a fixture request, else text-pings', async () => {
    await streamMessage(ask('spec-tool-use'), { endpoint: ENDPOINT });
    await streamMessage(ask('/max-tokens'), { endpoint: ENDPOINT });
    await streamMessage(fixtureRequest('spec-web-search'), { endpoint: ENDPOINT });
    await streamMessage(ask('Hello'), { endpoint: ENDPOINT });
    await streamMessage(ask('Tell me a joke'), { endpoint: ENDPOINT });
    expect(seen.map((info) => info.fixture)).toEqual([
      'spec-tool-use',
      'max-tokens',
      'spec-web-search',
      'spec-basic-text',
      'text-pings',
    ]);
    expect(
      fixtureForMessages([{ role: 'user', content: [{ type: 'text', text: 'refusal' }] }]),
    ).toBe('refusal');
  });

  it('answers an unknown fixture or a bad scenario with a 400 that says why', async () => {
    const unknown = await streamMessage(ask('x', 'mock:nope'), {
      endpoint: ENDPOINT,
      retry: false,
    });
    expect(unknown.status).toBe('error');
    expect(unknown.error).toMatchObject({ type: 'invalid_request_error', status: 400 });
    expect(unknown.error?.message).toMatch(/Unknown mock fixture "nope"\. Known: spec-basic-text/);
    const bad = await streamMessage(ask('x'), {
      endpoint: ENDPOINT,
      headers: { 'x-mock-scenario': 'text-pings;fault=explode' },
      retry: false,
    });
    expect(bad.error?.message).toMatch(/Invalid mock scenario .*Unknown fault "explode"/);
    const notJson = await fetch(ENDPOINT, { method: 'POST', body: '{oops' });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.type).toBe('invalid_request_error');
  });

  it('answers a request without stream: true with the final message as JSON', async () => {
    const response = await fetch(ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ask('x', 'mock:spec-tool-use')),
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(
      toMessage(await accumulate(fixtureFile('spec-tool-use'))),
    );
  });

  it('serves extra fixtures given by name (a recording, say)', async () => {
    server.use(
      ...createMockHandlers({
        fixtures: { 'my-bug': fixtureFile('refusal'), lazy: async () => fixtureFile('max-tokens') },
      }),
    );
    const state = await streamMessage(ask('my-bug'), { endpoint: ENDPOINT });
    expect(state).toEqual(await accumulate(fixtureFile('refusal')));
    const lazy = await streamMessage(ask('x', 'mock:lazy'), { endpoint: ENDPOINT });
    expect(lazy).toEqual(await accumulate(fixtureFile('max-tokens')));
  });

  it('applies a default scenario to requests that carry none', async () => {
    server.use(
      ...createMockHandlers({
        scenario: 'refusal;fault=drop-after-events:3',
        onRequest: (info) => seen.push(info),
      }),
    );
    const state = await streamMessage(ask('x'), { endpoint: ENDPOINT, retry: false });
    expect(state.status).toBe('interrupted');
    expect(state.message).toEqual(
      (await accumulate(firstEvents(fixtureFile('refusal'), 3))).message,
    );
    // A request's own scenario overrides the default's fixture; the default fault still applies.
    const own = await streamMessage(ask('x', 'mock:spec-basic-text'), {
      endpoint: ENDPOINT,
      retry: false,
    });
    expect(own.status).toBe('interrupted');
    expect(seen.map((info) => info.fixture)).toEqual(['refusal', 'spec-basic-text']);
  });
});

describe('createMockHandlers: stream faults through streamMessage', () => {
  const pings = fixtureFile('text-pings');

  it('drop-after-events ends interrupted with the prefix kept', async () => {
    const state = await streamMessage(ask('x'), {
      endpoint: ENDPOINT,
      headers: { 'x-mock-scenario': 'text-pings;fault=drop-after-events:9;chunking=random;seed=4' },
    });
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('network_error');
    expect(state.message).toEqual((await accumulate(firstEvents(pings, 9))).message);
  });

  it('close-after-bytes mid-character ends interrupted (stream_interrupted)', async () => {
    const cut = new TextEncoder().encode(bodyOf(pings)).length - 400;
    const state = await streamMessage(ask('x'), {
      endpoint: ENDPOINT,
      headers: { 'x-mock-scenario': `text-pings;fault=close-after-bytes:${cut}` },
    });
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('stream_interrupted');
    expect(state.message?.content[0]?.status).toBe('incomplete');
  });

  it('error-after-events ends in status error with the API error and request id', async () => {
    const state = await streamMessage(ask('x'), {
      endpoint: ENDPOINT,
      headers: { 'x-mock-scenario': 'text-pings;fault=error-after-events:6:api_error' },
    });
    expect(state.status).toBe('error');
    expect(state.error).toMatchObject({ type: 'api_error', message: 'Internal server error' });
    expect(state.error?.requestId).toMatch(/^req_011CMock/);
    expect(state.message?.content).toHaveLength(1);
  });

  it('a stall longer than the idle timeout ends the client interrupted (idle_timeout)', async () => {
    const started = Date.now();
    const state = await streamMessage(ask('x'), {
      endpoint: ENDPOINT,
      headers: { 'x-mock-scenario': 'text-pings;fault=stall-after-events:6:20000' },
      idleTimeoutMs: 500,
    });
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('idle_timeout');
    expect(state.message).toEqual((await accumulate(firstEvents(pings, 6))).message);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('paces by the speed option (first byte delay)', async () => {
    server.use(...createMockHandlers({ speed: { firstByteDelayMs: 120 } }));
    const started = Date.now();
    let first = 0;
    const state = await streamMessage(ask('x'), {
      endpoint: ENDPOINT,
      onEvent: () => {
        first ||= Date.now() - started;
      },
    });
    expect(state.status).toBe('complete');
    expect(first).toBeGreaterThanOrEqual(110);
  });
});

describe('createMockFetch', () => {
  it('serves the same scenarios with no MSW and no network', async () => {
    const fetch = createMockFetch();
    const state = await streamMessage(ask('x', 'mock:spec-thinking'), {
      fetch,
      endpoint: '/v1/messages',
    });
    expect(state).toEqual(await accumulate(fixtureFile('spec-thinking')));
    const failed = await streamMessage(ask('x'), {
      fetch,
      headers: { 'x-mock-scenario': ';fault=network-error' },
      retry: false,
    });
    expect(failed.error?.type).toBe('network_error');
  });

  it('accepts a Request as input, like fetch', async () => {
    const response = await createMockFetch()(
      new Request('http://anywhere.test/v1/messages', {
        method: 'POST',
        body: JSON.stringify({ ...ask('x', 'mock:refusal'), stream: true }),
      }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-mock-fixture')).toBe('refusal');
    expect(await accumulate(response.body as ReadableStream<Uint8Array>)).toEqual(
      await accumulate(fixtureFile('refusal')),
    );
  });

  it('reads a body of any kind: a string as it is, bytes and blobs as a server reads them', async () => {
    const fetch = createMockFetch();
    const json = JSON.stringify({ ...ask('x', 'mock:refusal'), stream: true });
    const bodies: BodyInit[] = [json, new TextEncoder().encode(json), new Blob([json])];
    for (const body of bodies) {
      const response = await fetch('/v1/messages', { method: 'POST', body });
      expect(response.headers.get('x-mock-fixture')).toBe('refusal');
      expect(await accumulate(response.body as ReadableStream<Uint8Array>)).toEqual(
        await accumulate(fixtureFile('refusal')),
      );
    }
    const broken = await fetch('/v1/messages', { method: 'POST', body: '{"messages": [' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    // As fetch: a GET cannot carry a body.
    await expect(fetch('/v1/messages', { method: 'GET', body: json })).rejects.toThrow(TypeError);
  });

  it('stops the replay when the caller aborts', async () => {
    const fetch = createMockFetch({ speed: { tokensPerSecond: 5 } });
    const controller = new AbortController();
    const pending = streamMessage(ask('x'), {
      fetch,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'content_block_delta') controller.abort();
      },
    });
    const state = await pending;
    expect(state.status).toBe('aborted');
    expect(state.message?.content[0]?.block).toMatchObject({ type: 'text', text: 'Both' });
  });
});
