/**
 * The key never comes back (issue 14, "A proxy safe to expose"): an upstream body or a
 * passed-through header that echoes it is scrubbed, wherever the chunks split it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, scrubStream } from '../src/proxy/scrub.js';
import { createMessagesProxy, toNodeHandler } from '../src/proxy.js';
import {
  close,
  KEY,
  listen,
  post,
  postJson,
  recordingFetch,
  recordingServer,
  validBody,
  visibleText,
} from './support/proxy-http.js';

const encoder = new TextEncoder();

/** Runs `chunks` through a scrubber and returns what came out, chunk by chunk. */
async function scrubbed(chunks: Uint8Array[], secrets: string[]): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const reader = source.pipeThrough(scrubStream(secrets)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

const joined = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks));

describe('scrubStream', () => {
  const text = `{"error":{"message":"invalid x-api-key ${KEY} (héllo 👋)"}} and ${KEY}`;
  const bytes = encoder.encode(text);
  const expected = text.split(KEY).join(REDACTED);

  it('replaces the key at every two-chunk split of the body', async () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const out = await scrubbed([bytes.subarray(0, cut), bytes.subarray(cut)], [KEY]);
      expect(joined(out), `cut at ${cut}`).toBe(expected);
    }
  });

  it('replaces the key sent one byte at a time', async () => {
    const out = await scrubbed(
      [...bytes].map((byte) => Uint8Array.of(byte)),
      [KEY],
    );
    expect(joined(out)).toBe(expected);
  });

  it('passes a chunk without a key prefix on at once, as the same bytes', async () => {
    const chunk = encoder.encode('event: ping\ndata: {"type":"ping"}\n\n');
    const out = await scrubbed([chunk], [KEY]);
    expect(out).toHaveLength(1);
    expect(out[0]).toEqual(chunk);
  });

  it('keeps back only a tail that may begin the key, and lets it go at the end', async () => {
    const head = encoder.encode('data: sk-ant-se');
    const out = await scrubbed([head], [KEY]);
    expect(joined(out)).toBe('data: sk-ant-se');
  });

  it('scrubs several secrets, the longer winning an overlap', async () => {
    const out = await scrubbed(
      [encoder.encode('a gw-token-123456 and gw-token-123456789')],
      ['gw-token-123456', 'gw-token-123456789'],
    );
    expect(joined(out)).toBe(`a ${REDACTED} and ${REDACTED}`);
  });
});

describe('createMessagesProxy: the key is scrubbed from what the upstream sends back', () => {
  it('from an error body that echoes it', async () => {
    const echo = `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: ${KEY}"}}`;
    const up = recordingFetch(
      () => new Response(echo, { status: 401, headers: { 'content-type': 'application/json' } }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(response.status).toBe(401);
    expect(await response.text()).toBe(echo.replace(KEY, REDACTED));
  });

  it('from passed-through headers', async () => {
    const up = recordingFetch(
      () =>
        new Response('{}', {
          status: 429,
          headers: {
            'content-type': 'application/json',
            'request-id': `req_${KEY}`,
            'anthropic-ratelimit-requests-limit': KEY,
          },
        }),
    );
    const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch })(post(validBody()));
    expect(response.headers.get('request-id')).toBe(`req_${REDACTED}`);
    expect(await visibleText(response)).not.toContain(KEY);
  });

  it("from a gateway's echo of the authorization configured in options.headers", async () => {
    const token = 'gw-secret-token-0987654321';
    const up = recordingFetch(
      () => new Response(`bad token Bearer ${token}`, { status: 403, headers: {} }),
    );
    const response = await createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      headers: { Authorization: `Bearer ${token}` },
    })(post(validBody()));
    expect(up.calls[0]?.headers.get('authorization')).toBe(`Bearer ${token}`);
    const text = await visibleText(response);
    expect(text).not.toContain(token);
    expect(text).toContain(REDACTED);
  });

  describe('over real sockets', () => {
    let upstream: Awaited<ReturnType<typeof recordingServer>>;
    let proxy: Server;
    let proxyURL = '';

    beforeAll(async () => {
      // A gateway that echoes the key it got, split across writes, in a header and the body.
      upstream = await recordingServer((req, res) => {
        const key = String(req.headers['x-api-key']);
        res.writeHead(401, { 'content-type': 'application/json', 'request-id': `req ${key}` });
        res.write(`{"error":"bad key ${key.slice(0, 10)}`);
        setTimeout(() => res.end(`${key.slice(10)}"}`), 20);
      });
      proxy = createServer(
        toNodeHandler(createMessagesProxy({ apiKey: KEY, baseURL: upstream.url })),
      );
      proxyURL = await listen(proxy);
    });
    afterAll(async () => {
      await Promise.all([close(proxy), upstream.close()]);
    });

    it('the client sees the status and the message, never the key', async () => {
      const response = await postJson(proxyURL);
      expect(upstream.seen[0]?.headers['x-api-key']).toBe(KEY);
      expect(response.status).toBe(401);
      const text = await visibleText(response);
      expect(text).not.toContain(KEY);
      expect(text).toContain(`{"error":"bad key ${REDACTED}"}`);
    });
  });
});
