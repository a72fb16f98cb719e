/**
 * Many conversations, each its own chat store: new, switch, rename, delete, a title from
 * the first message, sorted by last activity.
 *
 * An answer streaming in a thread you switch away from KEEPS STREAMING: every thread is an
 * independent chat store, and switching only changes which one is shown. When you come
 * back it is finished (or still going); nothing is lost and nothing is stopped behind your
 * back. Call `chatOf(id).getState().stop()` to stop it yourself. Deleting a thread stops it.
 */
import { isPlainObject } from '@message-stream/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type ChatStore, createChatStore } from './create-chat-store.js';
import {
  clearPersisted,
  hasDraftInTab,
  recordStorage,
  type StorageChoice,
} from './effects/persistence.js';
import { nodeOf, turnCount } from './tree.js';
import type { ChatPersistStorage, ChatStoreOptions, PersistErrorInfo, Turn } from './types.js';

export interface ThreadSummary {
  readonly id: string;
  readonly title: string;
  /** Whether the user named it (else its title is its first message's, given once). */
  readonly renamed: boolean;
  readonly createdAt: number;
  /** When a turn was last added: the list is sorted by this, newest first. */
  readonly updatedAt: number;
  /**
   * An answer is under way in it (a request, a stream, its tools running), shown or not: the
   * list marks it. Not saved.
   */
  readonly answering?: boolean;
}

/** The statuses in which a conversation is answering (the chat store's own busy ones). */
const ANSWERING = new Set(['submitted', 'streaming', 'running-tools']);

/** A thread's chat store options: its persistence comes from the thread store's `persist`. */
export type ThreadChatOptions = Omit<ChatStoreOptions, 'persist' | 'initialMessages'>;

export interface ThreadStoreOptions {
  /**
   * Options of every thread's chat store; or a function of the thread's id giving them, for
   * what differs per thread (a header naming the conversation, say). A thread's store is made
   * when the thread is first shown.
   */
  readonly chat: ThreadChatOptions | ((threadId: string) => ThreadChatOptions);
  /**
   * Keep the threads across page loads: the list under `name`, each conversation under
   * `name/<thread id>`, in IndexedDB by default (see `ChatStoreOptions.persist`).
   */
  readonly persist?:
    | {
        readonly name: string;
        readonly storage?: ChatPersistStorage | 'indexeddb' | 'localstorage';
      }
    | false;
  readonly onPersistError?: (error: unknown, info: PersistErrorInfo) => void;
  /** A thread's title from its first message's text. Default: its first line, 60 characters at most. */
  readonly title?: (text: string) => string;
  /** The title of a thread with no message yet. Default "Untitled" (not the new-thread button's words, so the two never share a name). */
  readonly untitled?: string;
}

export interface ThreadState {
  /** Every thread, the most recently active first. */
  readonly threads: readonly ThreadSummary[];
  /** The thread shown, or null when there is none. */
  readonly activeId: string | null;
  /**
   * Shows an empty thread and returns its id: a thread that has no turns yet and was not
   * renamed, if there is one (the shown one first), moved to the top of the list as new;
   * otherwise a new thread. So pressing "New conversation" again and again shows one empty
   * conversation instead of piling up identical empty ones.
   */
  newThread(): string;
  /** Shows another thread (the one shown before keeps streaming, see the module comment). */
  switchThread(id: string): void;
  renameThread(id: string, title: string): void;
  /** Stops and deletes a thread and what was saved of it; shows the next most recent. */
  deleteThread(id: string): void;
  /** The chat store of a thread (default: the one shown), or null. */
  chatOf(id?: string): ChatStore | null;
}

export type ThreadStore = StoreApi<ThreadState> & {
  /** Settles once the saved thread list was read (at once without persistence). */
  readonly restored: Promise<void>;
  /** Stops every thread's stream and saving. */
  dispose(): void;
};

const firstLine = (text: string): string => {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
};

const textOfTurn = (turn: Turn | undefined): string => {
  if (turn?.role !== 'user') return '';
  if (typeof turn.content === 'string') return turn.content;
  return turn.content
    .map((block) => (block.type === 'text' ? String((block as { text?: unknown }).text ?? '') : ''))
    .join(' ');
};

/** A finite time, or 0 (a saved record from another version, or damaged). */
const timeOr0 = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/**
 * A saved thread summary as the list can show it, or null when it names no thread. Its title
 * and times are repaired rather than trusted: storage can hold anything.
 */
function savedSummary(value: unknown, untitled: string): ThreadSummary | null {
  if (!isPlainObject(value) || typeof value.id !== 'string' || value.id === '') return null;
  return {
    id: value.id,
    title: typeof value.title === 'string' && value.title !== '' ? value.title : untitled,
    renamed: value.renamed === true,
    createdAt: timeOr0(value.createdAt),
    updatedAt: timeOr0(value.updatedAt),
  };
}

const byActivity = (threads: ThreadSummary[]): ThreadSummary[] =>
  threads.sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);

let nextThread = 0;

export function createThreadStore(options: ThreadStoreOptions): ThreadStore {
  const persist = options.persist || null;
  const storageChoice: StorageChoice = persist?.storage;
  const list = persist ? recordStorage(`${persist.name}/threads`, storageChoice) : null;
  const chats = new Map<
    string,
    { store: ChatStore; unsubscribe: () => void; restoring: () => boolean }
  >();
  // Threads made here by newThread: nothing of them can be in storage.
  const made = new Set<string>();
  const untitled = options.untitled ?? 'Untitled';
  const titleOf = options.title ?? firstLine;
  const report = (error: unknown, operation: PersistErrorInfo['operation']) => {
    if (options.onPersistError)
      options.onPersistError(error, { name: persist?.name ?? '', operation });
    else console.warn('message-stream: the thread list could not be saved.', error);
  };

  const update = (id: string, change: (thread: ThreadSummary) => ThreadSummary) => {
    store.setState((state) => ({
      threads: byActivity(
        state.threads.map((thread) => (thread.id === id ? change(thread) : thread)),
      ),
    }));
  };

  const chatOf = (id: string): ChatStore | null => {
    const existing = chats.get(id);
    if (existing) return existing.store;
    if (!store.getState().threads.some((thread) => thread.id === id)) return null;
    const chat = createChatStore({
      ...(typeof options.chat === 'function' ? options.chat(id) : options.chat),
      persist: persist ? { name: `${persist.name}/${id}`, storage: persist.storage } : false,
      ...(options.onPersistError ? { onPersistError: options.onPersistError } : {}),
    });
    // A new tree each time a turn is added or replaced (a streaming answer, every frame);
    // counting its turns costs the same at any length (turnCount reads no whole record).
    let tree = chat.getState().tree;
    let count = turnCount(tree);
    // The saved conversation read back (opening a thread after a reload) is no activity:
    // the thread keeps its place in the list. (A message sent before the read finished,
    // within the first milliseconds, does not move the thread up either.)
    let restoring = persist !== null;
    const restoredNow = () => {
      restoring = false;
    };
    void chat.restored.then(restoredNow, restoredNow);
    let answering = false;
    // The turn whose message gave the title. While it is in the conversation (shown, or a
    // version beside an edit of it) the title stays: an edit of the first message is the same
    // conversation (it used to rename it). Gone (reset, setMessages), the next first message
    // titles it again.
    let titledBy: string | undefined;
    const unsubscribe = chat.subscribe((state) => {
      if (ANSWERING.has(state.status) !== answering) {
        answering = !answering;
        update(id, (thread) => ({ ...thread, answering }));
      }
      if (state.tree === tree) return;
      tree = state.tree;
      const nodes = turnCount(tree);
      const replaced = titledBy !== undefined && nodeOf(tree, titledBy) === undefined;
      if (nodes === count && !replaced) return;
      if (replaced) titledBy = undefined;
      const grew = nodes > count && !restoring;
      count = nodes;
      const first = state.turns[0];
      const text = textOfTurn(first);
      update(id, (thread) => {
        const updatedAt = grew ? Date.now() : thread.updatedAt;
        if (thread.renamed || titledBy !== undefined || first === undefined || text === '') {
          return { ...thread, updatedAt };
        }
        titledBy = first.id;
        // Read back, it keeps the title it was saved with (a message sent before the read
        // finished, in a thread saved untitled, gives one).
        const title =
          restoring && thread.title !== untitled ? thread.title : titleOf(text) || untitled;
        return { ...thread, title, updatedAt };
      });
    });
    chats.set(id, { store: chat, unsubscribe, restoring: () => restoring });
    return chat;
  };

  /**
   * A thread known to have no turn, and no name the user gave it. A saved thread whose
   * conversation was not read back yet is not known to be empty.
   */
  const isEmpty = (thread: ThreadSummary): boolean => {
    if (thread.renamed) return false;
    const chat = chats.get(thread.id);
    if (chat === undefined) return made.has(thread.id);
    if (!made.has(thread.id) && chat.restoring()) return false;
    return turnCount(chat.store.getState().tree) === 0;
  };

  const store = createStore<ThreadState>()((set, get) => ({
    threads: [],
    activeId: null,
    newThread() {
      const now = Date.now();
      const { threads, activeId } = get();
      const empty =
        threads.find((thread) => thread.id === activeId && isEmpty(thread)) ??
        threads.find(isEmpty);
      if (empty !== undefined) {
        // The new conversation asked for: titled and timed as new (a conversation emptied by
        // `reset()` kept its first message's title), and shown.
        update(empty.id, (thread) => ({
          ...thread,
          title: untitled,
          createdAt: now,
          updatedAt: now,
        }));
        set({ activeId: empty.id });
        return empty.id;
      }
      const id = `thread_${(nextThread++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      const thread: ThreadSummary = {
        id,
        title: untitled,
        renamed: false,
        createdAt: now,
        updatedAt: now,
      };
      made.add(id);
      set((state) => ({ threads: byActivity([thread, ...state.threads]), activeId: id }));
      return id;
    },
    switchThread(id) {
      if (get().threads.some((thread) => thread.id === id)) set({ activeId: id });
    },
    renameThread(id, title) {
      const trimmed = title.trim();
      if (trimmed === '') return;
      update(id, (thread) => ({ ...thread, title: trimmed, renamed: true }));
    },
    deleteThread(id) {
      const chat = chats.get(id);
      chat?.unsubscribe();
      chat?.store.dispose();
      chats.delete(id);
      made.delete(id);
      const threads = get().threads.filter((thread) => thread.id !== id);
      const activeId = get().activeId === id ? (threads[0]?.id ?? null) : get().activeId;
      set({ threads, activeId });
      if (persist) {
        // After its writes: one under way (or the one dispose started) would land after the
        // removal and put the thread back in storage.
        Promise.resolve(chat?.store.flush())
          .then(() => clearPersisted(`${persist.name}/${id}`, storageChoice))
          .catch((error: unknown) => report(error, 'remove'));
      }
    },
    chatOf: (id) => {
      const target = id ?? get().activeId;
      return target === null ? null : chatOf(target);
    },
  })) as ThreadStore;

  /**
   * A saved thread that was empty when the list was written, not the one shown, with no
   * words typed in it kept by the tab: left out of the list read back, its record removed.
   */
  const leftEmpty = (saved: unknown, activeId: unknown): boolean => {
    if (!isPlainObject(saved) || saved.empty !== true || saved.id === activeId) return false;
    const name = `${persist?.name}/${String(saved.id)}`;
    if (hasDraftInTab(name)) return false;
    clearPersisted(name, storageChoice).catch((error: unknown) => report(error, 'remove'));
    return true;
  };

  let restored: Promise<void> = Promise.resolve();
  if (list !== null) {
    restored = list
      .read()
      .then((saved) => {
        const value = saved as { threads?: unknown[]; activeId?: string | null } | undefined;
        if (!Array.isArray(value?.threads)) return;
        // Threads made before the read settled (New conversation pressed at once) join the
        // saved ones: the list written next must still name every saved thread.
        const current = store.getState();
        const made = new Set(current.threads.map((t) => t.id));
        const threads = byActivity([
          ...current.threads,
          ...value.threads
            .filter((t) => !leftEmpty(t, value.activeId))
            .map((t) => savedSummary(t, untitled))
            .filter((t): t is ThreadSummary => t !== null && !made.has(t.id)),
        ]);
        const activeId =
          current.activeId ??
          (threads.some((t) => t.id === value.activeId)
            ? (value.activeId as string)
            : (threads[0]?.id ?? null));
        store.setState({ threads, activeId });
      })
      // Saving begins only after a good read: after a failed one, writing the list would
      // put it over the saved threads nobody could read (they stay in storage, reported).
      .then(
        () => {
          // What was last written: a change of what is not saved (`answering`) writes nothing.
          let written = '';
          store.subscribe((state, previous) => {
            if (state.threads === previous.threads && state.activeId === previous.activeId) return;
            // An empty conversation left for another is marked so: after a reload nothing
            // could tell it was empty before it was opened, and each reload left another
            // "Untitled". The read leaves it out unless the tab kept words typed in it.
            const saved = {
              threads: state.threads.map(({ answering: _now, ...kept }) =>
                kept.id !== state.activeId && isEmpty(kept) ? { ...kept, empty: true } : kept,
              ),
              activeId: state.activeId,
            };
            const text = JSON.stringify(saved);
            if (text === written) return;
            written = text;
            list.write(saved).catch((error: unknown) => report(error, 'write'));
          });
        },
        (error: unknown) => report(error, 'read'),
      );
  }

  Object.assign(store, {
    restored,
    dispose() {
      for (const { store: chat, unsubscribe } of chats.values()) {
        unsubscribe();
        chat.dispose();
      }
      chats.clear();
      // Their conversations are no longer read: none is known to be empty, so none is marked
      // so in the list the next lines write.
      made.clear();
      // Stopped, no thread answers any more (their stores no longer say so).
      store.setState((state) => ({
        threads: state.threads.map(({ answering: _stopped, ...thread }) => thread),
      }));
    },
  });
  return store;
}
