/**
 * The test server for the transport: a real `node:http` server (real sockets: a drop is a
 * destroyed socket, a stall is an open one, a client abort is seen as a closed connection)
 * driven by scripted replies, behind a `Backend` interface so another server (the mock
 * package runs MSW) can stand in. Plus SSE builders.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { StreamError } from '../../src/errors.js';
import { sseEvent } from './streams.js';

/** The index just inside `marker` (after `offset` of its characters) in `text`. */
export function indexInside(text: string, marker: string, offset: number, from = 0): number {
  const at = text.indexOf(marker, from);
  if (at < 0) throw new Error(`marker not found: ${marker}`);
  return at + offset;
}

// ---------------------------------------------------------------------------------------
// SSE builders

export { sseEvent };

/** A whole, well-formed answer: one text block streamed as `texts`. */
export function textAnswer(options: {
  id?: string;
  model?: string;
  texts: readonly string[];
  stopReason?: string;
}): string {
  const events = [
    sseEvent({
      type: 'message_start',
      message: {
        id: options.id ?? 'msg_continuation',
        type: 'message',
        role: 'assistant',
        model: options.model ?? 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 1 },
      },
    }),
    sseEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...options.texts.map((text) =>
      sseEvent({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
    ),
    sseEvent({ type: 'content_block_stop', index: 0 }),
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: options.stopReason ?? 'end_turn', stop_sequence: null },
      usage: { output_tokens: 20 },
    }),
    sseEvent({ type: 'message_stop' }),
  ];
  return events.join('');
}

// ---------------------------------------------------------------------------------------
// HTTP errors

export interface ErrorCase {
  name: string;
  status: number;
  body: string;
  headers?: Record<string, string>;
  expected: Partial<StreamError> & { retryable: boolean };
  description?: RegExp | string;
}
/** Each HTTP error status, in both body shapes, with what the transport must make of it. */
export const HTTP_ERROR_CASES: ErrorCase[] = [
  {
    name: '400 API shape',
    status: 400,
    body: '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"},"request_id":"req_400"}',
    expected: {
      type: 'invalid_request_error',
      message: 'max_tokens: Field required',
      requestId: 'req_400',
      retryable: false,
    },
    description: 'The request was rejected: max_tokens: Field required',
  },
  {
    name: '400 gateway shape, request-id header',
    status: 400,
    headers: { 'request-id': 'req_hdr_400' },
    body: '{"message":"messages: at least one message is required","error":"invalid_request"}',
    expected: {
      type: 'invalid_request_error',
      code: 'invalid_request',
      message: 'messages: at least one message is required',
      requestId: 'req_hdr_400',
      retryable: false,
    },
  },
  {
    name: '401 gateway shape (token_revoked)',
    status: 401,
    body: '{"message":"API key has been revoked or does not exist.","error":"token_revoked"}',
    expected: {
      type: 'authentication_error',
      code: 'token_revoked',
      message: 'API key has been revoked or does not exist.',
      retryable: false,
    },
    description: /revoked/,
  },
  {
    name: '401 API shape',
    status: 401,
    body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_401"}',
    expected: {
      type: 'authentication_error',
      message: 'invalid x-api-key',
      requestId: 'req_401',
      retryable: false,
    },
    description: /missing or invalid/,
  },
  {
    name: '402 gateway shape (insufficient_quota)',
    status: 402,
    body: '{"message":"Project balance is exhausted.","error":"insufficient_quota"}',
    expected: {
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'Project balance is exhausted.',
      retryable: false,
    },
    description: /no credit/,
  },
  {
    name: '402 API shape (billing_error)',
    status: 402,
    body: '{"type":"error","error":{"type":"billing_error","message":"Your credit balance is too low."}}',
    expected: {
      type: 'billing_error',
      message: 'Your credit balance is too low.',
      retryable: false,
    },
    description: /no credit/,
  },
  {
    name: '403 gateway shape (model not enabled)',
    status: 403,
    body: '{"message":"Model claude-opus-5 is not enabled for this project.","error":"permission_denied"}',
    expected: {
      type: 'permission_error',
      code: 'permission_denied',
      message: 'Model claude-opus-5 is not enabled for this project.',
      retryable: false,
    },
    description: /not enabled/,
  },
  {
    name: '403 API shape',
    status: 403,
    body: '{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."},"request_id":"req_403"}',
    expected: { type: 'permission_error', requestId: 'req_403', retryable: false },
    description: /not enabled/,
  },
  {
    name: '404 API shape',
    status: 404,
    body: '{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}',
    expected: { type: 'not_found_error', message: 'model: claude-nope', retryable: false },
    description: /not found/,
  },
  {
    name: '404 gateway shape',
    status: 404,
    body: '{"message":"Model not found.","error":"model_not_found"}',
    expected: {
      type: 'not_found_error',
      code: 'model_not_found',
      message: 'Model not found.',
      retryable: false,
    },
  },
  {
    name: '413 API shape',
    status: 413,
    body: '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
    expected: { type: 'request_too_large', retryable: false },
    description: /too large/,
  },
  {
    name: '413 gateway shape',
    status: 413,
    body: '{"message":"Payload too large.","error":"request_too_large"}',
    expected: { type: 'request_too_large', message: 'Payload too large.', retryable: false },
  },
  {
    name: '429 API shape with retry-after: 2',
    status: 429,
    headers: { 'retry-after': '2' },
    body: '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"},"request_id":"req_429"}',
    expected: {
      type: 'rate_limit_error',
      retryAfterMs: 2000,
      requestId: 'req_429',
      retryable: true,
    },
    description: 'Too many requests. Try again in 2 s.',
  },
  {
    name: '429 gateway shape with retry-after: 2',
    status: 429,
    headers: { 'retry-after': '2' },
    body: '{"message":"Rate limit exceeded.","error":"rate_limit_exceeded"}',
    expected: {
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      retryAfterMs: 2000,
      retryable: true,
    },
    description: 'Too many requests. Try again in 2 s.',
  },
  {
    name: '500 API shape',
    status: 500,
    body: '{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_500"}',
    expected: { type: 'api_error', message: 'Internal server error', retryable: true },
    description: /internal error/,
  },
  {
    name: '500 gateway shape',
    status: 500,
    body: '{"message":"Upstream failed.","error":"upstream_error"}',
    expected: { type: 'api_error', code: 'upstream_error', retryable: true },
  },
  {
    name: '529 API shape, request_id in body wins over the header',
    status: 529,
    headers: { 'request-id': 'req_from_header' },
    body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
    expected: {
      type: 'overloaded_error',
      message: 'Overloaded',
      requestId: 'req_011CSHoEeqs5C35K2UUqR7Fy',
      retryable: true,
    },
    description: /overloaded/,
  },
  {
    name: '529 gateway shape, request-id from the header',
    status: 529,
    headers: { 'request-id': 'req_from_header' },
    body: '{"message":"Overloaded.","error":"overloaded"}',
    expected: {
      type: 'overloaded_error',
      code: 'overloaded',
      requestId: 'req_from_header',
      retryable: true,
    },
  },
];

// ---------------------------------------------------------------------------------------
// Scripted replies

/** A piece of body, a pause, or a wait for the test to say go. */
export type Step =
  | string
  | Uint8Array
  | { readonly wait: number }
  | { readonly until: Promise<unknown> };

export interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array | readonly Step[];
  /**
   * After the body: `end` it (default), `destroy` the connection (a drop mid-body), or
   * `hang` (keep the connection open and send nothing more).
   */
  readonly ending?: 'end' | 'destroy' | 'hang';
}

/** `network-error`: the connection fails before any response (socket destroyed / Response.error). */
export type Handler = (
  request: RecordedRequest,
) => Reply | 'network-error' | Promise<Reply | 'network-error'>;

export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  readonly url: string;
  /** Lower-cased names. */
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly json: Record<string, unknown>;
}

export interface TestServer {
  /** The absolute URL to pass as `endpoint`. */
  readonly endpoint: string;
  readonly requests: RecordedRequest[];
  /**
   * Resolves when the n-th request's connection closed before its response was ended
   * (the client went away, or the server destroyed it). Real sockets only.
   */
  closedEarly(index: number): Promise<void>;
  close(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  /** Whether a client abort reaches the server (real sockets only; see the design notes). */
  readonly realSockets: boolean;
  serve(handler: Handler): Promise<TestServer>;
}

const stepsOf = (body: Reply['body']): readonly Step[] =>
  body === undefined ? [] : typeof body === 'string' || ArrayBuffer.isView(body) ? [body] : body;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise with its resolver, for gates between client and server. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const parseJson = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

// ---------------------------------------------------------------------------------------
// Real node:http server

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const write = (res: ServerResponse, chunk: string | Uint8Array) =>
  new Promise<void>((resolve) => {
    res.write(chunk, () => resolve());
  });

export async function startHttpServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const closed: Array<{ promise: Promise<void>; open: () => void }> = [];
  const closedAt = (index: number) => {
    while (closed.length <= index) closed.push(gate());
    return closed[index] as { promise: Promise<void>; open: () => void };
  };
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const index = requests.length;
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    const recorded: RecordedRequest = {
      index,
      method: req.method ?? '',
      url: req.url ?? '',
      headers,
      body,
      json: parseJson(body),
    };
    requests.push(recorded);
    res.on('close', () => {
      if (!res.writableEnded) closedAt(index).open();
    });
    const reply = await handler(recorded);
    if (reply === 'network-error') {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status ?? 200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...reply.headers,
    });
    res.flushHeaders();
    for (const step of stepsOf(reply.body)) {
      if (res.destroyed) return;
      if (typeof step === 'string' || ArrayBuffer.isView(step)) await write(res, step);
      else if ('wait' in step) await sleep(step.wait);
      else await step.until;
    }
    if (res.destroyed) return;
    switch (reply.ending ?? 'end') {
      case 'end':
        res.end();
        break;
      case 'destroy':
        res.socket?.destroy();
        break;
      case 'hang':
        break;
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/messages`,
    requests,
    closedEarly: (index) => closedAt(index).promise,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const httpBackend: Backend = {
  name: 'node:http',
  realSockets: true,
  serve: startHttpServer,
};
