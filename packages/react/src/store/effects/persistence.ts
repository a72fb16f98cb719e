/**
 * Persistence: the conversation saved as it changes and read back on creation.
 *
 * - IndexedDB (the default): one record per turn plus one small record of the tree's
 *   shape; a write sends only the turns whose object changed since the last write (turns
 *   are immutable, so identity says it), never the whole conversation.
 * - A string storage (`localStorage` or any `ChatPersistStorage`): the whole tree as one
 *   JSON value, for apps that want it; a synchronous storage restores synchronously.
 *
 * Writes are held back WRITE_DELAY_MS while state changes (a stream publishes ~60 states a
 * second) and the last one goes out when the page is hidden. A failing write is reported
 * (`onPersistError`) and never touches the conversation in memory; the next change tries
 * again with everything not yet written.
 *
 * That last write is asynchronous, and a reload does not wait for it: what it held (the end
 * of an answer streaming, a message just sent) was lost. So the page, as it goes, also puts
 * the turns not yet written in `sessionStorage` (synchronous, kept across a reload of the
 * tab); the next load of the tab adds them to what it read, and forgets them once they are
 * written.
 */
import { isPlainObject } from '@message-stream/core';
import { loadOnce } from '../../load-once.js';
import { idbDelMany, idbGet, idbSetMany, metaKeyOf, turnKeyOf } from '../idb.js';
import { jsonText } from '../json-text.js';
import type { ChatModel } from '../reducer.js';
import { draftKeyOf } from '../tab-keys.js';
import { setEntry } from '../tree.js';
import type { ChatPersistStorage, ConversationTree, PersistErrorInfo, Turn } from '../types.js';
import { isTurn, restoredTree } from './restore.js';

export const WRITE_DELAY_MS = 500;

export interface PersistenceHost {
  model(): ChatModel;
  subscribe(listener: () => void): () => void;
  /** Puts the restored tree in place (only while the conversation is still empty). */
  restore(tree: ConversationTree): void;
  report(error: unknown, operation: PersistErrorInfo['operation']): void;
}

export interface Persistence {
  /** Settles when the stored conversation was read (or there was none). */
  readonly restored: Promise<void>;
  /** Writes what is pending now. */
  flush(): Promise<void>;
  /** Stops writing (the store was disposed). */
  dispose(): void;
}

export interface Backend {
  /** The stored tree: synchronously when the storage can, else a promise. */
  read(): ConversationTree | null | Promise<ConversationTree | null>;
  write(model: ChatModel): Promise<void>;
}

/**
 * JSON-safe copy: tool inputs are read once, live parser state is not kept, and a value JSON
 * cannot hold (a tool result with a BigInt) is kept as text (`jsonText`), not thrown on.
 */
export const plain = <T>(value: T): T => JSON.parse(jsonText(value) ?? 'null') as T;

function stringBackend(name: string, storage: ChatPersistStorage): Backend {
  return {
    read() {
      const text = storage.getItem(name);
      const parse = (value: string | null) =>
        value === null ? null : restoredTree(JSON.parse(value));
      return text instanceof Promise ? text.then(parse) : parse(text);
    },
    async write(model) {
      await storage.setItem(name, jsonText({ state: { tree: model.tree }, version: 1 }) as string);
    },
  };
}

/**
 * The IndexedDB backend, from its own chunk (with idb-keyval): a page that saves nothing
 * never loads it, and one that does asks for it as the store is created.
 */
const indexedDbChunk = loadOnce(() => import('./indexeddb-backend.js'));

function indexedDbBackend(name: string): Backend {
  // One backend per store (it remembers what it wrote); a chunk that failed to load is asked
  // for again by the next read or write, not failed for the store's life.
  const backend = loadOnce(async () => (await indexedDbChunk()).indexedDbBackend(name));
  return {
    read: () => backend().then((loaded) => loaded.read()),
    write: (model) => backend().then((loaded) => loaded.write(model)),
  };
}

/** Where a page that goes keeps the turns it had not written yet, for the tab's next load. */
export const unsavedKeyOf = (name: string): string => `message-stream:unsaved:${name}`;

/** The tab's `sessionStorage`, or null where there is none or it may not be used. */
function tabStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // A sandboxed frame: reading the property throws.
    return null;
  }
}

/**
 * Keeps what `tree` holds that `written` does not (by identity: turns are immutable), with
 * the whole shape (ids only). A turn written and now gone means the conversation was replaced
 * (`reset`, `setMessages`): then all of it is kept, marked `replaced`, for the next load to
 * take as a whole. Best effort: a storage that is full or refused keeps nothing.
 */
function keepUnsaved(name: string, tree: ConversationTree, written: ConversationTree | null) {
  const replaced =
    written !== null && Object.keys(written.nodes).some((id) => !Object.hasOwn(tree.nodes, id));
  const nodes: Record<string, Turn> = {};
  for (const [id, turn] of Object.entries(tree.nodes)) {
    if (replaced || written?.nodes[id] !== turn) setEntry(nodes, id, turn);
  }
  try {
    tabStorage()?.setItem(
      unsavedKeyOf(name),
      jsonText({ tree: { ...tree, nodes }, replaced }) as string,
    );
  } catch {
    // Full (a turn with large files) or refused: the asynchronous write may still land.
  }
}

/** Removes what the tab keeps under `key`. */
function forgetInTab(key: string): void {
  try {
    tabStorage()?.removeItem(key);
  } catch {
    // Nothing kept, or storage refused: nothing to forget.
  }
}

const forgetUnsaved = (name: string): void => forgetInTab(unsavedKeyOf(name));

/** Whether the tab keeps words typed in a saved conversation and not sent. */
export function hasDraftInTab(name: string): boolean {
  try {
    return (tabStorage()?.getItem(draftKeyOf(name)) ?? '') !== '';
  } catch {
    return false;
  }
}

/** `record`'s own entries whose values pass `keep`. */
const ownEntries = <V>(record: unknown, keep: (value: unknown) => value is V): [string, V][] =>
  isPlainObject(record)
    ? Object.entries(record).filter((entry): entry is [string, V] => keep(entry[1]))
    : [];
const isString = (value: unknown): value is string => typeof value === 'string';
const isIndex = (value: unknown): value is number => Number.isInteger(value);
const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every(isString);

/**
 * The tree read from storage with the turns the page kept as it went (`keepUnsaved`) put in,
 * settled as any restored tree is (an answer that was streaming is interrupted); null when
 * none were kept or none of them can be read.
 *
 * Put in, not put instead: what was read keeps every turn the kept ones do not replace, and
 * each parent's children are the kept ones then those read (another tab may have saved turns
 * since, and a damaged kept record must never cost a good stored one). Only a conversation
 * kept as `replaced` is taken as a whole.
 */
function withUnsaved(name: string, read: ConversationTree | null): ConversationTree | null {
  let text: string | null | undefined;
  try {
    text = tabStorage()?.getItem(unsavedKeyOf(name));
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const value = JSON.parse(text) as { tree?: unknown; replaced?: unknown } | null;
    const kept = value?.tree;
    if (!isPlainObject(kept)) return null;
    const turns = ownEntries(kept.nodes, isTurn).filter(([id, turn]) => turn.id === id);
    const replaced = value?.replaced === true;
    if (turns.length === 0 && !replaced) return null;
    const base = replaced || read === null ? null : read;
    const nodes: Record<string, unknown> = { ...base?.nodes };
    const parents: Record<string, string> = { ...base?.parents };
    const children: Record<string, readonly string[]> = { ...base?.children };
    const selected: Record<string, number> = { ...base?.selected };
    for (const [id, turn] of turns) setEntry(nodes, id, turn);
    for (const [id, parent] of ownEntries(kept.parents, isString)) {
      if (Object.hasOwn(nodes, id)) setEntry(parents, id, parent);
    }
    for (const [id, list] of ownEntries(kept.children, isStringList)) {
      const known = list.filter((kid) => Object.hasOwn(nodes, kid));
      const stored = Object.hasOwn(children, id) ? (children[id] ?? []) : [];
      setEntry(children, id, [...known, ...stored.filter((kid) => !known.includes(kid))]);
    }
    for (const [id, index] of ownEntries(kept.selected, isIndex)) setEntry(selected, id, index);
    return restoredTree({ tree: { nodes, parents, children, selected } });
  } catch {
    return null;
  }
}

export type StorageChoice = ChatPersistStorage | 'indexeddb' | 'localstorage' | undefined;

/** Where `choice` keeps things: IndexedDB by default where the page has it, else localStorage. */
function resolveStorage(
  choice: StorageChoice,
):
  | { readonly kind: 'idb' }
  | { readonly kind: 'string'; readonly storage: ChatPersistStorage }
  | null {
  const hasIdb = typeof indexedDB !== 'undefined';
  if (choice === 'indexeddb' || (choice === undefined && hasIdb)) {
    return hasIdb ? { kind: 'idb' } : null;
  }
  if (choice === 'localstorage' || choice === undefined) {
    return typeof localStorage === 'undefined' ? null : { kind: 'string', storage: localStorage };
  }
  return { kind: 'string', storage: choice };
}

function backendFor(name: string, choice: StorageChoice): Backend | null {
  const target = resolveStorage(choice);
  if (target === null) return null;
  return target.kind === 'idb' ? indexedDbBackend(name) : stringBackend(name, target.storage);
}

export function startPersistence(
  host: PersistenceHost,
  name: string,
  choice: StorageChoice,
  began: ConversationTree = host.model().tree,
): Persistence {
  const backend = backendFor(name, choice);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;
  let writing: Promise<void> = Promise.resolve();
  let lastWritten: ConversationTree | null = null;
  /** The tree of the last write that landed: what storage surely holds. */
  let committed: ConversationTree | null = null;
  /** Writes started, and the first whose landing makes the kept unsaved turns redundant. */
  let writes = 0;
  let unsavedUntil = Number.POSITIVE_INFINITY;
  /** What storage held could not be read: nothing is written over it from here on. */
  let unreadable = false;

  /** Saving has begun: the stored conversation was read (writing before would replace it). */
  let begun = false;

  const write = (): Promise<void> => {
    if (backend === null || unreadable || !begun) return writing;
    const model = host.model();
    if (model.tree === lastWritten) return writing;
    lastWritten = model.tree;
    const number = ++writes;
    // One write at a time, in order: the diff of each builds on the one before.
    writing = writing.then(() =>
      backend.write(model).then(
        () => {
          committed = model.tree;
          // It holds what was kept when the page went (it began after): kept no longer.
          if (number >= unsavedUntil) {
            unsavedUntil = Number.POSITIVE_INFINITY;
            forgetUnsaved(name);
          }
        },
        (error: unknown) => {
          // Nothing is lost in memory; the next change writes again.
          lastWritten = null;
          host.report(error, 'write');
        },
      ),
    );
    return writing;
  };
  const flush = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    return disposed ? writing : write();
  };
  const schedule = () => {
    if (timer === null && !disposed) timer = setTimeout(() => void flush(), WRITE_DELAY_MS);
  };
  const onHide = () => {
    // What no write has landed with yet is kept for the tab's next load, synchronously: the
    // write that follows may not land before the page is gone.
    const tree = host.model().tree;
    if (backend !== null && begun && !unreadable && !disposed && tree !== committed) {
      keepUnsaved(name, tree, committed);
      // The write that holds this tree: the one under way when it already does (flush then
      // starts none), else the one flush starts now.
      unsavedUntil = tree === lastWritten ? writes : writes + 1;
    }
    void flush();
  };

  let unsubscribe = () => {};
  /**
   * What storage holds once the read settled: the restored tree, or (nothing restored) the
   * tree the store began with. Anything done before the read settled (a message sent at
   * once, `setMessages`) is newer than that and is written as soon as saving begins.
   */
  let stored = began;
  const begin = () => {
    if (disposed) return;
    begun = true;
    lastWritten = stored;
    committed = stored;
    unsubscribe = host.subscribe(() => {
      if (host.model().tree !== lastWritten) schedule();
    });
    if (host.model().tree !== lastWritten) schedule();
    if (typeof addEventListener === 'function') addEventListener('pagehide', onHide);
  };
  const apply = (read: ConversationTree | null) => {
    // A store disposed meanwhile is not changed any more.
    if (disposed) return;
    // With what the page kept as it went last time: then storage lacks it, and it is
    // written (then forgotten) as soon as saving begins.
    const unsaved = withUnsaved(name, read);
    const tree = unsaved ?? read;
    if (tree === null) return;
    const before = host.model().tree;
    host.restore(tree);
    // Not applied when a conversation began meanwhile: that one replaces what was stored,
    // and what was kept with it.
    if (host.model().tree === before) {
      if (unsaved !== null) forgetUnsaved(name);
      return;
    }
    if (unsaved === null) stored = host.model().tree;
    else unsavedUntil = 1;
  };

  let restored: Promise<void>;
  if (backend === null) {
    restored = Promise.resolve();
  } else {
    // A read that fails leaves saving off for this store: writing now would put this
    // conversation over the stored one nobody could read. It is reported; memory keeps working.
    const failed = (error: unknown) => {
      unreadable = true;
      host.report(error, 'read');
    };
    try {
      const read = backend.read();
      if (read instanceof Promise) {
        restored = read.then(apply).then(begin, failed);
      } else {
        apply(read);
        begin();
        restored = Promise.resolve();
      }
    } catch (error) {
      failed(error);
      restored = Promise.resolve();
    }
  }

  return {
    restored,
    flush,
    dispose() {
      // Disposed before the read settled: a conversation begun meanwhile (a message sent at
      // once) replaces what was stored, as it would have; an untouched one leaves it as it was.
      if (!begun && host.model().tree !== stored) {
        begun = true;
        lastWritten = null;
      }
      void flush();
      disposed = true;
      unsubscribe();
      if (typeof removeEventListener === 'function') removeEventListener('pagehide', onHide);
    },
  };
}

/**
 * Removes a persisted conversation (a deleted thread): its turns, its shape, what the tab kept
 * of it, and its unsent text.
 */
export async function clearPersisted(name: string, choice: StorageChoice): Promise<void> {
  // And what the tab kept of it as the page last went, not written yet; and the words typed
  // in it and not sent (the composer wrote them as it left the conversation).
  forgetUnsaved(name);
  forgetInTab(draftKeyOf(name));
  const target = resolveStorage(choice);
  if (target?.kind === 'string') return target.storage.removeItem(name);
  if (target === null) return;
  const meta = await idbGet<{ readonly ids?: unknown }>(metaKeyOf(name));
  const ids = Array.isArray(meta?.ids) ? meta.ids : [];
  await idbDelMany([metaKeyOf(name), ...ids.map((id) => turnKeyOf(name, id))]);
}

/** A small record beside the conversations (the thread list): read and written whole. */
export function recordStorage(name: string, choice: StorageChoice) {
  const target = resolveStorage(choice);
  if (target === null) return null;
  if (target.kind === 'idb') {
    return {
      read: () => idbGet<unknown>(name),
      write: (value: unknown) => idbSetMany([[name, plain(value)]]),
    };
  }
  const { storage } = target;
  return {
    read: async () => {
      const text = await storage.getItem(name);
      return text === null ? undefined : (JSON.parse(text) as unknown);
    },
    write: async (value: unknown) => {
      await storage.setItem(name, JSON.stringify(value));
    },
  };
}
