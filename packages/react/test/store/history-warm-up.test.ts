import type { MessageParam } from '@message-stream/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import { answerFromMessage } from '../../src/store/conversation.js';
import { linearTree } from '../../src/store/tree.js';
import { scriptedFetch, sse, textAnswer } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };

/** requestIdleCallback as a queue the test runs, with as much idle time as it says. */
function idleQueue() {
  const queue: IdleRequestCallback[] = [];
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => queue.push(callback));
  return {
    pending: () => queue.length,
    /** Runs the queued callbacks (and those they queue) with `ms` of idle time each. */
    run(ms: number, rounds = 100) {
      for (let i = 0; i < rounds && queue.length > 0; i++) {
        const callback = queue.shift() as IdleRequestCallback;
        const end = performance.now() + ms;
        callback({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
      }
    },
  };
}

/** A history of `count` question-and-answer pairs whose text blocks count their reads. */
function countedHistory(count: number) {
  let reads = 0;
  const text = (value: string) => ({
    type: 'text' as const,
    get text() {
      reads++;
      return value;
    },
  });
  const messages: MessageParam[] = [];
  for (let i = 0; i < count; i++) {
    messages.push({ role: 'user', content: [text(`question ${i}`)] });
    messages.push({ role: 'assistant', content: [text(`answer ${i}`)] });
  }
  return { messages, reads: () => reads };
}

/**
 * A store on a 200-pair history whose idle pass never runs (the page had no idle time before
 * the send), and a clock that moves 3 ms a read: a 4 ms slice builds a turn or two, then yields.
 */
function sentBeforeIdle() {
  idleQueue();
  const history = countedHistory(200);
  const { fetch, requests } = scriptedFetch(() => sse(textAnswer('ok')));
  const store = createChatStore({
    request,
    fetch,
    batch: false,
    initialMessages: history.messages,
  });
  let clock = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (clock += 3));
  return { history, requests, store };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createChatStore: a long history is prepared for sending in idle time', () => {
  it('builds every turn but the last two while idle, and the send reads none of them again', async () => {
    const idle = idleQueue();
    const history = countedHistory(200);
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('ok')));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      initialMessages: history.messages,
    });
    expect(history.reads()).toBe(0);
    expect(idle.pending()).toBe(1);
    // A short idle period does a slice and asks for more; later ones finish the pass.
    idle.run(3, 1);
    expect(idle.pending()).toBe(1);
    idle.run(50);
    expect(idle.pending()).toBe(0);
    const prepared = history.reads();
    // Each of the 398 prepared turns read once or twice (its message, then its JSON).
    expect(prepared).toBeGreaterThanOrEqual(398);

    await store.getState().send('one more');
    const sentNow = history.reads() - prepared;
    // Only the two turns left to the send were read by it.
    expect(sentNow).toBeGreaterThan(0);
    expect(sentNow).toBeLessThanOrEqual(4);
    const messages = requests[0]?.body.messages as MessageParam[];
    expect(messages).toHaveLength(401);
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 0' }] });
    expect(messages.at(-2)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'answer 199' }],
    });
    store.dispose();
  });

  it('builds what the idle pass has not, over several tasks, when a long thread is sent before it ran', async () => {
    const { history, requests, store } = sentBeforeIdle();
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const sending = store.getState().send('one more');
    // The send's own task built nothing more than a slice: the request has not gone out.
    expect(history.reads()).toBeLessThanOrEqual(8);
    expect(requests).toHaveLength(0);
    await sending;
    expect(timeout.mock.calls.filter(([, ms]) => ms === 0).length).toBeGreaterThan(50);
    const messages = requests[0]?.body.messages as MessageParam[];
    expect(messages).toHaveLength(401);
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 0' }] });
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'one more' });
    expect(store.getState().status).toBe('complete');
    vi.restoreAllMocks();
    store.dispose();
  });

  it('sends nothing when stopped while a long history is still being built for the send', async () => {
    const { requests, store } = sentBeforeIdle();
    const sending = store.getState().send('one more');
    await store.getState().stop();
    await sending;
    vi.restoreAllMocks();
    expect(requests).toHaveLength(0);
    expect(store.getState().status).toBe('aborted');
    // The question stays, with the stopped answer under it, as after any stop.
    expect(store.getState().turns.at(-2)).toMatchObject({ role: 'user', content: 'one more' });
    store.dispose();
  });

  it('stops when the store is disposed, and starts again for a replaced conversation', () => {
    const idle = idleQueue();
    const history = countedHistory(50);
    const store = createChatStore({ request, batch: false, initialMessages: history.messages });
    store.dispose();
    idle.run(50);
    expect(history.reads()).toBe(0);

    const other = createChatStore({ request, batch: false });
    expect(idle.pending()).toBe(0);
    other.getState().setMessages(history.messages);
    expect(idle.pending()).toBe(1);
    idle.run(50);
    expect(history.reads()).toBeGreaterThanOrEqual(98);
    other.dispose();
  });

  it('never sends an answer as it was before it was continued meanwhile', async () => {
    const idle = idleQueue();
    const cut = answerFromMessage('a0', [{ type: 'text', text: 'Part one' }]);
    const message = cut.stream.message as NonNullable<typeof cut.stream.message>;
    const a0 = {
      ...cut,
      stream: { ...cut.stream, message: { ...message, stop_reason: 'max_tokens' as const } },
    };
    const tree = linearTree([
      { id: 'u0', role: 'user', content: 'Q0' },
      a0,
      { id: 'u1', role: 'user', content: 'Q1' },
      answerFromMessage('a1', [{ type: 'text', text: 'A1' }]),
    ]);
    const text = JSON.stringify({ state: { tree }, version: 1 });
    const storage = { getItem: () => text, setItem: () => {}, removeItem: () => {} };
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer(' and part two.')),
      () => sse(textAnswer('ok')),
    );
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      persist: { name: 'x', storage },
    });
    await store.restored;
    expect(store.getState().turns).toHaveLength(4);
    // The older answer is continued, and the idle pass runs while it streams.
    const continuing = store.getState().continueAnswer('a0');
    idle.run(50);
    await continuing;
    idle.run(50);
    await store.getState().send('Q2');
    const sent = requests[1]?.body.messages as MessageParam[];
    expect(JSON.stringify(sent[1])).toContain('Part one and part two.');
    store.dispose();
  });

  it('stops quietly at a history that cannot be serialized, which the send reports', async () => {
    const idle = idleQueue();
    const cyclic: Record<string, unknown> = { type: 'text', text: 'loop' };
    cyclic.self = cyclic;
    const messages = countedHistory(3).messages;
    messages[0] = { role: 'user', content: [cyclic as never] };
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('ok')));
    const onError = vi.fn();
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      initialMessages: messages,
      onError,
    });
    expect(() => idle.run(50)).not.toThrow();
    await store.getState().send('next');
    expect(requests).toHaveLength(0);
    expect(onError).toHaveBeenCalled();
    store.dispose();
  });
});

describe('createChatStore: a send in two tasks', () => {
  /** The rest of the send's task: its microtasks, where React commits the new turns. */
  const restOfTheTask = async () => {
    for (let i = 0; i < 50; i++) await Promise.resolve();
  };

  it("puts a send's new turns out in one task, and builds and sends the request in the next", async () => {
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('ok')));
    const store = createChatStore({ request, fetch, batch: false });
    const sending = store.getState().send('one more');
    await restOfTheTask();
    expect(store.getState().turns.map((turn) => turn.role)).toEqual(['user', 'assistant']);
    expect(store.getState().status).toBe('submitted');
    expect(requests).toHaveLength(0);
    await sending;
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.messages).toEqual([{ role: 'user', content: 'one more' }]);
    store.dispose();
  });

  it('sends nothing when stopped in the task between the new turns and the request', async () => {
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('ok')));
    const store = createChatStore({ request, fetch, batch: false });
    const sending = store.getState().send('one more');
    await restOfTheTask();
    await store.getState().stop();
    await sending;
    expect(requests).toHaveLength(0);
    expect(store.getState().status).toBe('aborted');
    expect(store.getState().turns.at(-2)).toMatchObject({ role: 'user', content: 'one more' });
    store.dispose();
  });
});
