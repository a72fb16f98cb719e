/**
 * Issue 14, defects 3 and 4: the proxy followed upstream redirects (carrying the key, and
 * on 307/308 the body, to another origin) and read any request body whole, however large.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMessagesProxy, DEFAULT_MAX_REQUEST_BYTES, toNodeHandler } from '../src/proxy.js';
import {
  close,
  expectApiError,
  KEY,
  listen,
  post,
  postJson,
  recordingFetch,
  recordingServer,
  validBody,
  visibleText,
} from './support/proxy-http.js';

describe('defect 3: upstream redirects are never followed', () => {
  let thief: Awaited<ReturnType<typeof recordingServer>>;
  let upstream: Awaited<ReturnType<typeof recordingServer>>;
  let status = 307;
  let proxy: Server;
  let proxyURL = '';

  beforeAll(async () => {
    thief = await recordingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    });
    upstream = await recordingServer((_req, res) => {
      res.writeHead(status, { location: `${thief.url}/v1/messages`, 'content-type': 'text/plain' });
      res.end(`Moved to ${thief.url}`);
    });
    proxy = createServer(
      toNodeHandler(createMessagesProxy({ apiKey: KEY, baseURL: upstream.url })),
    );
    proxyURL = await listen(proxy);
  });
  afterEach(() => {
    thief.seen.length = 0;
    upstream.seen.length = 0;
  });
  afterAll(async () => {
    await Promise.all([close(proxy), thief.close(), upstream.close()]);
  });

  it.each([301, 302, 303, 307, 308])(
    'a %i from upstream is a 502 to the client and the other origin never sees the key',
    async (code) => {
      status = code;
      const response = await postJson(proxyURL);
      expect(upstream.seen).toHaveLength(1);
      expect(thief.seen).toEqual([]);
      expect(response.headers.has('location')).toBe(false);
      const json = await expectApiError(response, 502, 'api_error');
      expect(json.error.message).toMatch(/redirect/i);
    },
  );

  it("calls the upstream fetch with redirect: 'manual' and refuses what it returns for a 3xx", async () => {
    const up = recordingFetch(
      () => new Response(null, { status: 308, headers: { location: 'https://elsewhere.test/' } }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(up.calls[0]?.redirect).toBe('manual');
    await expectApiError(response, 502, 'api_error');
  });

  it('refuses an opaque redirect (what a browser-like fetch returns for redirect: manual)', async () => {
    const opaque = new Response(null, { status: 200 });
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
    Object.defineProperty(opaque, 'status', { value: 0 });
    const up = recordingFetch(() => opaque);
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    await expectApiError(response, 502, 'api_error');
  });
});

/** A request body of `total` bytes in `chunk`-byte pieces, made on demand, counting what was read. */
function countedBody(total: number, chunk: number) {
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) {
        controller.close();
        return;
      }
      const size = Math.min(chunk, total - counter.pulled);
      counter.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x20)); // spaces: valid JSON padding
    },
    cancel() {
      counter.cancelled = true;
    },
  });
  return { stream, counter };
}

function streamedPost(stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request('http://proxy.test/v1/messages', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: stream,
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
}

/** The Messages API's request limit, 32 MB. */
const API_LIMIT = 32 * 1024 * 1024;

describe('defect 4: a request-size limit', () => {
  it('defaults to the Messages API limit, 32 MiB', () => {
    expect(DEFAULT_MAX_REQUEST_BYTES).toBe(API_LIMIT);
  });

  it('answers a declared content-length over the default cap with 413 without reading the body', async () => {
    const up = recordingFetch();
    const { stream, counter } = countedBody(1024, 1024);
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
      streamedPost(stream, { 'content-length': String(API_LIMIT + 1) }),
    );
    await expectApiError(response, 413, 'request_too_large');
    expect(up.calls).toHaveLength(0);
    // At most the first chunk the stream produced on its own; nothing was read into memory.
    expect(counter.pulled).toBeLessThanOrEqual(1024);
  });

  it('stops reading a body that streams in past the default cap (no content-length), holding at most one chunk more', async () => {
    const up = recordingFetch();
    const chunk = 256 * 1024;
    const { stream, counter } = countedBody(API_LIMIT + 4 * chunk, chunk);
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(
      streamedPost(stream),
    );
    await expectApiError(response, 413, 'request_too_large');
    expect(up.calls).toHaveLength(0);
    expect(counter.cancelled).toBe(true);
    expect(counter.pulled).toBeLessThanOrEqual(API_LIMIT + 2 * chunk);
  });

  it('honours maxRequestBytes, accepting a body of exactly the cap', async () => {
    const up = recordingFetch();
    const json = JSON.stringify(validBody());
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      maxRequestBytes: json.length,
    });
    expect((await handler(post(json))).status).toBe(200);
    await expectApiError(await handler(post(`${json} `)), 413, 'request_too_large');
    expect(up.calls).toHaveLength(1);
  });

  it('counts bytes, not characters', async () => {
    const up = recordingFetch();
    const json = JSON.stringify(
      validBody({ messages: [{ role: 'user', content: 'é'.repeat(50) }] }),
    );
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      maxRequestBytes: json.length + 10, // 50 characters of 2 bytes each: 40 bytes too many
    });
    await expectApiError(await handler(post(json)), 413, 'request_too_large');
    expect(up.calls).toHaveLength(0);
  });

  it('throws at creation for a cap that is not a positive number', () => {
    expect(() => createMessagesProxy({ apiKey: KEY, maxRequestBytes: 0 })).toThrow(RangeError);
    expect(() => createMessagesProxy({ apiKey: KEY, maxRequestBytes: Number.NaN })).toThrow(
      RangeError,
    );
  });

  describe('over real sockets', () => {
    let upstream: Awaited<ReturnType<typeof recordingServer>>;
    let proxy: Server;
    let proxyURL = '';
    const cap = 64 * 1024;

    beforeAll(async () => {
      upstream = await recordingServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
      });
      proxy = createServer(
        toNodeHandler(
          createMessagesProxy({ apiKey: KEY, baseURL: upstream.url, maxRequestBytes: cap }),
        ),
      );
      proxyURL = await listen(proxy);
    });
    afterAll(async () => {
      await Promise.all([close(proxy), upstream.close()]);
    });

    const big = () =>
      JSON.stringify(validBody({ messages: [{ role: 'user', content: 'x'.repeat(4 * cap) }] }));

    it('answers 413 to a body with a content-length over the cap and forwards nothing', async () => {
      const response = await postJson(proxyURL, big());
      await expectApiError(response, 413, 'request_too_large');
      expect(upstream.seen).toEqual([]);
    });

    it('answers 413 to a chunked body that grows past the cap and forwards nothing', async () => {
      const bytes = new TextEncoder().encode(big());
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= bytes.length) {
            controller.close();
            return;
          }
          controller.enqueue(bytes.subarray(sent, sent + 8 * 1024));
          sent += 8 * 1024;
        },
      });
      const response = await postJson(proxyURL, body);
      await expectApiError(response, 413, 'request_too_large');
      expect(upstream.seen).toEqual([]);
    });

    it('still forwards a request under the cap, and the 413 never carries the key', async () => {
      const ok = await postJson(proxyURL);
      expect(ok.status).toBe(200);
      await ok.text();
      expect(upstream.seen).toHaveLength(1);
      const refused = await postJson(proxyURL, big());
      expect(await visibleText(refused)).not.toContain(KEY);
    });
  });
});
