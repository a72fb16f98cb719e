/**
 * The IndexedDB records of persisted conversations (idb-keyval): one database, one object
 * store, keys `<name>/meta` and `<name>/turn/<id>`. idb-keyval is its own chunk, loaded and
 * the database opened on first use, never at import.
 */
import type { UseStore } from 'idb-keyval';

type Keyval = typeof import('idb-keyval');

let opened: Promise<{ readonly keyval: Keyval; readonly store: UseStore }> | null = null;
const records = () => {
  opened ??= import('idb-keyval').then(
    (keyval) => ({ keyval, store: keyval.createStore('message-stream', 'records') }),
    (error: unknown) => {
      // A chunk that failed to load is asked for again by the next call.
      opened = null;
      throw error;
    },
  );
  return opened;
};

export const idbGet = async <T>(key: string): Promise<T | undefined> => {
  const { keyval, store } = await records();
  return keyval.get<T>(key, store);
};
export const idbGetMany = async <T>(keys: string[]): Promise<(T | undefined)[]> => {
  const { keyval, store } = await records();
  return keyval.getMany<T>(keys, store);
};
export const idbSetMany = async (entries: [string, unknown][]): Promise<void> => {
  const { keyval, store } = await records();
  return keyval.setMany(entries, store);
};
export const idbDelMany = async (keys: string[]): Promise<void> => {
  const { keyval, store } = await records();
  return keyval.delMany(keys, store);
};
