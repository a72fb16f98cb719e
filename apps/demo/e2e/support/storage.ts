/**
 * What the page saved in its IndexedDB (the kit's `message-stream` database): read from the
 * page, so a test reloads only once what it is about to check was written.
 */
import type { Page } from 'playwright';

export interface SavedRecord {
  readonly key: string;
  readonly value: unknown;
}

/** Every record of the kit's database; none when the page has not saved anything yet. */
export function savedRecords(page: Page): Promise<SavedRecord[]> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    // Opening a database that does not exist would create it empty, without the kit's store.
    if (!names.includes('message-stream')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('message-stream');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('records')) return [];
      const store = db.transaction('records', 'readonly').objectStore('records');
      const read = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const [keys, values] = await Promise.all([read(store.getAllKeys()), read(store.getAll())]);
      return keys.map((key, index) => ({ key: String(key), value: values[index] as unknown }));
    } finally {
      db.close();
    }
  });
}

/** A saved turn, as far as the tests look into it. */
export interface SavedTurn {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly content?: unknown;
  readonly stream?: {
    readonly status: string;
    /** The live message: each block state holds the block as the API would return it. */
    readonly message: {
      readonly content: readonly { readonly block: { type: string; text?: string } }[];
    } | null;
  };
  readonly toolResults?: Readonly<Record<string, { readonly status: string }>>;
}

/** The saved turns of every conversation. */
export async function savedTurns(page: Page): Promise<SavedTurn[]> {
  return (await savedRecords(page))
    .filter((record) => record.key.includes('/turn/'))
    .map((record) => record.value as SavedTurn);
}

/** The text a saved answer has so far. */
export const savedText = (turn: SavedTurn): string =>
  (turn.stream?.message?.content ?? [])
    .map(({ block }) => (block.type === 'text' ? (block.text ?? '') : ''))
    .join('');
