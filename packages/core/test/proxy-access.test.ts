/**
 * Who may spend the key (issue 14, "A proxy safe to expose"): cross-site pages are refused
 * unless listed, only JSON bodies are read, the app's `authorize` hook can refuse with 401
 * and its `rateLimit` hook with 429. Each is on by default or one option away.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer as createHttp2Server } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMessagesProxy, ProxyRejection, toNodeHandler } from '../src/proxy.js';
import {
  close,
  expectApiError,
  KEY,
  listen,
  post,
  recordingFetch,
  recordingServer,
  validBody,
  within,
} from './support/proxy-http.js';

/** `post` as a browser page on `origin` would send it. */
const fromPage = (origin: string | undefined, site: string | undefined) =>
  post(validBody(), {
    ...(origin === undefined ? {} : { origin }),
    ...(site === undefined ? {} : { 'sec-fetch-site': site }),
  });

/** The hosts these requests are sent to, as a deployment lists its own name. */
const LISTED_HOSTS = { allowedHosts: ['proxy.test'] };

describe('cross-site requests', () => {
  it.each<[string, string | undefined, string | undefined]>([
    ['another site (Sec-Fetch-Site: cross-site)', 'https://evil.example', 'cross-site'],
    ['a sibling subdomain (same-site)', 'https://other.proxy.test', 'same-site'],
    ['an old browser on another origin (Origin only)', 'https://evil.example', undefined],
    ['a sandboxed frame (Origin: null)', 'null', 'cross-site'],
    ['a cross-site fetch with no Origin', undefined, 'cross-site'],
  ])('refuses %s with 403 and sends nothing upstream', async (_, origin, site) => {
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch, ...LISTED_HOSTS })(
      fromPage(origin, site),
    );
    const json = await expectApiError(response, 403, 'permission_error');
    expect(json.error.message).toMatch(/cross-site/i);
    expect(up.calls).toHaveLength(0);
  });

  it.each<[string, string | undefined, string | undefined]>([
    ['a same-origin page (Sec-Fetch-Site)', 'http://proxy.test', 'same-origin'],
    ['a same-origin page behind a Host-rewriting proxy', 'https://app.example', 'same-origin'],
    ['an old browser on the same origin (Origin only)', 'http://proxy.test', undefined],
    ['a client that is not a browser (neither header)', undefined, undefined],
  ])('lets %s through', async (_, origin, site) => {
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch, ...LISTED_HOSTS })(
      fromPage(origin, site),
    );
    expect(response.status).toBe(200);
    expect(up.calls).toHaveLength(1);
  });

  it('lets a listed origin through, compared as an origin (case, default port, path)', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      ...LISTED_HOSTS,
      allowedOrigins: ['HTTPS://App.Example:443/'],
    });
    expect((await handler(fromPage('https://app.example', 'cross-site'))).status).toBe(200);
    expect((await handler(fromPage('https://app.example:8443', 'cross-site'))).status).toBe(403);
    expect((await handler(fromPage('http://app.example', 'cross-site'))).status).toBe(403);
    expect(up.calls).toHaveLength(1);
  });

  it('takes a predicate for allowedOrigins', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      ...LISTED_HOSTS,
      allowedOrigins: (origin) => origin.endsWith('.partner.example'),
    });
    expect((await handler(fromPage('https://a.partner.example', 'cross-site'))).status).toBe(200);
    expect((await handler(fromPage('https://partner.example.evil', 'cross-site'))).status).toBe(
      403,
    );
  });
});

describe('the host a page reached the proxy under (DNS rebinding)', () => {
  /** A page on `pageOrigin` posting to its own origin, as a browser sends it (Host included). */
  const samePage = (pageOrigin: string) =>
    new Request(`${pageOrigin}/api/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        host: new URL(pageOrigin).host,
        origin: pageOrigin,
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify(validBody()),
    });

  it('refuses a same-origin page on a name nobody listed, and sends nothing upstream', async () => {
    // evil.example first resolved to the attacker's server, then to this machine: the
    // browser calls that same-origin.
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
      samePage('http://evil.example:3000'),
    );
    const json = await expectApiError(response, 403, 'permission_error');
    expect(json.error.message).toContain('"evil.example"');
    expect(json.error.message).toContain('allowedHosts');
    expect(up.calls).toHaveLength(0);
  });

  it.each([
    'http://localhost:3000',
    'http://app.localhost:5173',
    'http://127.0.0.1:8787',
    'http://[::1]:3000',
    'http://192.168.1.20',
  ])('lets a page on %s through by default (no DNS answer can name it)', async (origin) => {
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(samePage(origin));
    expect(response.status).toBe(200);
    expect(up.calls).toHaveLength(1);
  });

  it('matches listed names without case or port, and a leading dot as the domain and below', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      allowedHosts: ['App.Example.com', '.corp.example'],
    });
    const status = async (origin: string) => (await handler(samePage(origin))).status;
    expect(await status('https://app.example.com')).toBe(200);
    expect(await status('https://APP.example.com:8443')).toBe(200);
    expect(await status('https://corp.example')).toBe(200);
    expect(await status('https://chat.eu.corp.example')).toBe(200);
    expect(await status('https://other.example.com')).toBe(403);
    expect(await status('https://evilcorp.example')).toBe(403);
    expect(await status('https://app.example.com.evil.example')).toBe(403);
    expect(up.calls).toHaveLength(4);
  });

  it('takes a predicate, or true for any host', async () => {
    const up = recordingFetch();
    const byPredicate = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      allowedHosts: (host) => host === 'chat.example',
    });
    expect((await byPredicate(samePage('https://chat.example'))).status).toBe(200);
    expect((await byPredicate(samePage('https://chat.example.evil'))).status).toBe(403);
    const any = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, allowedHosts: true });
    expect((await any(samePage('https://anything.example'))).status).toBe(200);
    expect(up.calls).toHaveLength(2);
  });

  it('judges the Host header, not a URL a runtime built from something else', async () => {
    const up = recordingFetch();
    const request = samePage('http://localhost:3000');
    request.headers.set('host', 'evil.example:3000');
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(request);
    await expectApiError(response, 403, 'permission_error');
    expect(up.calls).toHaveLength(0);
  });

  it('refuses a page whose request names no Host (every browser sends one)', async () => {
    const up = recordingFetch();
    const request = samePage('http://localhost:3000');
    request.headers.delete('host');
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(request);
    await expectApiError(response, 403, 'permission_error');
    expect(up.calls).toHaveLength(0);
  });

  it('reads a trailing dot, upper case and an international name as the same host', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      allowedHosts: ['Chat.Example.com.', 'bücher.example'],
    });
    const status = async (host: string) => {
      const request = samePage('https://chat.example.com');
      request.headers.set('host', host);
      return (await handler(request)).status;
    };
    expect(await status('chat.example.com.')).toBe(200);
    expect(await status('CHAT.EXAMPLE.COM:443')).toBe(200);
    expect(await status('xn--bcher-kva.example')).toBe(200);
    expect(await status('localhost.:3000')).toBe(200);
    expect(await status('chat.example.com.evil')).toBe(403);
  });

  it.each([
    'https://app.example.com',
    'app.example.com:3000',
    '*.example.com',
    'app.example.com/chat',
    '',
  ])('refuses %j as an allowedHosts entry at creation', (entry) => {
    expect(() => createMessagesProxy({ apiKey: KEY, allowedHosts: [entry] })).toThrow(
      /allowedHosts entry/,
    );
  });

  it("over HTTP/2 (node:http2's compatibility API), reads the host from :authority", async () => {
    const up = recordingFetch();
    const handler = toNodeHandler(
      createMessagesProxy({ apiKey: KEY, fetch: up.fetch, allowedHosts: ['chat.example'] }),
    );
    const server = createHttp2Server(handler as unknown as Parameters<typeof createHttp2Server>[0]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = connect(`http://127.0.0.1:${port}`);
    const statusFor = (authority: string) =>
      within(
        new Promise<number>((resolve, reject) => {
          const stream = client.request({
            ':method': 'POST',
            ':path': '/v1/messages',
            ':authority': authority,
            origin: `http://${authority}`,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
          });
          stream.on('response', (headers) => {
            resolve(Number(headers[':status']));
            stream.resume();
          });
          stream.on('error', reject);
          stream.end(JSON.stringify(validBody()));
        }),
        3000,
        'the HTTP/2 response',
      );
    try {
      expect(await statusFor('chat.example')).toBe(200);
      expect(await statusFor('rebound.evil.example')).toBe(403);
      expect(up.calls).toHaveLength(1);
    } finally {
      client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('does not check a client without a browser (no Origin, no Sec-Fetch-Site)', async () => {
    const up = recordingFetch();
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
      post(validBody(), { host: 'internal-service.example' }),
    );
    expect(response.status).toBe(200);
    expect(up.calls).toHaveLength(1);
  });
});

describe('only application/json bodies', () => {
  it.each([
    ['text/plain (a form-free cross-site "simple" request)', 'text/plain;charset=UTF-8'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart/form-data', 'multipart/form-data; boundary=x'],
    ['a JSON look-alike', 'application/json-patch+json'],
    ['none', undefined],
  ])('answers %s with 415, even for a valid JSON body', async (_, type) => {
    const up = recordingFetch();
    const request = new Request('http://proxy.test/v1/messages', {
      method: 'POST',
      headers: type === undefined ? {} : { 'content-type': type },
      body: JSON.stringify(validBody()),
    });
    if (type === undefined) request.headers.delete('content-type');
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(request);
    await expectApiError(response, 415, 'invalid_request_error');
    expect(up.calls).toHaveLength(0);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'accepts %s',
    async (type) => {
      const up = recordingFetch();
      const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
        post(validBody(), { 'content-type': type }),
      );
      expect(response.status).toBe(200);
    },
  );
});

describe('authorize', () => {
  it('refuses with 401 authentication_error when it returns false, before reading the body', async () => {
    const up = recordingFetch();
    const authorize = vi.fn((request: Request) => {
      expect(request.bodyUsed).toBe(false);
      return request.headers.get('authorization') === 'Bearer good';
    });
    const handler = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, authorize });
    const refused = await handler(post(validBody(), { authorization: 'Bearer bad' }));
    await expectApiError(refused, 401, 'authentication_error');
    expect(up.calls).toHaveLength(0);

    const allowed = await handler(post(validBody(), { authorization: 'Bearer good' }));
    expect(allowed.status).toBe(200);
    expect(up.calls).toHaveLength(1);
    // The client's credentials are the app's business: they are never sent upstream.
    expect(up.calls[0]?.headers.has('authorization')).toBe(false);
    expect(authorize).toHaveBeenCalledTimes(2);
  });

  it('awaits an async check and refuses anything but true', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      authorize: async () => 'yes' as unknown as boolean,
    });
    await expectApiError(await handler(post(validBody())), 401, 'authentication_error');
    expect(up.calls).toHaveLength(0);
  });

  it('answers a thrown ProxyRejection with its own status, and any other throw with a bare 500', async () => {
    const up = recordingFetch();
    const rejecting = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      authorize: () => {
        throw new ProxyRejection(403, 'permission_error', 'Your plan has no chat.');
      },
    });
    const json = await expectApiError(await rejecting(post(validBody())), 403, 'permission_error');
    expect(json.error.message).toBe('Your plan has no chat.');

    const failing = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      authorize: () => {
        throw new Error(`session store down, key ${KEY}`);
      },
    });
    const failed = await failing(post(validBody()));
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain(KEY);
    expect(up.calls).toHaveLength(0);
  });

  it('is not asked about cross-site requests (refused first)', async () => {
    const authorize = vi.fn(() => true);
    const up = recordingFetch();
    const handler = createMessagesProxy({ apiKey: KEY, fetch: up.fetch, authorize });
    expect((await handler(fromPage('https://evil.example', 'cross-site'))).status).toBe(403);
    expect(authorize).not.toHaveBeenCalled();
  });
});

describe('rateLimit', () => {
  it('answers a refusal with 429 rate_limit_error and retry-after headers the kit honours', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      rateLimit: () => ({ allowed: false, retryAfterMs: 1500 }),
    });
    const response = await handler(post(validBody()));
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('retry-after-ms')).toBe('1500');
    await expectApiError(response, 429, 'rate_limit_error');
    expect(up.calls).toHaveLength(0);
  });

  it('runs after authorize, so unauthorized calls cost no tokens', async () => {
    const rateLimit = vi.fn(() => ({ allowed: true }));
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      authorize: (request) => request.headers.has('x-user'),
      rateLimit,
    });
    expect((await handler(post(validBody()))).status).toBe(401);
    expect(rateLimit).not.toHaveBeenCalled();
    expect((await handler(post(validBody(), { 'x-user': 'u1' }))).status).toBe(200);
    expect(rateLimit).toHaveBeenCalledTimes(1);
  });

  it('refuses when the hook answers nothing usable', async () => {
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      rateLimit: () => undefined as unknown as { allowed: boolean },
    });
    const response = await handler(post(validBody()));
    expect(response.headers.has('retry-after')).toBe(false);
    await expectApiError(response, 429, 'rate_limit_error');
  });
});

describe('access checks over real sockets', () => {
  let upstream: Awaited<ReturnType<typeof recordingServer>>;
  let proxy: Server;
  let proxyURL = '';

  beforeAll(async () => {
    upstream = await recordingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    });
    proxy = createServer(
      toNodeHandler(
        createMessagesProxy({
          apiKey: KEY,
          baseURL: upstream.url,
          authorize: (request) => request.headers.get('cookie') === 'session=ok',
        }),
      ),
    );
    proxyURL = await listen(proxy);
  });
  afterAll(async () => {
    await Promise.all([close(proxy), upstream.close()]);
  });

  const send = (headers: Record<string, string>) =>
    within(
      fetch(`${proxyURL}/v1/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify(validBody()),
      }),
      3000,
      'the response',
    );

  /**
   * A POST to the proxy's port with exactly `path` and `headers` (node:http sends the Host and
   * the request target as given, which fetch would not).
   */
  const rawPost = (path: string, headers: (port: string) => Record<string, string>) => {
    const { port } = new URL(proxyURL);
    return within(
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path, method: 'POST', headers: headers(port) },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(validBody()));
      }),
      3000,
      'the response',
    );
  };

  it('refuses what a cross-site page can send without a preflight, and forwards nothing', async () => {
    const response = await send({
      'content-type': 'text/plain;charset=UTF-8',
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      cookie: 'session=ok',
    });
    await expectApiError(response, 403, 'permission_error');
    const textPlain = await send({ 'content-type': 'text/plain', cookie: 'session=ok' });
    await expectApiError(textPlain, 415, 'invalid_request_error');
    expect(upstream.seen).toEqual([]);
  });

  it('takes the request origin from the Host the node request came with', async () => {
    const response = await send({
      'content-type': 'application/json',
      origin: proxyURL,
      cookie: 'session=ok',
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]?.headers.cookie).toBeUndefined();
  });

  it("refuses a same-origin page whose Host is the attacker's name, over a real socket", async () => {
    const before = upstream.seen.length;
    const answer = await rawPost('/v1/messages', (port) => ({
      host: `rebound.evil.example:${port}`,
      origin: `http://rebound.evil.example:${port}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
      cookie: 'session=ok',
    }));
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.type).toBe('permission_error');
    expect(upstream.seen).toHaveLength(before);
  });

  // An attack review: the node adapter resolved the request target against the Host, so a
  // target of `//evil.example/v1/messages` made the request's URL (and the origin the check
  // compares with) evil.example's, and a cross-site page's POST spent the key.
  it.each(['//evil.example/v1/messages', 'http://evil.example/v1/messages'])(
    'refuses a cross-site page whose request target (%s) names another origin',
    async (path) => {
      const before = upstream.seen.length;
      const answer = await rawPost(path, (port) => ({
        host: `127.0.0.1:${port}`,
        origin: 'http://evil.example',
        'content-type': 'application/json',
        cookie: 'session=ok',
      }));
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error.type).toBe('permission_error');
      expect(upstream.seen).toHaveLength(before);
    },
  );

  it('answers 401 without the session', async () => {
    const before = upstream.seen.length;
    const response = await send({ 'content-type': 'application/json', origin: proxyURL });
    await expectApiError(response, 401, 'authentication_error');
    expect(upstream.seen).toHaveLength(before);
  });
});
