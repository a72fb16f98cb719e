/**
 * `toNodeHandler`: a fetch handler on `node:http`. Only types come from `node:http`, so the
 * proxy entry stays importable in edge runtimes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web ReadableStream over a node request body, with backpressure. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Uint8Array | string) => {
    if (settled) return;
    controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
    if ((controller.desiredSize ?? 1) <= 0) req.pause();
  };
  const onEnd = () => {
    if (settled) return;
    settled = true;
    detach();
    controller.close();
  };
  const onError = (error: unknown) => {
    if (settled) return;
    settled = true;
    detach();
    controller.error(error);
  };
  const onClose = () => {
    if (!req.complete) onError(new Error('The request was aborted.'));
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (req.readableEnded) {
        // Already consumed (e.g. by a body parser): an empty body, not a hang.
        settled = true;
        c.close();
        return;
      }
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    },
    pull() {
      req.resume();
    },
    cancel() {
      settled = true;
      detach();
      req.resume(); // drain and discard the rest
    },
  });
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  // HTTP/2 (node:http2's compatibility API) names the host in `:authority`, not `Host`.
  const authority = req.headers[':authority'];
  if (!headers.has('host') && typeof authority === 'string') headers.set('host', authority);
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const origin = `${encrypted ? 'https' : 'http'}://`;
  // The request target is a path on this server, joined as text: resolved against a base, a
  // target like `//evil.example/v1/messages` (or `http://evil.example/…`) named its own origin,
  // which the cross-site check then compared a page's Origin with.
  const target = req.url ?? '/';
  const path = target.startsWith('/') ? target : `/${target}`;
  let url: URL;
  try {
    url = new URL(origin + (headers.get('host') ?? 'localhost') + path);
  } catch {
    url = new URL(`${origin}localhost${path}`);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function serve(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  res.once('close', () => {
    if (res.writableFinished) return;
    controller.abort();
    reader?.cancel().catch(() => {});
  });

  try {
    const response = await handler(toRequest(req, controller.signal));
    if (res.destroyed) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    res.statusCode = response.status;
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') res.setHeader(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    res.flushHeaders();

    if (!response.body) {
      res.end();
      return;
    }
    reader = response.body.getReader();
    const flush = (res as { flush?: () => void }).flush;
    for (;;) {
      if (res.destroyed) {
        await reader.cancel().catch(() => {});
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) continue; // cancels the reader at the top of the loop
      if (!res.write(value)) await drainedOrClosed(res);
      // Behind a compression middleware, push each chunk out now (SSE must not wait).
      flush?.call(res);
    }
    if (!res.destroyed) res.end();
  } catch {
    if (res.destroyed) return;
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'api_error', message: 'The server failed unexpectedly.' },
        }),
      );
    } else {
      // Mid-stream failure: cut the connection so the client sees an incomplete response
      // rather than a clean end.
      res.destroy();
    }
  }
}

/**
 * Adapts a fetch handler to node:http's `(req, res) => void`, streaming both ways: the
 * request body is a stream (`duplex: 'half'`), each response chunk is written as it
 * arrives, and a client that goes away before the response finished aborts the
 * Request's signal.
 */
export function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serve(handler, req, res).catch(() => {
      res.destroy();
    });
  };
}
