import 'fake-indexeddb/auto';
import { accumulate, type StreamState, toMessage, validateMessages } from '@message-stream/core';
import * as idb from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { type AssistantTurn, type ChatState, createChatStore } from '../../src/index.js';
import { clearPersisted, unsavedKeyOf } from '../../src/store/effects/persistence.js';
import { idbSetMany, turnKeyOf } from '../../src/store/idb.js';
import { fixture, mapStorage, offsetAfter, scriptedFetch, sse, textAnswer } from './support.js';

vi.mock('idb-keyval', async (original) => {
  const actual = await original<typeof import('idb-keyval')>();
  return { ...actual, setMany: vi.fn(actual.setMany) };
});
const setMany = vi.mocked(idb.setMany);

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const lastAnswer = (state: ChatState) =>
  state.turns.filter((t): t is AssistantTurn => t.role === 'assistant').at(-1) as AssistantTurn;
const textOf = (stream: StreamState) =>
  (toMessage(stream)?.content ?? [])
    .map((b) => (b.type === 'text' ? (b as { text: string }).text : ''))
    .join('');
let names = 0;
const uniqueName = () => `chat-${names++}`;

/** A store saving under `name` that gives `answers` in turn, once its saved state is read. */
async function savingStore(name: string, ...answers: string[]) {
  const { fetch } = scriptedFetch(...answers.map((text) => () => sse(textAnswer(text))));
  const store = createChatStore({ request, fetch, batch: false, persist: { name } });
  await store.restored;
  return store;
}

/** What is saved under `name`, read back by a new store. */
async function reopened(name: string) {
  const store = createChatStore({ request, batch: false, persist: { name } });
  await store.restored;
  return store;
}

/**
 * A thread of answered questions (one, "Question", unless given) saved in localStorage, its
 * record edited, then read back. The answers say "Kept." and then "Also kept.".
 */
async function rereadAfterEditing(
  edit: (
    saved: { state: { tree: { nodes: Record<string, Record<string, unknown>> } } },
    ids: string[],
  ) => void,
  questions = ['Question'],
) {
  const name = uniqueName();
  const first = createChatStore({
    request,
    fetch: scriptedFetch(
      () => sse(textAnswer('Kept.')),
      () => sse(textAnswer('Also kept.')),
    ).fetch,
    batch: false,
    persist: { name, storage: 'localstorage' },
  });
  await first.restored;
  for (const question of questions) await first.getState().send(question);
  await first.flush();
  const ids = first.getState().turns.map((turn) => turn.id);
  const saved = JSON.parse(localStorage.getItem(name) as string);
  edit(saved, ids);
  localStorage.setItem(name, JSON.stringify(saved));
  const onPersistError = vi.fn();
  const reread = createChatStore({
    request,
    batch: false,
    persist: { name, storage: 'localstorage' },
    onPersistError,
  });
  await reread.restored;
  return { reread, onPersistError };
}

describe('persistence in IndexedDB', () => {
  it('keeps every branch and a pending approval across a store re-creation', async () => {
    const name = uniqueName();
    const { fetch } = scriptedFetch(
      () => sse(textAnswer('Paris.')),
      () => sse(textAnswer('Rome.')),
      () => sse(fixture('spec-tool-use')),
    );
    const tools = { get_weather: { run: () => 'sunny', needsApproval: true } };
    const before = createChatStore({ request, fetch, batch: false, tools, persist: { name } });
    await before.restored;
    await before.getState().send('Capital of France?');
    await before.getState().edit(before.getState().turns[0]?.id as string, 'Capital of Italy?');
    await before.getState().send('Weather there?');
    expect(before.getState().status).toBe('awaiting-approval');
    await before.flush();

    const after = createChatStore({ request, batch: false, tools, persist: { name } });
    await after.restored;
    const state = after.getState();
    expect(state.tree).toEqual(JSON.parse(JSON.stringify(before.getState().tree)));
    expect(state.status).toBe('awaiting-approval');
    const first = state.turns[0]?.id as string;
    expect(state.branchesOf(first)).toEqual({ index: 1, count: 2 });
    after.getState().selectBranch(first, 0);
    expect(textOf(lastAnswer(after.getState()).stream)).toBe('Paris.');
  });

  it('saves what changed before the saved conversation was read back', async () => {
    const name = uniqueName();
    const store = createChatStore({ request, batch: false, persist: { name } });
    // At once, while IndexedDB is still being read: nothing was saved under this name.
    store.getState().setMessages([
      { role: 'user', content: 'Early question' },
      { role: 'assistant', content: [{ type: 'text', text: 'Early answer.' }] },
    ]);
    await store.restored;
    await store.flush();
    store.dispose();

    const reread = await reopened(name);
    expect(reread.getState().turns.map((turn) => turn.role)).toEqual(['user', 'assistant']);
    expect(reread.getState().turns[0]).toMatchObject({ content: 'Early question' });
  });

  it('ends a tool that was running at the reload with an error result the next message carries', async () => {
    const name = uniqueName();
    const { fetch } = scriptedFetch(() => sse(fixture('spec-tool-use')));
    const never = () => new Promise<never>(() => {});
    const tools = { get_weather: { run: never } };
    const before = createChatStore({ request, fetch, batch: false, tools, persist: { name } });
    await before.restored;
    void before.getState().send('Weather?');
    await vi.waitFor(() => expect(before.getState().status).toBe('running-tools'));
    await before.flush();
    before.dispose();

    const next = scriptedFetch(() => sse(textAnswer('Something else, then.')));
    const after = createChatStore({
      request,
      fetch: next.fetch,
      batch: false,
      tools,
      persist: { name },
    });
    await after.restored;
    const answer = lastAnswer(after.getState());
    const [id] = Object.keys(answer.toolResults);
    expect(answer.toolResults[id as string]).toEqual({
      status: 'error',
      content: 'The page was reloaded before the tool finished.',
      isError: true,
      endedBy: 'reload',
    });
    // Nothing is sent by itself on load; the next message answers the tool_use first.
    expect(next.requests).toHaveLength(0);
    await after.getState().send('Never mind.');
    const sent = next.requests[0]?.body.messages as { role: string; content: unknown }[];
    expect(sent.at(-1)?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: id,
        content: 'The page was reloaded before the tool finished.',
        is_error: true,
      },
      { type: 'text', text: 'Never mind.' },
    ]);
    expect(validateMessages(sent)).toEqual([]);
  });

  it('writes one turn at a time, not the whole conversation', async () => {
    const name = uniqueName();
    const store = await savingStore(name, 'One.', 'Two.');
    await store.getState().send('First');
    await store.flush();
    const firstTurns = store.getState().turns.map((turn) => `${name}/turn/${turn.id}`);
    setMany.mockClear();
    await store.getState().send('Second');
    await store.flush();
    const keys = setMany.mock.calls.flatMap(([entries]) => entries.map(([key]) => key));
    // The new question and answer, and the tree's shape; nothing of the first exchange.
    expect(keys.filter((key) => String(key).includes('/turn/'))).toHaveLength(2);
    for (const key of firstTurns) expect(keys).not.toContain(key);
    expect(keys).toContain(`${name}/meta`);
  });

  it('leaves the saved conversation as it was when a store is disposed before its read', async () => {
    const name = uniqueName();
    const { fetch } = scriptedFetch(
      () => sse(textAnswer('Paris.')),
      () => sse(textAnswer('Rome.')),
    );
    const first = createChatStore({ request, fetch, batch: false, persist: { name } });
    await first.restored;
    await first.getState().send('Capital of France?');
    await first.flush();
    first.dispose();

    // Opened and closed at once (a thread switched away from while it opened, StrictMode).
    const quick = createChatStore({ request, batch: false, persist: { name } });
    quick.dispose();
    await quick.restored;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = createChatStore({ request, fetch, batch: false, persist: { name } });
    await again.restored;
    expect(again.getState().turns.map((turn) => turn.role)).toEqual(['user', 'assistant']);

    // A message sent before the read settled is newer than what was stored: written once.
    const busy = createChatStore({ request, fetch, batch: false, persist: { name } });
    const sending = busy.getState().send('Capital of Italy?');
    busy.dispose();
    await busy.restored;
    await sending;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const last = await reopened(name);
    expect(last.getState().turns[0]).toMatchObject({ role: 'user', content: 'Capital of Italy?' });
    last.dispose();
    again.dispose();
  });

  it('never writes over a saved conversation it could not read, and reports the read', async () => {
    const name = uniqueName();
    const { saved, storage, setItem } = mapStorage(new Map([[name, '{"state": {"tree": oops']]));
    const onPersistError = vi.fn();
    const { fetch } = scriptedFetch(() => sse(textAnswer('Still here.')));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      persist: { name, storage },
      onPersistError,
    });
    await store.restored;
    await store.getState().send('Hi');
    await store.flush();
    expect(onPersistError).toHaveBeenCalledWith(expect.any(Error), { name, operation: 'read' });
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('Still here.');
    expect(setItem).not.toHaveBeenCalled();
    expect(saved.get(name)).toBe('{"state": {"tree": oops');
  });

  it('leaves out a damaged turn record and keeps the rest of the thread', async () => {
    const { reread, onPersistError } = await rereadAfterEditing((saved) => {
      // A record another version or app left behind: an assistant turn with no stream.
      saved.state.tree.nodes.broken = { id: 'broken', role: 'assistant', toolResults: 5 };
    });
    expect(onPersistError).not.toHaveBeenCalled();
    expect(textOf(lastAnswer(reread.getState()).stream)).toBe('Kept.');
    expect(reread.getState().tree.nodes.broken).toBeUndefined();
  });

  // An attack review: records of the right role but the wrong shape passed the check, then
  // threw later: in render (a user message's content an object), in send (an answer's content
  // not a list) or in the read itself (an interrupted one), which lost the whole thread; and a
  // damaged record in the middle cut the shown path there.
  it.each([
    [
      "a user message's content that is not text or a list",
      (nodes: Record<string, Record<string, unknown>>, ids: string[]) => {
        (nodes[ids[2] as string] as Record<string, unknown>).content = { text: 'hi' };
      },
    ],
    [
      "an answer's content that is not a list",
      (nodes: Record<string, Record<string, unknown>>, ids: string[]) => {
        const stream = nodes[ids[1] as string]?.stream as { message: { content: unknown } };
        stream.message.content = 'oops';
      },
    ],
    [
      'an answer cut off by a reload whose content is a list of nothing',
      (nodes: Record<string, Record<string, unknown>>, ids: string[]) => {
        const stream = nodes[ids[1] as string]?.stream as Record<string, unknown>;
        stream.status = 'streaming';
        stream.stopReceived = false;
        (stream.message as { content: unknown }).content = [null];
      },
    ],
    [
      'an answer with no stream',
      (nodes: Record<string, Record<string, unknown>>, ids: string[]) => {
        (nodes[ids[1] as string] as Record<string, unknown>).stream = null;
      },
    ],
  ])(
    'leaves out %s, keeps every turn after it on the shown path, and sends again',
    async (_, damage) => {
      const { reread, onPersistError } = await rereadAfterEditing(
        (saved, ids) => damage(saved.state.tree.nodes, ids),
        ['First question', 'Second question'],
      );
      expect(onPersistError).not.toHaveBeenCalled();
      const turns = reread.getState().turns;
      expect(turns).toHaveLength(3);
      expect(textOf(lastAnswer(reread.getState()).stream)).toBe('Also kept.');
      const { fetch } = scriptedFetch(() => sse(textAnswer('Sent.')));
      reread.setOptions({ request, fetch, batch: false });
      await reread.getState().send('Third question');
      expect(textOf(lastAnswer(reread.getState()).stream)).toBe('Sent.');
      expect(reread.getState().turns).toHaveLength(5);
    },
  );

  it('shows a denial, skip or stop saved by an earlier version as that, not as a failure', async () => {
    // Earlier versions saved these as plain errors, with the kit's own sentences.
    const plain = (content: string) => ({ status: 'error', content, isError: true });
    const { reread, onPersistError } = await rereadAfterEditing((saved) => {
      const answer = Object.values(saved.state.tree.nodes).find(
        (node) => (node as { role: string }).role === 'assistant',
      ) as { toolResults: Record<string, unknown> };
      answer.toolResults = {
        denied: plain('The user denied this tool call.'),
        skipped: plain('The user sent a new message instead.'),
        stopped: plain('Stopped before the tool finished.'),
        failed: plain('The weather service is down.'),
        damaged: null,
      };
    });
    expect(onPersistError).not.toHaveBeenCalled();
    const results = lastAnswer(reread.getState()).toolResults;
    expect(results.denied).toEqual({
      ...plain('The user denied this tool call.'),
      declined: 'denied',
    });
    expect(results.skipped).toEqual({
      ...plain('The user sent a new message instead.'),
      declined: 'skipped',
    });
    expect(results.stopped).toEqual({
      ...plain('Stopped before the tool finished.'),
      endedBy: 'stop',
    });
    // A real failure stays one, and a damaged entry is left out without failing the thread.
    expect(results.failed).toEqual(plain('The weather service is down.'));
    expect(Object.keys(results).sort()).toEqual(['denied', 'failed', 'skipped', 'stopped']);
    expect(textOf(lastAnswer(reread.getState()).stream)).toBe('Kept.');
  });

  // An attack review: one tool result with a BigInt made every later write throw, so nothing
  // of the conversation was saved again.
  it.each([
    ['indexeddb', undefined],
    ['localstorage', 'localstorage'],
  ] as const)(
    'saves a conversation whose tool result JSON cannot hold (%s)',
    async (_, storage) => {
      const name = uniqueName();
      const onPersistError = vi.fn();
      const cyclic: Record<string, unknown> = { place: 'Paris' };
      cyclic.self = cyclic;
      const { fetch, requests } = scriptedFetch(
        () => sse(fixture('spec-tool-use')),
        () => sse(textAnswer('It is sunny.')),
        () => sse(textAnswer('Second answer.')),
      );
      const persist = storage ? { name, storage } : { name };
      const store = createChatStore({
        request,
        fetch,
        batch: false,
        persist,
        onPersistError,
        onToolCall: () => ({ temperature: 21n, where: cyclic }),
      });
      await store.restored;
      await store.getState().send('Weather?');
      await store.getState().send('Thanks, and another question');
      await store.flush();
      expect(onPersistError).not.toHaveBeenCalled();
      // The API got the result as text, the BigInt as its digits.
      const toolResults = JSON.stringify(
        (requests[1]?.body.messages as unknown[] | undefined)?.at(-1),
      );
      expect(toolResults).toContain('\\"temperature\\":\\"21\\"');
      expect(toolResults).toContain('[Circular]');
      const reread = createChatStore({ request, batch: false, persist });
      await reread.restored;
      expect(reread.getState().turns.map((turn) => turn.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(textOf(lastAnswer(reread.getState()).stream)).toBe('Second answer.');
    },
  );

  it('reads the other turns when an IndexedDB turn record is null', async () => {
    const name = uniqueName();
    const store = await savingStore(name, 'Kept.', 'Also kept.');
    await store.getState().send('First question');
    await store.getState().send('Second question');
    await store.flush();
    // The first answer's record, in the kit's database, set to null.
    const answerId = store.getState().turns[1]?.id as string;
    await idbSetMany([[turnKeyOf(name, answerId), null]]);
    const onPersistError = vi.fn();
    const reread = createChatStore({ request, batch: false, persist: { name }, onPersistError });
    await reread.restored;
    expect(onPersistError).not.toHaveBeenCalled();
    expect(reread.getState().turns.map((turn) => turn.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('reports a failing write and keeps the conversation in memory', async () => {
    const name = uniqueName();
    const onPersistError = vi.fn();
    const { fetch } = scriptedFetch(() => sse(textAnswer('Kept.')));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      persist: { name },
      onPersistError,
    });
    await store.restored;
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    setMany.mockRejectedValueOnce(quota);
    await store.getState().send('Hi');
    await store.flush();
    expect(onPersistError).toHaveBeenCalledWith(quota, { name, operation: 'write' });
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('Kept.');
    // The next write sends what the failed one could not.
    const { fetch: again } = scriptedFetch(() => sse(textAnswer('And this.')));
    store.setOptions({ request, fetch: again, batch: false, persist: { name }, onPersistError });
    await store.getState().send('More');
    await store.flush();
    expect(onPersistError).toHaveBeenCalledTimes(1);
    const reread = await reopened(name);
    expect(reread.getState().turns.map((turn) => turn.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('gives the tab back what a reload cut the last write off from, then forgets it once written', async () => {
    const name = uniqueName();
    const text = fixture('text-pings');
    const { fetch } = scriptedFetch(() =>
      sse(text, { cutAt: offsetAfter(text, 'text_delta', 5), hang: true }),
    );
    const before = createChatStore({ request, fetch, batch: false, persist: { name } });
    await before.restored;
    void before.getState().send('Tell me');
    await vi.waitFor(() =>
      expect(textOf(lastAnswer(before.getState()).stream).length).toBeGreaterThan(5),
    );
    const shown = textOf(lastAnswer(before.getState()).stream);
    // The page goes (a reload): its last write is cut off, IndexedDB never finishes it.
    setMany.mockImplementationOnce(() => new Promise<void>(() => {}));
    window.dispatchEvent(new Event('pagehide'));
    expect(sessionStorage.getItem(unsavedKeyOf(name))).not.toBeNull();

    const after = await reopened(name);
    expect(after.getState().turns.map((turn) => turn.role)).toEqual(['user', 'assistant']);
    expect(textOf(lastAnswer(after.getState()).stream)).toBe(shown);
    expect(after.getState().status).toBe('interrupted');
    // Written to IndexedDB now, so the tab keeps it no longer: a later load reads it there.
    await after.flush();
    expect(sessionStorage.getItem(unsavedKeyOf(name))).toBeNull();
    after.dispose();
    const later = await reopened(name);
    expect(textOf(lastAnswer(later.getState()).stream)).toBe(shown);
    later.dispose();
    before.dispose();
  });

  it('keeps a reset the last write was cut off from: the next load of the tab starts empty', async () => {
    const name = uniqueName();
    const before = await savingStore(name, 'Kept.');
    await before.getState().send('Question');
    await before.flush();
    before.getState().reset();
    setMany.mockImplementationOnce(() => new Promise<void>(() => {}));
    window.dispatchEvent(new Event('pagehide'));
    const after = await reopened(name);
    expect(after.getState().turns).toEqual([]);
    await after.flush();
    after.dispose();
    expect((await reopened(name)).getState().turns).toEqual([]);
    before.dispose();
  });

  it('forgets what the tab kept of a conversation when it is deleted', async () => {
    const name = uniqueName();
    sessionStorage.setItem(
      unsavedKeyOf(name),
      JSON.stringify({ tree: { nodes: {}, parents: {} } }),
    );
    await clearPersisted(name, 'indexeddb');
    expect(sessionStorage.getItem(unsavedKeyOf(name))).toBeNull();
  });

  it('restores an answer cut off by a reload as interrupted on its branch, and resumes it', async () => {
    const name = uniqueName();
    const text = fixture('text-pings');
    const { fetch } = scriptedFetch(
      () => sse(textAnswer('A finished answer.')),
      () => sse(text, { cutAt: offsetAfter(text, 'text_delta', 5), hang: true }),
    );
    const before = createChatStore({ request, fetch, batch: false, persist: { name } });
    await before.restored;
    await before.getState().send('Tell me');
    void before.getState().regenerate();
    await vi.waitFor(() =>
      expect(textOf(lastAnswer(before.getState()).stream).length).toBeGreaterThan(5),
    );
    await before.flush();
    const cut = lastAnswer(before.getState()).id;
    // The user looks at the other branch before the page goes away.
    before.getState().selectBranch(cut, 0);
    await before.flush();
    before.dispose();

    const after = await reopened(name);
    expect(after.getState().status).toBe('complete');
    after.getState().selectBranch(cut, 1);
    expect(after.getState().status).toBe('interrupted');
    const partial = textOf(lastAnswer(after.getState()).stream);
    const full = textOf(await accumulate(text));
    const resumed = scriptedFetch(() => sse(textAnswer(full.slice(partial.length))));
    after.setOptions({ request, batch: false, persist: { name }, fetch: resumed.fetch });
    await after.getState().resume();
    expect(after.getState().status).toBe('complete');
    expect(lastAnswer(after.getState()).id).toBe(cut);
    expect(textOf(lastAnswer(after.getState()).stream)).toBe(full);
  });
});
