import 'fake-indexeddb/auto';
import * as idb from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { idbGet, metaKeyOf } from '../../src/store/idb.js';
import { createThreadStore } from '../../src/threads.js';
import { fixture, offsetAfter, scriptedFetch, sse } from './support.js';

vi.mock('idb-keyval', async (original) => {
  const actual = await original<typeof import('idb-keyval')>();
  return { ...actual, setMany: vi.fn(actual.setMany) };
});
const setMany = vi.mocked(idb.setMany);
const request = { model: 'claude-opus-5', max_tokens: 1024 };

describe('deleting a thread', () => {
  it('leaves nothing of it in IndexedDB when a write of it was under way', async () => {
    const text = fixture('text-pings');
    const { fetch } = scriptedFetch(() =>
      sse(text, { cutAt: offsetAfter(text, 'text_delta', 5), hang: true }),
    );
    const threads = createThreadStore({
      chat: { request, fetch, batch: false },
      persist: { name: 'deleted-threads' },
    });
    await threads.restored;
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    await chat?.restored;
    void chat?.getState().send('Tell me');
    await vi.waitFor(() => expect(chat?.getState().status).toBe('streaming'));
    // A write of the streaming answer is under way (slow disk) as the user deletes the thread.
    let land: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      land = resolve;
    });
    const actual = await vi.importActual<typeof import('idb-keyval')>('idb-keyval');
    setMany.mockImplementationOnce(async (...args) => {
      await held;
      return actual.setMany(...args);
    });
    const calls = setMany.mock.calls.length;
    void chat?.flush();
    await vi.waitFor(() => expect(setMany.mock.calls.length).toBeGreaterThan(calls));
    expect(JSON.stringify(setMany.mock.calls.at(-1))).toContain('/meta');
    threads.getState().deleteThread(id);
    await new Promise((r) => setTimeout(r, 20));
    land();
    await new Promise((r) => setTimeout(r, 100));
    // "a deleted thread's saved messages are gone".
    expect(await idbGet(metaKeyOf(`deleted-threads/${id}`))).toBeUndefined();
    threads.dispose();
  });
});
