import { validateMessages } from '@message-stream/core';
import { describe, expect, it, vi } from 'vitest';
import { type AssistantTurn, createChatStore } from '../../src/index.js';
import {
  answersOf,
  fixture,
  lastAnswerOf,
  mapStorage,
  offsetAfter,
  scriptedFetch,
  sse,
  textAnswer,
  toolIds,
} from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
type Sent = Array<{ role: string; content: unknown }>;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a new message settles the last answer’s calls', () => {
  it('a new message sent while a tool runs: every later request (after a reload) is still valid', async () => {
    const { saved, storage } = mapStorage();
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Sure, something else.')),
    );
    // A tool that takes its time (never settles by itself).
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: { get_weather: { run: () => new Promise(() => {}) } },
      persist: { name: 'a', storage },
    });
    await store.restored;
    void store.getState().send('Weather?');
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    const [id] = toolIds(lastAnswerOf(store.getState()));
    await store.getState().send('Never mind, tell me a joke.');
    const second = requests[1]?.body.messages as Sent;
    expect(validateMessages(second)).toEqual([]);
    await store.flush();
    // Reload.
    const { fetch: fetch2, requests: requests2 } = scriptedFetch(() => sse(textAnswer('Third.')));
    const reloaded = createChatStore({
      request,
      fetch: fetch2,
      batch: false,
      persist: { name: 'a', storage: mapStorage(saved).storage },
    });
    await reloaded.restored;
    const call = answersOf(reloaded.getState())[0]?.toolResults[id as string];
    await reloaded.getState().send('And another.');
    const third = requests2[0]?.body.messages as Sent;
    // Read back as stopped by the user, and sent as such.
    expect(call).toMatchObject({ status: 'error', endedBy: 'stop' });
    expect(validateMessages(third)).toEqual([]);
  });

  it('a call awaiting approval and a call running at once, then a new message: the running one is answered too', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('parallel-tool-calls')),
      () => sse(textAnswer('Sure.')),
    );
    let calls = 0;
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: {
        get_weather: {
          run: () => new Promise(() => {}),
          // The first call asks, the second runs.
          needsApproval: () => ++calls === 1,
        },
      },
    });
    void store.getState().send('Weather in Paris and Tokyo?');
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    const ids = toolIds(lastAnswerOf(store.getState()));
    expect(Object.values(lastAnswerOf(store.getState()).toolResults).map((r) => r.status)).toEqual([
      'awaiting-approval',
      'running',
    ]);
    await store.getState().send('Forget it.');
    await tick();
    const sent = requests[1]?.body.messages as Sent;
    // Both calls go back: the one awaiting approval skipped, the one running stopped.
    expect(validateMessages(sent)).toEqual([]);
    const results = (
      (sent[2]?.content ?? []) as Array<{ type: string; tool_use_id?: string }>
    ).filter((b) => b.type === 'tool_result');
    expect(results.map((b) => b.tool_use_id)).toEqual(ids);
  });

  it('send while an answer streams, after a complete tool_use: the request is valid', async () => {
    const text = fixture('parallel-tool-calls');
    const { fetch, requests } = scriptedFetch(
      () => sse(text, { cutAt: offsetAfter(text, '"index":1}', 1) + 5, hang: true }),
      () => sse(textAnswer('Sure.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    void store.getState().send('Weather?');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().status).toBe('streaming');
    await store.getState().send('Stop, something else.');
    const sent = requests[1]?.body.messages as Sent;
    expect(validateMessages(sent)).toEqual([]);
    const first = answersOf(store.getState())[0] as AssistantTurn;
    expect(Object.values(first.toolResults).map((r) => r.declined)).toEqual(['skipped']);
  });

  it('mcp and server tool calls get no client tool_result', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('mcp-tool-use')),
      () => sse(fixture('spec-web-search')),
      () => sse(textAnswer('Sure.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Issues?');
    await store.getState().send('Search?');
    await store.getState().send('Thanks');
    for (const r of requests.slice(1)) {
      const sent = r.body.messages as Sent;
      expect(validateMessages(sent)).toEqual([]);
      expect(JSON.stringify(sent)).not.toContain('"tool_result"');
    }
  });
});
