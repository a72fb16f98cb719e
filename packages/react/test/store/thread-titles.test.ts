import { describe, expect, it } from 'vitest';
import { createThreadStore } from '../../src/threads.js';
import { mapStorage, scriptedFetch, sse, textAnswer } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const answers = (...texts: string[]) => texts.map((text) => () => sse(textAnswer(text)));

describe('thread titles and the answering mark', () => {
  it('a conversation emptied by reset() is titled by its new first message', async () => {
    const threads = createThreadStore({
      chat: { request, batch: false, fetch: scriptedFetch(...answers('Paris.', 'A haiku.')).fetch },
    });
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    await chat?.getState().send('Capital of France?');
    chat?.getState().reset();
    await chat?.getState().send('Write a haiku');
    const title = threads.getState().threads.find((t) => t.id === id)?.title;
    expect(title).toBe('Write a haiku');
  });

  it('a conversation replaced by setMessages is titled by its new first message', async () => {
    const threads = createThreadStore({
      chat: { request, batch: false, fetch: scriptedFetch(...answers('Paris.')).fetch },
    });
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    await chat?.getState().send('Capital of France?');
    chat?.getState().setMessages([
      { role: 'user', content: 'Plan my trip to Rome' },
      { role: 'assistant', content: 'Sure.' },
      { role: 'user', content: 'In May' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    const title = threads.getState().threads.find((t) => t.id === id)?.title;
    expect(title).toBe('Plan my trip to Rome');
  });

  it('a saved empty thread from before the app changed its `untitled` words is still titled by its first message', async () => {
    const { saved, storage } = mapStorage();
    saved.set(
      'app/threads',
      JSON.stringify({
        threads: [{ id: 't1', title: 'Untitled', renamed: false, createdAt: 1, updatedAt: 1 }],
        activeId: 't1',
      }),
    );
    const threads = createThreadStore({
      chat: { request, batch: false, fetch: scriptedFetch(...answers('Paris.')).fetch },
      persist: { name: 'app', storage },
      untitled: 'Nouvelle conversation',
    });
    await threads.restored;
    const chat = threads.getState().chatOf('t1');
    await chat?.restored;
    await chat?.getState().send('Capital of France?');
    expect(threads.getState().threads.find((t) => t.id === 't1')?.title).toBe('Capital of France?');
  });

  it('dispose() while a thread answers leaves no thread marked answering', async () => {
    const fetch = (_: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('Stopped', 'AbortError')),
        ),
      );
    const threads = createThreadStore({ chat: { request, batch: false, fetch } });
    const id = threads.getState().newThread();
    void threads.getState().chatOf(id)?.getState().send('Hi');
    expect(threads.getState().threads[0]?.answering).toBe(true);
    threads.dispose();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(threads.getState().threads[0]?.answering).not.toBe(true);
  });
});

describe('the answering mark and saving', () => {
  it('the answering mark, not saved, causes no write of the saved list', async () => {
    const { storage, setItem } = mapStorage();
    const threads = createThreadStore({
      chat: { request, batch: false, fetch: scriptedFetch(...answers('Paris.', 'Rome.')).fetch },
      persist: { name: 'app', storage },
    });
    await threads.restored;
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    await chat?.getState().send('Capital of France?');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const listWrites = () => setItem.mock.calls.filter(([key]) => key === 'app/threads');
    const before = listWrites().length;
    const texts = new Set(listWrites().map(([, value]) => value));
    await chat?.getState().regenerate();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = listWrites()
      .slice(before)
      .map(([, value]) => value);
    // A regenerate changes nothing the list saves: any write repeats a saved text.
    expect(
      after.filter(
        (value) => texts.has(value) || after.indexOf(value) !== after.lastIndexOf(value),
      ),
    ).toEqual([]);
  });
});
