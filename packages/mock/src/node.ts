/**
 * `@message-stream/mock/node`: the Node-only front end (a real `node:http` server, real
 * sockets) and file helpers. Everything of the main entry is re-exported, so Node code can
 * import from here alone; browser code must not import this entry.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockResponder, type MockOptions } from './responder.js';

export * from './index.js';

export interface ReplayServerOptions extends MockOptions {
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
}

/** One request the server received, in arrival order. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON; the raw text when it is not JSON; undefined when empty. */
  readonly body: unknown;
}

export interface ReplayServer {
  /** Base URL, e.g. `http://127.0.0.1:49152`. */
  readonly url: string;
  /** `${url}/v1/messages`: pass it as `streamMessage`'s `endpoint`. */
  readonly endpoint: string;
  /** Every request received so far (CORS preflights included), oldest first. */
  readonly requests: readonly ReceivedRequest[];
  /** Ends open streams, closes every connection and stops listening. */
  close(): Promise<void>;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers': 'request-id, retry-after, retry-after-ms, x-mock-fixture',
};

/**
 * A real HTTP server answering `POST …/v1/messages` with the mock (same scenarios as the MSW
 * handlers). Unlike MSW in Node, a client abort or idle timeout really closes the
 * connection, and the replay behind it stops. A drop in `'error'` mode destroys the socket
 * mid-body. CORS is open, so a browser page on another origin can use it.
 */
export async function createReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const respond = createMockResponder(options);
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const host = options.host ?? '127.0.0.1';

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers, body: parseBody(text) });

    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS).end();
      return;
    }
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished)
        aborter.abort(new DOMException('The client went away.', 'AbortError'));
    });
    const path = new URL(req.url ?? '/', 'http://server.invalid').pathname;
    const request = new Request(
      new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`),
      {
        method: req.method ?? 'GET',
        headers: headersOf(req),
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: text }),
        signal: aborter.signal,
      },
    );
    const response = path.endsWith('/v1/messages')
      ? await respond(request)
      : new Response(
          JSON.stringify({
            type: 'error',
            error: { type: 'not_found_error', message: `No route for ${req.method} ${path}` },
          }),
          { status: 404, headers: { 'content-type': 'application/json' } },
        );
    if (response.type === 'error') {
      req.socket.destroy();
      return;
    }
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...CORS_HEADERS });
    res.flushHeaders();
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => {}));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (res.destroyed) return;
        if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    } catch {
      // The replay dropped the connection on purpose, or the client left: a reset socket.
      res.destroy();
    }
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    endpoint: `${url}/v1/messages`,
    requests,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  return headers;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Writes fixture text (or a `RecordedFixture`) to a file, creating its directory; returns
 * the path written.
 */
export async function writeFixture(
  path: string | URL,
  fixture: string | { readonly text: string },
): Promise<string> {
  const file = typeof path === 'string' ? path : fileURLToPath(path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, typeof fixture === 'string' ? fixture : fixture.text, 'utf8');
  return file;
}
