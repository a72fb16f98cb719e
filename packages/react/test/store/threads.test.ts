import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { createThreadStore } from '../../src/threads.js';
import { fixture, mapStorage, offsetAfter, scriptedFetch, sse, textAnswer } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const answers = (...texts: string[]) => texts.map((text) => () => sse(textAnswer(text)));

describe('createThreadStore', () => {
  it('creates, titles from the first message, sorts by last activity, renames and deletes', async () => {
    const { fetch } = scriptedFetch(
      () => sse(textAnswer('Paris.')),
      () => sse(textAnswer('Rome.')),
      () => sse(textAnswer('Lisbon.')),
    );
    const threads = createThreadStore({ chat: { request, fetch, batch: false } });
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(1000);
    const a = threads.getState().newThread();
    expect(threads.getState().activeId).toBe(a);
    expect(threads.getState().threads.map((t) => t.title)).toEqual(['Untitled']);

    now.mockReturnValue(3000);
    await threads.getState().chatOf(a)?.getState().send('Capital of France?\nShort answer please.');
    now.mockReturnValue(2000);
    const b = threads.getState().newThread();
    expect(threads.getState().activeId).toBe(b);
    expect(threads.getState().threads.map((t) => [t.id, t.title])).toEqual([
      [a, 'Capital of France?'],
      [b, 'Untitled'],
    ]);
    now.mockReturnValue(4000);
    threads.getState().switchThread(b);
    await threads.getState().chatOf()?.getState().send('Capital of Italy?');
    expect(threads.getState().threads.map((t) => t.id)).toEqual([b, a]);

    threads.getState().renameThread(a, '  Geography  ');
    now.mockReturnValue(5000);
    await threads.getState().chatOf(a)?.getState().send('And Portugal?');
    // A name the user gave stays; activity still moves it up.
    expect(threads.getState().threads[0]).toMatchObject({ id: a, title: 'Geography' });

    threads.getState().deleteThread(b);
    expect(threads.getState().threads.map((t) => t.id)).toEqual([a]);
    expect(threads.getState().chatOf(b)).toBeNull();
    now.mockRestore();
  });

  it('shows the empty thread again instead of making another one', async () => {
    const { fetch } = scriptedFetch(() => sse(textAnswer('Paris.')));
    const threads = createThreadStore({ chat: { request, fetch, batch: false } });
    const now = vi.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1000);
      const first = threads.getState().newThread();
      // Pressed again and again: still the one empty thread.
      expect(threads.getState().newThread()).toBe(first);
      expect(threads.getState().newThread()).toBe(first);
      expect(threads.getState().threads.map((t) => t.id)).toEqual([first]);

      now.mockReturnValue(2000);
      await threads.getState().chatOf(first)?.getState().send('Capital of France?');
      const second = threads.getState().newThread();
      expect(second).not.toBe(first);
      // Shown elsewhere, the empty one is still the one a new conversation opens, at the top.
      threads.getState().switchThread(first);
      now.mockReturnValue(3000);
      expect(threads.getState().newThread()).toBe(second);
      expect(threads.getState().activeId).toBe(second);
      expect(threads.getState().threads.map((t) => [t.id, t.updatedAt])).toEqual([
        [second, 3000],
        [first, 2000],
      ]);

      // A name the user gave an empty thread makes it theirs: a new one is made beside it.
      threads.getState().renameThread(second, 'Ideas');
      const third = threads.getState().newThread();
      expect(new Set([first, second, third]).size).toBe(3);

      // A conversation emptied by reset() is empty again, and titled as new when reused.
      threads.getState().deleteThread(third);
      threads.getState().chatOf(first)?.getState().reset();
      expect(threads.getState().newThread()).toBe(first);
      expect(threads.getState().threads.find((t) => t.id === first)?.title).toBe('Untitled');
    } finally {
      now.mockRestore();
    }
  });

  it('keeps the title the first message gave when that message is edited or switched', async () => {
    const threads = createThreadStore({
      chat: { request, batch: false, fetch: scriptedFetch(...answers('Paris.', 'A haiku.')).fetch },
    });
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    await chat?.getState().send('Capital of France?');
    const title = () => threads.getState().threads.find((t) => t.id === id)?.title;
    expect(title()).toBe('Capital of France?');
    await chat?.getState().edit(chat.getState().turns[0]?.id as string, 'Write a haiku');
    expect(chat?.getState().turns[0]).toMatchObject({ role: 'user', content: 'Write a haiku' });
    expect(title()).toBe('Capital of France?');
    chat?.getState().selectBranch(chat.getState().turns[0]?.id as string, 0);
    expect(title()).toBe('Capital of France?');
  });

  it('marks a thread answering while its answer is under way, shown or not, and never saves the mark', async () => {
    const { saved, storage } = mapStorage();
    const threads = createThreadStore({
      chat: { request, batch: false, fetch: scriptedFetch(...answers('Paris.')).fetch },
      persist: { name: 'app', storage },
    });
    await threads.restored;
    const id = threads.getState().newThread();
    const marks: Array<boolean | undefined> = [];
    threads.subscribe((state) => {
      const mark = state.threads.find((t) => t.id === id)?.answering;
      if (mark !== marks.at(-1)) marks.push(mark);
    });
    const sent = threads.getState().chatOf(id)?.getState().send('Capital of France?');
    // Another thread shown while it answers: the mark stays on the one answering.
    threads.getState().newThread();
    await sent;
    expect(marks).toEqual([true, false]);
    await vi.waitFor(() => expect(saved.get('app/threads')).toContain('Capital of France?'));
    expect(saved.get('app/threads')).not.toContain('answering');
  });

  it('after a reload, reuses a saved empty thread once it was read back empty', async () => {
    const name = `threads-${Math.random().toString(36).slice(2)}`;
    const before = createThreadStore({ chat: { request, batch: false }, persist: { name } });
    await before.restored;
    const empty = before.getState().newThread();
    before.getState().chatOf(empty);
    await vi.waitFor(async () => {
      const after = createThreadStore({ chat: { request, batch: false }, persist: { name } });
      await after.restored;
      expect(after.getState().threads.map((t) => t.id)).toEqual([empty]);
      await after.getState().chatOf(empty)?.restored;
      expect(after.getState().newThread()).toBe(empty);
      expect(after.getState().threads).toHaveLength(1);
    });
    before.dispose();
  });

  /** A saved conversation with one answer, then New conversation and back to it, unused. */
  async function leaveAnEmptyThread() {
    const name = `threads-${Math.random().toString(36).slice(2)}`;
    const { fetch } = scriptedFetch(() => sse(textAnswer('Hello.')));
    const before = createThreadStore({ chat: { request, fetch, batch: false }, persist: { name } });
    await before.restored;
    const used = before.getState().newThread();
    await before.getState().chatOf(used)?.getState().send('Hi there');
    await before.getState().chatOf(used)?.flush();
    const left = before.getState().newThread();
    before.getState().switchThread(used);
    const reload = async () => {
      const after = createThreadStore({ chat: { request, batch: false }, persist: { name } });
      await after.restored;
      return after;
    };
    return { name, before, used, left, reload };
  }

  it('does not keep an empty thread left for another across a reload', async () => {
    const { before, used, left, reload } = await leaveAnEmptyThread();
    expect(before.getState().threads.map((t) => t.id)).toEqual([left, used]);
    await vi.waitFor(async () => {
      const after = await reload();
      expect(after.getState().threads.map((t) => [t.id, t.title])).toEqual([[used, 'Hi there']]);
      // New conversation after the reload makes one empty thread, not a second "Untitled".
      after.getState().newThread();
      expect(after.getState().threads.map((t) => t.title)).toEqual(['Untitled', 'Hi there']);
      after.dispose();
    });
    before.dispose();
  });

  it('keeps an empty thread left for another when the tab kept words typed in it', async () => {
    const { name, before, used, left, reload } = await leaveAnEmptyThread();
    // What the composer writes as it leaves the conversation (after the list was written).
    sessionStorage.setItem(`message-stream:draft:${name}/${left}`, 'Half a question');
    try {
      await vi.waitFor(async () => {
        const after = await reload();
        expect(after.getState().threads.map((t) => t.id)).toEqual([left, used]);
        after.dispose();
      });
    } finally {
      sessionStorage.clear();
      before.dispose();
    }
  });

  it('gives each thread the options made for its id', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('One.')),
      () => sse(textAnswer('Two.')),
    );
    const made: string[] = [];
    const threads = createThreadStore({
      chat: (threadId) => {
        made.push(threadId);
        return { request, fetch, batch: false, headers: { 'x-thread': threadId } };
      },
    });
    const a = threads.getState().newThread();
    await threads.getState().chatOf(a)?.getState().send('First');
    const b = threads.getState().newThread();
    await threads.getState().chatOf(b)?.getState().send('Second');
    expect(requests.map((r) => r.headers['x-thread'])).toEqual([a, b]);
    // Once per thread, when its store is first made.
    expect(made.filter((id) => id === a)).toHaveLength(1);
    expect(new Set(made)).toEqual(new Set([a, b]));
  });

  it('keeps streaming an answer in a thread switched away from', async () => {
    const text = fixture('long-markdown');
    const { fetch } = scriptedFetch(() =>
      sse(text, { cutAt: offsetAfter(text, 'text_delta', 120) }),
    );
    const threads = createThreadStore({ chat: { request, fetch, batch: false } });
    const first = threads.getState().newThread();
    const chat = threads.getState().chatOf(first);
    const sent = chat?.getState().send('Long answer');
    await vi.waitFor(() => expect(chat?.getState().status).toBe('streaming'));
    const other = threads.getState().newThread();
    expect(threads.getState().activeId).toBe(other);
    await sent;
    // It ran to its end (here the connection drops: interrupted, not aborted by the switch).
    expect(chat?.getState().status).toBe('interrupted');
    threads.getState().switchThread(first);
    expect(threads.getState().chatOf()).toBe(chat);
  });

  it('keeps the order by last activity across a reload: reading a thread back is no activity', async () => {
    const name = `threads-${Math.random().toString(36).slice(2)}`;
    const { fetch } = scriptedFetch(
      () => sse(textAnswer('Older.')),
      () => sse(textAnswer('Newer.')),
    );
    const now = vi.spyOn(Date, 'now');
    try {
      const before = createThreadStore({
        chat: { request, fetch, batch: false },
        persist: { name },
      });
      await before.restored;
      now.mockReturnValue(1000);
      const older = before.getState().newThread();
      await before.getState().chatOf(older)?.getState().send('Older question');
      now.mockReturnValue(2000);
      const newer = before.getState().newThread();
      await before.getState().chatOf(newer)?.getState().send('Newer question');
      // The older one is shown when the page goes away.
      before.getState().switchThread(older);
      await before.getState().chatOf(older)?.flush();
      await before.getState().chatOf(newer)?.flush();
      before.dispose();

      now.mockReturnValue(9000);
      await vi.waitFor(async () => {
        const after = createThreadStore({ chat: { request, batch: false }, persist: { name } });
        await after.restored;
        expect(after.getState().activeId).toBe(older);
        // Opening the shown thread reads its conversation back…
        const chat = after.getState().chatOf();
        await chat?.restored;
        expect(chat?.getState().turns).toHaveLength(2);
        // …which leaves it where it was: the newer thread stays first.
        expect(after.getState().threads.map((t) => [t.id, t.updatedAt])).toEqual([
          [newer, 2000],
          [older, 1000],
        ]);
      });
    } finally {
      now.mockRestore();
    }
  });

  it('keeps the threads and their conversations across a reload', async () => {
    const name = `threads-${Math.random().toString(36).slice(2)}`;
    const { fetch } = scriptedFetch(() => sse(textAnswer('Hello.')));
    const before = createThreadStore({ chat: { request, fetch, batch: false }, persist: { name } });
    await before.restored;
    const id = before.getState().newThread();
    const chat = before.getState().chatOf(id);
    await chat?.getState().send('Hi there');
    await chat?.flush();
    await vi.waitFor(async () => {
      const after = createThreadStore({ chat: { request, batch: false }, persist: { name } });
      await after.restored;
      expect(after.getState().threads.map((t) => [t.id, t.title])).toEqual([[id, 'Hi there']]);
      const restored = after.getState().chatOf(id);
      await restored?.restored;
      expect(restored?.getState().turns).toHaveLength(2);
    });
  });
  // An attack review: New conversation pressed before the saved list was read wrote a list of
  // that one thread, and every saved thread was gone from the list after the next reload.
  it('keeps the saved threads when one is made before the saved list was read', async () => {
    const name = `threads-${Math.random().toString(36).slice(2)}`;
    const { fetch } = scriptedFetch(
      () => sse(textAnswer('A.')),
      () => sse(textAnswer('B.')),
      () => sse(textAnswer('C.')),
    );
    const first = createThreadStore({ chat: { request, fetch, batch: false }, persist: { name } });
    await first.restored;
    for (const text of ['Trip to Lisbon', 'Recipe']) {
      const id = first.getState().newThread();
      await first.getState().chatOf(id)?.getState().send(text);
      await first.getState().chatOf(id)?.flush();
    }
    first.dispose();

    const second = createThreadStore({ chat: { request, fetch, batch: false }, persist: { name } });
    const made = second.getState().newThread();
    await second.restored;
    // The new thread stays the one shown, beside the saved ones.
    expect(second.getState().activeId).toBe(made);
    await second.getState().chatOf(made)?.getState().send('Weather');
    await second.getState().chatOf(made)?.flush();
    const titles = () => second.getState().threads.map((t) => t.title);
    expect(titles()).toEqual(['Weather', 'Recipe', 'Trip to Lisbon']);
    second.dispose();

    await vi.waitFor(async () => {
      const third = createThreadStore({ chat: { request, batch: false }, persist: { name } });
      await third.restored;
      expect(third.getState().threads.map((t) => t.title)).toEqual([
        'Weather',
        'Recipe',
        'Trip to Lisbon',
      ]);
      third.dispose();
    });
  });
});

describe('createThreadStore: a thread deleted while its message is being sent', () => {
  // An attack review: a message with files is read before it goes; deleting its thread during
  // the read still sent it afterwards, spending tokens on a conversation that was gone.
  it('sends nothing once its files are read', async () => {
    const { fetch, requests } = scriptedFetch(...answers('Read.'));
    const threads = createThreadStore({ chat: { request, fetch, batch: false } });
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    const notes = new File(['Some notes.'], 'notes.txt', { type: 'text/plain' });
    const sending = chat?.getState().send('Summarise these', { attachments: [notes] });
    threads.getState().deleteThread(id);
    await sending;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toHaveLength(0);
    expect(chat?.getState().turns).toEqual([]);
  });

  it('sends no new version of an answer asked for as the thread is deleted', async () => {
    const text = fixture('text-pings');
    const { fetch, requests } = scriptedFetch(
      () => sse(text, { cutAt: offsetAfter(text, 'text_delta', 5), hang: true }),
      ...answers('Again.'),
    );
    const threads = createThreadStore({ chat: { request, fetch, batch: false } });
    const id = threads.getState().newThread();
    const chat = threads.getState().chatOf(id);
    void chat?.getState().send('Tell me');
    await vi.waitFor(() => expect(chat?.getState().status).toBe('streaming'));
    // Regenerate waits for the streaming answer to settle; the thread is deleted meanwhile.
    const regenerating = chat?.getState().regenerate();
    threads.getState().deleteThread(id);
    await regenerating;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toHaveLength(1);
  });
});

describe('createThreadStore: a saved list that cannot be read', () => {
  it('is reported and never written over: the saved threads stay for a later read', async () => {
    const { saved, storage } = mapStorage(new Map([['app/threads', '{"state": not json']]));
    const onPersistError = vi.fn();
    const { fetch } = scriptedFetch(() => sse(textAnswer('Hello.')));
    const threads = createThreadStore({
      chat: { request, fetch, batch: false },
      persist: { name: 'app', storage },
      onPersistError,
    });
    await threads.restored;
    expect(onPersistError).toHaveBeenCalledWith(expect.any(Error), {
      name: 'app',
      operation: 'read',
    });
    const id = threads.getState().newThread();
    await threads.getState().chatOf(id)?.getState().send('Hi');
    // The conversation works in memory; the unreadable list is still what storage holds.
    expect(threads.getState().threads).toHaveLength(1);
    expect(saved.get('app/threads')).toBe('{"state": not json');
  });
});

describe('createThreadStore: a saved list with damaged records', () => {
  it('repairs titles and times, leaves out what names no thread, and keeps the rest', async () => {
    const saved = new Map([
      [
        'app/threads',
        JSON.stringify({
          threads: [
            { id: 'a', title: 'Kept', renamed: true, createdAt: 1, updatedAt: 5 },
            { id: 'b', title: 42, createdAt: 'yesterday', updatedAt: null },
            { title: 'no id' },
            'not a thread',
            { id: 'c', title: 'Newer', createdAt: 2, updatedAt: 9 },
          ],
          activeId: 'b',
        }),
      ],
    ]);
    const { storage } = mapStorage(saved);
    const threads = createThreadStore({
      chat: { request, batch: false },
      persist: { name: 'app', storage },
    });
    await threads.restored;
    expect(threads.getState().threads).toEqual([
      { id: 'c', title: 'Newer', renamed: false, createdAt: 2, updatedAt: 9 },
      { id: 'a', title: 'Kept', renamed: true, createdAt: 1, updatedAt: 5 },
      { id: 'b', title: 'Untitled', renamed: false, createdAt: 0, updatedAt: 0 },
    ]);
    expect(threads.getState().activeId).toBe('b');
  });
});
