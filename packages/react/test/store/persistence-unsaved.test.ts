import 'fake-indexeddb/auto';
import * as idb from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import { unsavedKeyOf } from '../../src/store/effects/persistence.js';
import { scriptedFetch, sse, textAnswer } from './support.js';

vi.mock('idb-keyval', async (original) => {
  const actual = await original<typeof import('idb-keyval')>();
  return { ...actual, setMany: vi.fn(actual.setMany) };
});
const setMany = vi.mocked(idb.setMany);

const request = { model: 'claude-opus-5', max_tokens: 1024 };
let names = 0;
const uniqueName = () => `unsaved-${names++}`;

async function opened(name: string, ...answers: string[]) {
  const { fetch } = scriptedFetch(...answers.map((text) => () => sse(textAnswer(text))));
  const store = createChatStore({ request, fetch, batch: false, persist: { name } });
  await store.restored;
  return store;
}

/** Holds IndexedDB's next write until the returned function lets it land (a slow disk). */
function holdNextWrite(): () => void {
  let land: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    land = resolve;
  });
  setMany.mockImplementationOnce(async (...args) => {
    await held;
    return (await vi.importActual<typeof import('idb-keyval')>('idb-keyval')).setMany(...args);
  });
  return land;
}

const userTexts = (store: Awaited<ReturnType<typeof opened>>) =>
  store
    .getState()
    .turns.filter((t) => t.role === 'user')
    .map((t) => (typeof t.content === 'string' ? t.content : '[blocks]'));

describe('the turns the tab kept as the page went (sessionStorage), against what is stored', () => {
  it('a damaged rescue (no readable turn) does not wipe the stored conversation', async () => {
    const name = uniqueName();
    const first = await opened(name, 'Kept.');
    await first.getState().send('Question');
    await first.flush();
    first.dispose();
    // What the tab kept is damaged (another version of the kit, a partial write, an extension):
    // it names one turn whose record is not a turn.
    sessionStorage.setItem(
      unsavedKeyOf(name),
      JSON.stringify({ tree: { nodes: { x: 5 }, parents: { x: '__root__' } } }),
    );
    const reread = await opened(name);
    expect(userTexts(reread)).toEqual(['Question']);
    await reread.flush();
    reread.dispose();
    const later = await opened(name);
    // the stored conversation survives a bad rescue.
    expect(userTexts(later)).toEqual(['Question']);
    later.dispose();
  });

  it('a damaged kept record of a turn does not replace (and delete) its good stored record', async () => {
    const name = uniqueName();
    const first = await opened(name, 'Kept.');
    await first.getState().send('Question');
    await first.flush();
    const ids = first.getState().turns.map((t) => t.id);
    const tree = first.getState().tree;
    first.dispose();
    const parents = Object.fromEntries(
      ids.map((id) => [id, (tree.parents as Record<string, string>)[id]]),
    );
    // The rescue names both turns; its copy of the question is damaged.
    sessionStorage.setItem(
      unsavedKeyOf(name),
      JSON.stringify({
        tree: {
          nodes: { [ids[0] as string]: { id: ids[0], role: 'user', content: 42 } },
          parents,
          children: tree.children,
          selected: tree.selected,
        },
      }),
    );
    const reread = await opened(name);
    await reread.flush();
    reread.dispose();
    const later = await opened(name);
    expect(userTexts(later)).toEqual(['Question']);
    later.dispose();
  });

  it('the rescue is forgotten once the write that was under way when the page went lands', async () => {
    const name = uniqueName();
    const store = await opened(name, 'First.');
    await store.getState().send('Question');
    // A write under way (held) when the page goes: the tree is what it writes.
    const land = holdNextWrite();
    void store.flush();
    await vi.waitFor(() => expect(setMany).toHaveBeenCalled());
    window.dispatchEvent(new Event('pagehide'));
    expect(sessionStorage.getItem(unsavedKeyOf(name))).not.toBeNull();
    // bfcache: the page comes back, the write lands, nothing else changes.
    land();
    await store.flush();
    await new Promise((r) => setTimeout(r, 20));
    // storage holds everything the rescue held, so the tab keeps it no longer.
    expect(sessionStorage.getItem(unsavedKeyOf(name))).toBeNull();
    store.dispose();
  });

  it('a rescue older than what another tab saved since does not drop (and delete) the newer turns', async () => {
    const name = uniqueName();
    // Tab 1: a question answered; the page goes while a write is under way (as above), and
    // comes back; the rescue stays in tab 1's sessionStorage though all it holds is written.
    const tab1 = await opened(name, 'First.');
    await tab1.getState().send('One');
    const land = holdNextWrite();
    void tab1.flush();
    await vi.waitFor(() => expect(setMany).toHaveBeenCalled());
    window.dispatchEvent(new Event('pagehide'));
    land();
    await tab1.flush();
    tab1.dispose();
    const tab1Session = sessionStorage.getItem(unsavedKeyOf(name));
    // Tab 2 (its own sessionStorage) goes on with the conversation.
    sessionStorage.removeItem(unsavedKeyOf(name));
    const tab2 = await opened(name, 'Second.');
    expect(userTexts(tab2)).toEqual(['One']);
    await tab2.getState().send('Two');
    await tab2.flush();
    tab2.dispose();
    // Tab 1 is reloaded later.
    if (tab1Session !== null) sessionStorage.setItem(unsavedKeyOf(name), tab1Session);
    const reloaded = await opened(name);
    await reloaded.flush();
    reloaded.dispose();
    const later = await opened(name);
    // tab 2's turns are still there.
    expect(userTexts(later)).toEqual(['One', 'Two']);
    later.dispose();
  });
});
