/**
 * A server-side proxy for the Messages API, so a browser can stream a response without
 * ever holding the API key.
 *
 * `createMessagesProxy` is a standard fetch handler (`(Request) => Promise<Response>`) for
 * Next.js route handlers, Hono, Deno, Bun and Cloudflare; `toNodeHandler` adapts it to
 * `node:http`. The module uses only web globals at runtime (`node:http` is imported for
 * types only), so it stays importable in edge runtimes.
 *
 * The upstream body, success or error, is streamed through byte for byte: the proxy never
 * buffers, parses or re-encodes it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MessageRequest } from './protocol.js';

export interface MessagesProxyOptions {
  /** Server-side secret; sent upstream as `x-api-key`, never echoed to the client. */
  apiKey: string;
  /** Default `'https://api.anthropic.com'`; the handler POSTs to `${baseURL}/v1/messages`. */
  baseURL?: string;
  /** Default `'2023-06-01'`. */
  anthropicVersion?: string;
  /** Models the browser may ask for; others get 403 permission_error. A list or a predicate. */
  allowedModels?: readonly string[] | ((model: string) => boolean);
  /** Caps max_tokens: a larger request is lowered to this (not rejected). */
  maxTokens?: number;
  /**
   * Headers added upstream (e.g. anthropic-beta, or `authorization` for a gateway).
   * `x-api-key`, `anthropic-version` and `content-type` are always the proxy's own.
   * Client-sent `anthropic-beta` passes through only if `forwardBetaHeader` is true (and is
   * then combined with an `anthropic-beta` given here).
   */
  headers?: Record<string, string>;
  forwardBetaHeader?: boolean;
  /**
   * Last look at (or change of) the request body before it is sent: add metadata.user_id,
   * force a system prompt, reject by throwing a ProxyRejection. It sees the body after
   * validation, the model allowlist and the max_tokens cap; what it returns is sent as is.
   */
  transformRequest?: (
    body: MessageRequest,
    request: Request,
  ) => MessageRequest | Promise<MessageRequest>;
  /** Injectable upstream fetch (defaults to the global one). */
  fetch?: typeof fetch;
}

/** Throw from `transformRequest` to answer the client with an API-shaped error. */
export class ProxyRejection extends Error {
  readonly status: number;
  readonly type: string;

  constructor(status: number, type: string, message: string) {
    super(message);
    this.name = 'ProxyRejection';
    this.status = status;
    this.type = type;
  }
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_VERSION = '2023-06-01';

/** Upstream response headers the client gets to see (plus `anthropic-ratelimit-*`). */
const PASSTHROUGH_HEADERS = new Set([
  'content-type',
  'request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'cache-control',
]);
const PASSTHROUGH_PREFIX = 'anthropic-ratelimit-';

/** Statuses whose Response may not have a body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The status a handler answers with when the client went away before the upstream
 * answered (nginx's "client closed request"). Nobody reads it; the response just ends.
 */
const CLIENT_CLOSED_STATUS = 499;

function errorResponse(
  status: number,
  type: string,
  message: string,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify({ type: 'error', error: { type, message } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a parsed body is not a Messages request, or undefined when it is one. */
function invalidBodyReason(body: unknown): string | undefined {
  if (!isObject(body)) return 'The request body must be a JSON object.';
  if (typeof body.model !== 'string') return 'model: a string is required.';
  if (!Array.isArray(body.messages)) return 'messages: an array is required.';
  if (typeof body.max_tokens !== 'number' || !Number.isFinite(body.max_tokens)) {
    return 'max_tokens: a number is required.';
  }
  return undefined;
}

function modelPredicate(
  allowed: MessagesProxyOptions['allowedModels'],
): (model: string) => boolean {
  if (allowed === undefined) return () => true;
  if (typeof allowed === 'function') return allowed;
  const set = new Set(allowed);
  return (model) => set.has(model);
}

function isErrorStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 400 && status <= 599;
}

/** Creates the fetch handler. Throws (at creation, not per request) without an apiKey. */
export function createMessagesProxy(
  options: MessagesProxyOptions,
): (request: Request) => Promise<Response> {
  if (typeof options?.apiKey !== 'string' || options.apiKey === '') {
    throw new TypeError('createMessagesProxy: options.apiKey is required.');
  }
  const endpoint = `${(options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
  const version = options.anthropicVersion ?? DEFAULT_VERSION;
  const isAllowed = modelPredicate(options.allowedModels);
  const clientGone = () => new Response(null, { status: CLIENT_CLOSED_STATUS });

  async function handle(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      return errorResponse(405, 'invalid_request_error', 'Only POST is allowed.', {
        allow: 'POST',
      });
    }

    let text: string;
    try {
      text = await request.text();
    } catch {
      if (request.signal.aborted) return clientGone();
      return errorResponse(400, 'invalid_request_error', 'The request body could not be read.');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return errorResponse(400, 'invalid_request_error', 'The request body is not valid JSON.');
    }
    const reason = invalidBodyReason(parsed);
    if (reason !== undefined) return errorResponse(400, 'invalid_request_error', reason);
    let body = parsed as MessageRequest;

    if (!isAllowed(body.model)) {
      return errorResponse(
        403,
        'permission_error',
        `The model ${JSON.stringify(body.model)} is not available through this proxy.`,
      );
    }
    if (options.maxTokens !== undefined && body.max_tokens > options.maxTokens) {
      body = { ...body, max_tokens: options.maxTokens };
    }
    if (options.transformRequest) {
      try {
        body = await options.transformRequest(body, request);
      } catch (error) {
        if (error instanceof ProxyRejection) {
          const status = isErrorStatus(error.status) ? error.status : 500;
          return errorResponse(status, error.type, error.message);
        }
        throw error;
      }
      if (!isObject(body)) throw new TypeError('transformRequest returned no request body.');
    }

    const headers = new Headers();
    if (options.forwardBetaHeader) {
      const beta = request.headers.get('anthropic-beta');
      if (beta) headers.set('anthropic-beta', beta);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (name.toLowerCase() === 'anthropic-beta') headers.append(name, value);
      else headers.set(name, value);
    }
    headers.set('content-type', 'application/json');
    headers.set('anthropic-version', version);
    headers.set('x-api-key', options.apiKey);

    const upstreamFetch = options.fetch ?? fetch;
    let upstream: Response;
    try {
      upstream = await upstreamFetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: request.signal,
      });
    } catch {
      if (request.signal.aborted) return clientGone();
      return errorResponse(502, 'api_error', 'The upstream Messages API could not be reached.');
    }

    const out = new Headers();
    upstream.headers.forEach((value, name) => {
      if (PASSTHROUGH_HEADERS.has(name) || name.startsWith(PASSTHROUGH_PREFIX)) {
        out.set(name, value);
      }
    });
    if (/^\s*text\/event-stream/i.test(upstream.headers.get('content-type') ?? '')) {
      out.set('cache-control', 'no-cache');
      out.set('x-accel-buffering', 'no');
    }
    let responseBody = upstream.body;
    if (NULL_BODY_STATUSES.has(upstream.status) && responseBody) {
      await responseBody.cancel().catch(() => {});
      responseBody = null;
    }
    return new Response(responseBody, { status: upstream.status, headers: out });
  }

  return async (request) => {
    try {
      return await handle(request);
    } catch {
      // Deliberately generic: whatever failed may carry configuration in its message.
      return errorResponse(500, 'api_error', 'The proxy failed unexpectedly.');
    }
  };
}

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
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const origin = `${encrypted ? 'https' : 'http'}://`;
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin + (req.headers.host ?? 'localhost'));
  } catch {
    url = new URL(req.url ?? '/', `${origin}localhost`);
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
