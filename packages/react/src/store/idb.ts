/**
 * The IndexedDB records of persisted conversations (idb-keyval): one database, one object
 * store, keys `<name>/meta` and `<name>/turn/<id>`. idb-keyval is its own chunk, loaded and
 * the database opened on first use, never at import.
 */
import { loadOnce } from '../load-once.js';

/** The key of a conversation's record of its tree's shape. */
export const metaKeyOf = (name: string): string => `${name}/meta`;
/** The key of one turn of a conversation. */
export const turnKeyOf = (name: string, id: string): string => `${name}/turn/${id}`;

const records = loadOnce(() =>
  import('idb-keyval').then((keyval) => ({
    keyval,
    store: keyval.createStore('message-stream', 'records'),
  })),
);

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
