/**
 * Shared by the proxy tests: an injected upstream fetch that records calls, request
 * builders, and real `node:http` servers on 127.0.0.1 (random ports) to put the proxy
 * between.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

export const KEY = 'sk-ant-secret-do-not-leak-1234567890';

export interface Call {
  url: string;
  method: string | undefined;
  headers: Headers;
  body: Record<string, unknown>;
  signal: AbortSignal | null | undefined;
  redirect: RequestRedirect | undefined;
}

const SSE_TEXT =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1"}}\n\n' +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';

export function sse(text = SSE_TEXT, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', ...headers },
  });
}

/** An injected upstream fetch that records each call and answers with `respond`. */
export function recordingFetch(
  respond: (call: Call) => Response | Promise<Response> = () => sse(),
) {
  const calls: Call[] = [];
  const impl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const call: Call = {
      url: String(input),
      method: init?.method,
      headers: new Headers(init?.headers),
      body: JSON.parse(String(init?.body)),
      signal: init?.signal,
      redirect: init?.redirect,
    };
    calls.push(call);
    return respond(call);
  };
  return { calls, fetch: impl as typeof fetch };
}

export const validBody = (overrides: Record<string, unknown> = {}) => ({
  model: 'claude-haiku-4-5',
  max_tokens: 256,
  stream: true,
  messages: [{ role: 'user', content: 'Say hi in 3 words' }],
  ...overrides,
});

/** A POST to the proxy, with the Host header a server runtime's Request carries. */
export function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return new Request('http://proxy.test/api/messages', {
    method: 'POST',
    headers: { 'content-type': 'application/json', host: 'proxy.test', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

export async function expectApiError(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const json = await response.json();
  expect(json).toEqual({ type: 'error', error: { type, message: expect.any(String) } });
  return json as { error: { message: string } };
}

/** Everything a client could read from a response: body, header names and values. */
export async function visibleText(response: Response): Promise<string> {
  const parts = [await response.text()];
  for (const [name, value] of response.headers) parts.push(name, value);
  return parts.join('\n');
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface SeenRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A node:http server that records every request it gets (after its body) and answers with
 * `route` (an empty 200 by default).
 */
export async function recordingServer(
  route: (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void = (_r, res) =>
    res.end(),
) {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(request);
      route(req, res, request);
    });
  });
  const url = await listen(server);
  return { server, url, seen, close: () => close(server) };
}

/**
 * POSTs `body` as JSON to `${baseURL}/v1/messages` over a real socket, failing after 5 s.
 * A stream body goes out chunked (no content-length).
 */
export function postJson(
  baseURL: string,
  body: string | ReadableStream<Uint8Array> = JSON.stringify(validBody()),
): Promise<Response> {
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  };
  if (typeof body !== 'string') init.duplex = 'half';
  return within(fetch(`${baseURL}/v1/messages`, init), 5000, 'the response');
}
