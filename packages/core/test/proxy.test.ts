import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRequest } from '../src/protocol.js';
import { createMessagesProxy, ProxyRejection, toNodeHandler } from '../src/proxy.js';
import {
  close,
  expectApiError,
  KEY,
  listen,
  post,
  recordingFetch,
  recordingServer,
  type SeenRequest,
  validBody,
  visibleText,
  within,
} from './support/proxy-http.js';

describe('createMessagesProxy: upstream request', () => {
  it('POSTs to <baseURL>/v1/messages with its own key, the default version and JSON, dropping the client credentials', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      baseURL: 'http://upstream.test/',
      fetch: up.fetch,
    });
    const response = await handler(
      post(validBody(), {
        'x-api-key': 'sk-client-own',
        authorization: 'Bearer client-token',
        'anthropic-version': '1999-01-01',
        cookie: 'session=abc',
      }),
    );
    expect(response.status).toBe(200);
    expect(up.calls).toHaveLength(1);
    const [call] = up.calls;
    expect(call?.url).toBe('http://upstream.test/v1/messages');
    expect(call?.method).toBe('POST');
    expect(call?.headers.get('x-api-key')).toBe(KEY);
    expect(call?.headers.get('anthropic-version')).toBe('2023-06-01');
    expect(call?.headers.get('content-type')).toBe('application/json');
    expect(call?.headers.has('authorization')).toBe(false);
    expect(call?.headers.has('cookie')).toBe(false);
    expect(call?.body).toEqual(validBody());
  });

  it('defaults baseURL to https://api.anthropic.com and honours anthropicVersion', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      anthropicVersion: '2099-12-31',
      fetch: up.fetch,
    });
    await handler(post(validBody()));
    expect(up.calls[0]?.url).toBe('https://api.anthropic.com/v1/messages');
    expect(up.calls[0]?.headers.get('anthropic-version')).toBe('2099-12-31');
  });

  it('adds options.headers but keeps x-api-key, anthropic-version and content-type its own', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      headers: {
        'anthropic-beta': 'feature-a',
        'x-custom': 'yes',
        'X-Api-Key': 'sk-from-headers-option',
        'Content-Type': 'text/plain',
      },
    });
    await handler(post(validBody(), { 'anthropic-beta': 'client-feature' }));
    const headers = up.calls[0]?.headers;
    expect(headers?.get('anthropic-beta')).toBe('feature-a');
    expect(headers?.get('x-custom')).toBe('yes');
    expect(headers?.get('x-api-key')).toBe(KEY);
    expect(headers?.get('content-type')).toBe('application/json');
  });

  it('forwards the client anthropic-beta only with forwardBetaHeader, combined with the configured one', async () => {
    const up = recordingFetch();
    await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
      post(validBody(), { 'anthropic-beta': 'client-feature' }),
    );
    expect(up.calls[0]?.headers.has('anthropic-beta')).toBe(false);

    await createMessagesProxy({ apiKey: KEY, fetch: up.fetch, forwardBetaHeader: true })(
      post(validBody(), { 'anthropic-beta': 'client-feature' }),
    );
    expect(up.calls[1]?.headers.get('anthropic-beta')).toBe('client-feature');

    await createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      forwardBetaHeader: true,
      headers: { 'anthropic-beta': 'server-feature' },
    })(post(validBody(), { 'anthropic-beta': 'client-feature' }));
    expect(up.calls[2]?.headers.get('anthropic-beta')).toBe('client-feature, server-feature');
  });

  it('caps max_tokens to options.maxTokens and leaves smaller values and other fields alone', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, maxTokens: 1024 });
    await handler(post(validBody({ max_tokens: 64000, system: 'Be brief.', temperature: 0.2 })));
    await handler(post(validBody({ max_tokens: 100 })));
    expect(up.calls[0]?.body).toEqual(
      validBody({ max_tokens: 1024, system: 'Be brief.', temperature: 0.2 }),
    );
    expect(up.calls[1]?.body.max_tokens).toBe(100);
  });

  // An attack review: a cap below the thinking budget sent upstream a request the API refuses.
  it('lowers a thinking budget with max_tokens, and refuses thinking under a cap too small for it', async () => {
    const up = recordingFetch();
    const thinking = (budget: number) => ({ type: 'enabled', budget_tokens: budget });
    const capped = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, maxTokens: 4000 });
    await capped(post(validBody({ max_tokens: 8000, thinking: thinking(6000) })));
    await capped(post(validBody({ max_tokens: 8000, thinking: thinking(2000) })));
    expect(up.calls[0]?.body).toMatchObject({ max_tokens: 4000, thinking: thinking(3999) });
    expect(up.calls[1]?.body).toMatchObject({ max_tokens: 4000, thinking: thinking(2000) });
    const tiny = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, maxTokens: 1024 });
    const refused = await tiny(post(validBody({ max_tokens: 8000, thinking: thinking(4000) })));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({
      type: 'invalid_request_error',
      message: 'thinking needs max_tokens above 1024; this proxy allows at most 1024.',
    });
    expect(up.calls).toHaveLength(2);
  });

  it('passes the client request signal to the upstream fetch', async () => {
    const up = recordingFetch();
    const client = new AbortController();
    const request = post(validBody(), {}, client.signal);
    await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(request);
    const signal = up.calls[0]?.signal;
    expect(signal?.aborted).toBe(false);
    client.abort();
    expect(signal?.aborted).toBe(true);
  });
});

describe('createMessagesProxy: what it refuses', () => {
  it.each([
    ['a list', ['claude-haiku-4-5'] as const],
    ['a predicate', (model: string) => model.startsWith('claude-haiku-')],
  ])(
    'allowedModels as %s: other models get 403 permission_error and nothing is sent upstream',
    async (_, allowedModels) => {
      const up = recordingFetch();
      const handler = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, allowedModels });
      const denied = await handler(post(validBody({ model: 'claude-opus-4-1' })));
      const json = await expectApiError(denied, 403, 'permission_error');
      expect(json.error.message).toContain('claude-opus-4-1');
      expect(up.calls).toHaveLength(0);

      const allowed = await handler(post(validBody({ model: 'claude-haiku-4-5' })));
      expect(allowed.status).toBe(200);
      expect(up.calls).toHaveLength(1);
    },
  );

  it.each([
    ['invalid JSON', '{"model": "claude-haiku-4-5", '],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a missing model', JSON.stringify({ max_tokens: 10, messages: [] })],
    ['a numeric model', JSON.stringify(validBody({ model: 42 }))],
    ['missing messages', JSON.stringify({ model: 'm', max_tokens: 10 })],
    ['messages not an array', JSON.stringify(validBody({ messages: 'hi' }))],
    ['a missing max_tokens', JSON.stringify({ model: 'm', messages: [] })],
    ['a string max_tokens', JSON.stringify(validBody({ max_tokens: '256' }))],
  ])('answers %s with 400 invalid_request_error and sends nothing upstream', async (_, body) => {
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(body));
    await expectApiError(response, 400, 'invalid_request_error');
    expect(up.calls).toHaveLength(0);
  });

  it('answers a body that fails to read with 400, not a throw', async () => {
    const up = recordingFetch();
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new Error('socket hang up'));
      },
    });
    const request = new Request('http://proxy.test/api/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: broken,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(request);
    await expectApiError(response, 400, 'invalid_request_error');
    expect(up.calls).toHaveLength(0);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405 and allow: POST', async (method) => {
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
      new Request('http://proxy.test/api/messages', {
        method,
        body: method === 'GET' ? undefined : '{}',
      }),
    );
    expect(response.headers.get('allow')).toBe('POST');
    await expectApiError(response, 405, 'invalid_request_error');
    expect(up.calls).toHaveLength(0);
  });

  it('throws at creation without an apiKey', () => {
    expect(() => createMessagesProxy({ apiKey: '' })).toThrow(TypeError);
  });
});

describe('createMessagesProxy: transformRequest', () => {
  it('sees the validated, capped body and the request; what it returns is sent', async () => {
    const up = recordingFetch();
    const seen: { body?: MessageRequest; userHeader?: string | null } = {};
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      maxTokens: 500,
      transformRequest: async (body, request) => {
        seen.body = body;
        seen.userHeader = request.headers.get('x-user');
        return {
          ...body,
          system: 'You are the support bot.',
          metadata: { user_id: request.headers.get('x-user') ?? 'anon' },
        };
      },
    });
    const response = await handler(post(validBody({ max_tokens: 9000 }), { 'x-user': 'u-42' }));
    expect(response.status).toBe(200);
    expect(seen.body?.max_tokens).toBe(500);
    expect(seen.userHeader).toBe('u-42');
    expect(up.calls[0]?.body).toEqual(
      validBody({
        max_tokens: 500,
        system: 'You are the support bot.',
        metadata: { user_id: 'u-42' },
      }),
    );
  });

  it('maps a thrown ProxyRejection to its status, type and message, sending nothing upstream', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      transformRequest: () => {
        throw new ProxyRejection(429, 'rate_limit_error', 'You have used your daily quota.');
      },
    });
    const response = await handler(post(validBody()));
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'You have used your daily quota.' },
    });
    expect(up.calls).toHaveLength(0);
  });

  it('maps any other throw to 500 api_error without its message', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      transformRequest: () => {
        throw new Error('database password is hunter2');
      },
    });
    const response = await handler(post(validBody()));
    const json = await expectApiError(response, 500, 'api_error');
    expect(json.error.message).not.toContain('hunter2');
    expect(up.calls).toHaveLength(0);
  });
});

describe('createMessagesProxy: the upstream response', () => {
  it('streams an event stream through untouched, chunk by chunk, with no-buffering headers', async () => {
    const encoder = new TextEncoder();
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = controller;
      },
    });
    const up = recordingFetch(
      () =>
        new Response(body, {
          headers: {
            'content-type': 'text/event-stream',
            'request-id': 'req_123',
            'x-upstream-internal': 'secret-routing',
            'content-length': '999',
          },
        }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('request-id')).toBe('req_123');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.has('x-upstream-internal')).toBe(false);
    expect(response.headers.has('content-length')).toBe(false);

    // The first chunk is readable while the upstream stream is still open.
    const reader = response.body?.getReader();
    const first = encoder.encode('event: ping\ndata: {"type":"ping"}\n\n');
    push.enqueue(first);
    expect((await reader?.read())?.value).toEqual(first);
    const second = encoder.encode('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    push.enqueue(second);
    push.close();
    expect((await reader?.read())?.value).toEqual(second);
    expect((await reader?.read())?.done).toBe(true);
  });

  it('passes a 401 in the gateway shape through with its status, body and headers', async () => {
    const gatewayBody =
      '{"message":"API key has been revoked or does not exist.","error":"token_revoked"}';
    const up = recordingFetch(
      () =>
        new Response(gatewayBody, {
          status: 401,
          headers: { 'content-type': 'application/json', 'request-id': 'req_gw' },
        }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('request-id')).toBe('req_gw');
    expect(await response.text()).toBe(gatewayBody);
  });

  it('passes a 429 through with retry-after, rate-limit and x-should-retry headers, and nothing else', async () => {
    const apiBody =
      '{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit."}}';
    const up = recordingFetch(
      () =>
        new Response(apiBody, {
          status: 429,
          headers: {
            'content-type': 'application/json',
            'retry-after': '7',
            'retry-after-ms': '6500',
            'x-should-retry': 'true',
            'anthropic-ratelimit-requests-limit': '50',
            'anthropic-ratelimit-requests-remaining': '0',
            'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:07Z',
            'set-cookie': 'upstream=1',
            server: 'upstream-edge',
          },
        }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(response.status).toBe(429);
    expect(await response.text()).toBe(apiBody);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'application/json',
      'retry-after': '7',
      'retry-after-ms': '6500',
      'x-should-retry': 'true',
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:07Z',
    });
  });

  it('passes a 529 in the API shape through with its status and body', async () => {
    const apiBody = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    const up = recordingFetch(
      () =>
        new Response(apiBody, {
          status: 529,
          headers: { 'content-type': 'application/json', 'x-should-retry': 'true' },
        }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(response.status).toBe(529);
    expect(response.headers.get('x-should-retry')).toBe('true');
    expect(await response.text()).toBe(apiBody);
  });

  it('answers an unreachable upstream with 502 api_error', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const response = await createMessagesProxy({ apiKey: KEY, fetch: failing })(post(validBody()));
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'The upstream Messages API could not be reached.' },
    });
  });

  it('just ends (no 502) when the client aborted the upstream call', async () => {
    const client = new AbortController();
    let called!: () => void;
    const fetchCalled = new Promise<void>((resolve) => {
      called = resolve;
    });
    // Like fetch: never answers, rejects with the signal's reason once aborted.
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        called();
      })) as typeof fetch;
    const pending = createMessagesProxy({ apiKey: KEY, fetch: hanging })(
      post(validBody(), {}, client.signal),
    );
    await fetchCalled;
    client.abort();
    const response = await pending;
    expect(response.status).not.toBe(502);
    expect(await response.text()).toBe('');
  });
});

describe('createMessagesProxy: the key never leaks', () => {
  it.each<[string, Parameters<typeof createMessagesProxy>[0], () => Request]>([
    ['success', { apiKey: KEY }, () => post(validBody())],
    ['405', { apiKey: KEY }, () => new Request('http://proxy.test/', { method: 'GET' })],
    ['400', { apiKey: KEY }, () => post('not json')],
    ['403', { apiKey: KEY, allowedModels: [] }, () => post(validBody())],
    [
      'a transform that throws with the key in its message',
      {
        apiKey: KEY,
        transformRequest: () => {
          throw new Error(`upstream key is ${KEY}`);
        },
      },
      () => post(validBody()),
    ],
    [
      'a predicate that throws with the key in its message',
      {
        apiKey: KEY,
        allowedModels: () => {
          throw new Error(`key=${KEY}`);
        },
      },
      () => post(validBody()),
    ],
    [
      'an upstream fetch that rejects with the key in its message',
      {
        apiKey: KEY,
        fetch: (async () => {
          throw new TypeError(`connect ECONNREFUSED with x-api-key ${KEY}`);
        }) as typeof fetch,
      },
      () => post(validBody()),
    ],
    [
      'a client that sends the key header itself',
      { apiKey: KEY },
      () => post(validBody(), { 'x-api-key': 'sk-client' }),
    ],
  ])('%s', async (_, options, request) => {
    const up = recordingFetch();
    const handler = createMessagesProxy({ fetch: up.fetch, ...options });
    const response = await handler(request());
    expect(await visibleText(response)).not.toContain(KEY);
  });
});

// ---------------------------------------------------------------------------------------
// Over real sockets: node:http upstream <- toNodeHandler proxy <- global fetch.
// ---------------------------------------------------------------------------------------

type UpstreamRoute = (req: IncomingMessage, res: ServerResponse) => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('toNodeHandler over real sockets', () => {
  let route: UpstreamRoute = (_req, res) => res.end();
  let upstream: Awaited<ReturnType<typeof recordingServer>>;
  let seen: SeenRequest[] = [];
  const proxy = createServer();
  let proxyURL = '';

  beforeAll(async () => {
    upstream = await recordingServer((req, res) => route(req, res));
    seen = upstream.seen;
    proxy.on(
      'request',
      toNodeHandler(createMessagesProxy({ baseURL: upstream.url, apiKey: 'sk-test' })),
    );
    proxyURL = await listen(proxy);
  });
  afterEach(() => {
    seen.length = 0;
    route = (_req, res) => res.end();
  });
  afterAll(async () => {
    await Promise.all([close(proxy), upstream.close()]);
  });

  const send = (init: RequestInit = {}) =>
    fetch(`${proxyURL}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-client' },
      body: JSON.stringify(validBody()),
      ...init,
    });

  it('streams the upstream SSE bytes exactly, the first chunk arriving before the upstream finished', async () => {
    // Split mid-line and inside a multi-byte character: any re-encoding would show.
    const full = Buffer.from(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1"}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,' +
        '"delta":{"type":"text_delta","text":"héllo 👋 wörld"}}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    const emoji = full.indexOf(Buffer.from('👋'));
    const cuts = [0, 40, emoji + 2, full.length];
    const upstreamChunks = cuts.slice(1).map((end, i) => full.subarray(cuts[i], end));
    expect(upstreamChunks).toHaveLength(3);

    const log: string[] = [];
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_sock' });
      void (async () => {
        for (const chunk of upstreamChunks) {
          res.write(chunk);
          log.push('upstream:write');
          await sleep(30);
        }
        res.end();
        log.push('upstream:end');
      })();
    };

    const response = await within(send(), 3000, 'response headers');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('request-id')).toBe('req_sock');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');

    const received: Uint8Array[] = [];
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    await within(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received.push(value);
          log.push('client:chunk');
        }
      })(),
      3000,
      'the whole body',
    );

    expect(Buffer.concat(received).equals(full)).toBe(true);
    expect(log.indexOf('client:chunk')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('client:chunk')).toBeLessThan(log.indexOf('upstream:end'));
    expect(seen[0]?.headers['x-api-key']).toBe('sk-test');
    expect(seen[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen[0]?.url).toBe('/v1/messages');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(validBody());
  });

  it('closes the upstream request when the client aborts mid-stream', async () => {
    let upstreamClosed!: (finished: boolean) => void;
    const closed = new Promise<boolean>((resolve) => {
      upstreamClosed = resolve;
    });
    route = (_req, res) => {
      res.on('close', () => upstreamClosed(res.writableFinished));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ping\ndata: {"type":"ping"}\n\n'); // ...and never ends
    };

    const client = new AbortController();
    const response = await within(send({ signal: client.signal }), 3000, 'response headers');
    const reader = response.body?.getReader();
    const first = await within(reader?.read() ?? Promise.reject(), 3000, 'the first chunk');
    expect(new TextDecoder().decode(first.value)).toContain('ping');
    client.abort();

    expect(await within(closed, 3000, 'the upstream to see the close')).toBe(false);
  });

  it('closes the upstream request when the client aborts before the upstream answered', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    let reached!: () => void;
    const upstreamReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    route = (_req, res) => {
      res.on('close', () => upstreamClosed());
      reached(); // ...and never answers
    };
    const client = new AbortController();
    const pending = send({ signal: client.signal });
    await within(upstreamReached, 3000, 'the upstream to be reached');
    client.abort();
    await expect(pending).rejects.toThrow();
    await within(closed, 3000, 'the upstream to see the close');
  });

  it('passes an upstream 429 through with its body and headers', async () => {
    const body = '{"type":"error","error":{"type":"rate_limit_error","message":"Slow down."}}';
    route = (_req, res) => {
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': '3',
        'anthropic-ratelimit-tokens-remaining': '0',
      });
      res.end(body);
    };
    const response = await within(send(), 3000, 'the response');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('anthropic-ratelimit-tokens-remaining')).toBe('0');
    expect(await response.text()).toBe(body);
  });

  it("answers the proxy's own errors (405, 400) without reaching the upstream", async () => {
    const get = await within(fetch(`${proxyURL}/api/messages`), 3000, 'the GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await get.json()).error.type).toBe('invalid_request_error');

    const bad = await within(send({ body: '{"model":' }), 3000, 'the bad POST');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/json');
    expect((await bad.json()).error.type).toBe('invalid_request_error');
    expect(seen).toHaveLength(0);
  });

  it('answers 502 when the upstream cannot be reached', async () => {
    const dead = createServer();
    const deadURL = await listen(dead);
    await close(dead);
    const server = createServer(
      toNodeHandler(createMessagesProxy({ baseURL: deadURL, apiKey: 'sk-test' })),
    );
    const url = await listen(server);
    try {
      const response = await within(
        fetch(`${url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(validBody()),
        }),
        3000,
        'the response',
      );
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(JSON.parse(text).error.type).toBe('api_error');
      expect(text).not.toContain('sk-test');
    } finally {
      await close(server);
    }
  });
});
