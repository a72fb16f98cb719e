/**
 * The IndexedDB records of persisted conversations (idb-keyval): one database, one object
 * store, keys `<name>/meta` and `<name>/turn/<id>`. Opened on first use, never at import.
 */
import { createStore, delMany, get, getMany, setMany, type UseStore } from 'idb-keyval';

let records: UseStore | null = null;
const recordStore = (): UseStore => {
  records ??= createStore('message-stream', 'records');
  return records;
};

export const idbGet = <T>(key: string): Promise<T | undefined> => get<T>(key, recordStore());
export const idbGetMany = <T>(keys: string[]): Promise<(T | undefined)[]> =>
  getMany<T>(keys, recordStore());
export const idbSetMany = (entries: [string, unknown][]): Promise<void> =>
  setMany(entries, recordStore());
export const idbDelMany = (keys: string[]): Promise<void> => delMany(keys, recordStore());
