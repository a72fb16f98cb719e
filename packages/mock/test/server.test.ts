import { accumulate, type MessageRequest, streamMessage } from '@message-stream/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createReplayServer, type ReplayServer } from '../src/node.js';
import { fixtureFile } from './support/helpers.js';

const ask = (content: string, model = 'claude-sonnet-4-5'): MessageRequest => ({
  model,
  max_tokens: 1024,
  messages: [{ role: 'user', content }],
});

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createReplayServer', () => {
  it('serves fixtures over real HTTP and records every request it got', async () => {
    server = await createReplayServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.endpoint).toBe(`${server.url}/v1/messages`);
    const state = await streamMessage(ask('x', 'mock:spec-web-search'), {
      endpoint: server.endpoint,
      headers: { 'x-api-key': 'test-key' },
    });
    expect(state).toEqual(await accumulate(fixtureFile('spec-web-search')));
    await streamMessage(ask('second'), { endpoint: server.endpoint });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/messages',
      headers: { 'x-api-key': 'test-key', 'content-type': 'application/json' },
      body: { ...ask('x', 'mock:spec-web-search'), stream: true },
    });
    expect((server.requests[1]?.body as MessageRequest | undefined)?.messages[0]?.content).toBe(
      'second',
    );
  });

  it('replays random chunking over a socket with the same final state (large fixture)', async () => {
    server = await createReplayServer();
    const state = await streamMessage(ask('x'), {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': 'long-markdown;chunking=1-700;seed=9' },
    });
    expect(state).toEqual(await accumulate(fixtureFile('long-markdown')));
  });

  it('a drop destroys the socket mid-body: interrupted with network_error', async () => {
    server = await createReplayServer();
    const state = await streamMessage(ask('x'), {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': 'text-pings;fault=drop-after-bytes:1500' },
    });
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('network_error');
    expect(state.message?.content[0]?.status).toBe('incomplete');
  });

  it('a stall past the idle timeout: the client ends interrupted and the connection is closed', async () => {
    server = await createReplayServer();
    const started = Date.now();
    const state = await streamMessage(ask('x'), {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': 'text-pings;fault=stall-after-events:5' },
      idleTimeoutMs: 500,
    });
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('idle_timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    const closing = Date.now();
    await server.close();
    expect(Date.now() - closing).toBeLessThan(1000);
  });

  it('answers HTTP faults with their status and headers', async () => {
    server = await createReplayServer();
    const response = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-scenario': ';fault=http:429' },
      body: JSON.stringify({ ...ask('x'), stream: true }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('retry-after-ms')).toBe('1500');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect((await response.json()).error.type).toBe('rate_limit_error');
    const failed = await streamMessage(ask('x'), {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': ';fault=network-error' },
      retry: false,
    });
    expect(failed.error?.type).toBe('network_error');
  });

  it('answers CORS preflights, and 404 off the messages path', async () => {
    server = await createReplayServer();
    const preflight = await fetch(server.endpoint, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const other = await fetch(`${server.url}/v1/other`, { method: 'POST', body: '{}' });
    expect(other.status).toBe(404);
    expect(server.requests.map((request) => request.method)).toEqual(['OPTIONS', 'POST']);
  });

  it('closes cleanly with streams still open, and can be closed twice', async () => {
    server = await createReplayServer();
    const hanging = streamMessage(ask('x'), {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': 'text-pings;fault=stall-after-events:4' },
      idleTimeoutMs: 0,
    });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    await server.close();
    const state = await hanging;
    expect(state.status).toBe('interrupted');
    expect(state.message?.content[0]?.status).toBe('incomplete');
    await expect(fetch(server.endpoint, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('listens on the port asked for', async () => {
    const first = await createReplayServer();
    const port = Number(new URL(first.url).port);
    await first.close();
    server = await createReplayServer({ port, host: '127.0.0.1' });
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
  });
});
