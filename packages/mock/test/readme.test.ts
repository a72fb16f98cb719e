// The README's examples, run as written (endpoints as documented).
import { continuationRequest, mergeContinuation, streamMessage } from '@message-stream/core';
import { createMessagesProxy } from '@message-stream/core/proxy';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockHandlers } from '../src/index.js';
import { createReplayServer, fixtureRequest } from '../src/node.js';

describe('README: Vitest + MSW', () => {
  const server = setupServer(...createMockHandlers());
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  const request = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user' as const, content: 'Hi' }],
  };

  it('shows what arrived when the connection drops', async () => {
    const state = await streamMessage(request, {
      endpoint: 'https://api.example.test/v1/messages',
      headers: { 'x-mock-scenario': 'text-pings;fault=drop-after-events:8' },
    });
    expect(state.status).toBe('interrupted');
    expect(state.message?.content[0]?.block).toMatchObject({ type: 'text' });
  });

  it('says why a revoked key failed', async () => {
    const state = await streamMessage(
      { ...request, model: 'mock:;fault=http:token-revoked' },
      { endpoint: 'https://api.example.test/v1/messages', retry: false },
    );
    expect(state.error).toMatchObject({ type: 'authentication_error', code: 'token_revoked' });
  });
});

describe('README: Getting started', () => {
  const server = setupServer(...createMockHandlers({ path: '*/api/messages' }));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('answers the path it is given, e.g. a /api/messages route', async () => {
    const state = await streamMessage(
      { model: 'claude-opus-5', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] },
      { endpoint: 'https://app.example.test/api/messages', retry: false },
    );
    expect(state.status).toBe('complete');
    expect(state.message?.content[0]?.block).toMatchObject({ type: 'text', text: 'Hello!' });
  });
});

describe('README: Node server', () => {
  it('drops, resumes and merges into the whole answer over two requests', async () => {
    const server = await createReplayServer();
    const request = fixtureRequest('long-markdown');
    const options = {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': 'long-markdown;fault=drop-after-events:1200' },
    };
    const interrupted = await streamMessage(request, options);
    expect(interrupted.status).toBe('interrupted');
    const rest = await streamMessage(continuationRequest(request, interrupted), options);
    const answer = mergeContinuation(interrupted, rest);
    expect(answer.status).toBe('complete');
    expect(server.requests.length).toBe(2);
    await server.close();
  });
});

describe('README: Behind your own proxy', () => {
  const ask = (model: string, headers: Record<string, string> = {}, query = '') =>
    new Request(`http://localhost/v1/messages${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        model,
        max_tokens: 256,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });

  it('answers through the proxy, a fault picked by the model: the header never reaches the mock', async () => {
    const mock = await createReplayServer();
    try {
      const proxy = createMessagesProxy({ apiKey: 'unused', baseURL: mock.url });
      const faulted = await proxy(ask('mock:;fault=http:rate-limit'));
      expect(faulted.status).toBe(429);
      expect(faulted.headers.get('retry-after')).toBe('2');
      await faulted.text();
      const header = await proxy(ask('claude-opus-5', { 'x-mock-scenario': ';fault=http:529' }));
      expect(header.status).toBe(200);
      await header.text();
      const query = await proxy(ask('claude-opus-5', {}, '?scenario=;fault=http:529'));
      expect(query.status).toBe(200);
      await query.text();
      expect(mock.requests.map((r) => [r.url, r.headers['x-mock-scenario']])).toEqual([
        ['/v1/messages', undefined],
        ['/v1/messages', undefined],
        ['/v1/messages', undefined],
      ]);
      const listed = createMessagesProxy({
        apiKey: 'unused',
        baseURL: mock.url,
        allowedModels: ['claude-opus-5'],
      });
      expect((await listed(ask('mock:;fault=http:rate-limit'))).status).toBe(403);
    } finally {
      await mock.close();
    }
  });
});
