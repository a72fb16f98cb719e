/**
 * The proxy's default request policy lets through everything the kit itself sends: every
 * fixture's request, and the continuation resume builds from its answer (the two fixtures
 * with server features need those features allowed).
 */
import { accumulate, continuationRequest, type MessageRequest } from '@message-stream/core';
import { createMessagesProxy, type MessagesProxyOptions } from '@message-stream/core/proxy';
import { describe, expect, it } from 'vitest';
import { fixtureNames, fixtureRequest, loadFixture, parseFixtureHeader } from '../src/index.js';

const KEY = 'sk-ant-policy-test';

function recordingFetch() {
  const calls: unknown[] = [];
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push(JSON.parse(String(init?.body)));
    return new Response('event: ping\ndata: {"type":"ping"}\n\n', {
      headers: { 'content-type': 'text/event-stream' },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const allowing: Omit<MessagesProxyOptions, 'apiKey'> = {
  allowedServerTools: ['web_search'],
  allowedMcpServers: ['https://mcp.linear.app/sse'],
};

describe('the proxy policy and the kit', () => {
  it.each([...fixtureNames])(
    '%s: the request and its continuation are forwarded',
    { timeout: 30_000 },
    async (name) => {
      const request = { ...fixtureRequest(name), stream: true } as MessageRequest;
      const state = await accumulate(parseFixtureHeader(await loadFixture(name)).body);
      for (const body of [request, continuationRequest(request, state)]) {
        const up = recordingFetch();
        const response = await createMessagesProxy({ apiKey: KEY, fetch: up.fetch, ...allowing })(
          new Request('http://localhost/v1/messages', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        );
        expect(response.status, await response.clone().text()).toBe(200);
        expect(up.calls).toHaveLength(1);
      }
    },
  );
});
