import type { StorageValue, PersistStorage as ZustandPersistStorage } from 'zustand/middleware';
import type { ChatPersistStorage } from './types.js';

/** How long writes are held back while state changes (frames of a stream arrive ~60/s). */
const WRITE_DELAY_MS = 500;

/**
 * Where a conversation is saved, written at most once per WRITE_DELAY_MS: zustand's own
 * JSON storage serializes the whole conversation on every change, i.e. every frame of a
 * stream. A full or failing storage never breaks the store: the write is skipped and
 * reported once on the console. The last pending write goes out when the page is hidden.
 */
export function throttledStorage<T>(
  getStorage: () => ChatPersistStorage | undefined,
): ZustandPersistStorage<T> {
  let pending: { name: string; value: StorageValue<T> } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let warned = false;

  const write = () => {
    timer = null;
    const next = pending;
    pending = null;
    if (!next) return;
    try {
      void Promise.resolve(getStorage()?.setItem(next.name, JSON.stringify(next.value))).catch(
        warn,
      );
    } catch (error) {
      warn(error);
    }
  };
  const warn = (error: unknown) => {
    if (warned) return;
    warned = true;
    console.warn('message-stream: the conversation could not be saved.', error);
  };
  if (typeof addEventListener === 'function') addEventListener('pagehide', write);

  return {
    getItem(name) {
      try {
        const read = (text: string | null): StorageValue<T> | null =>
          text === null ? null : (JSON.parse(text) as StorageValue<T>);
        const value = getStorage()?.getItem(name) ?? null;
        return value instanceof Promise ? value.then(read, () => null) : read(value);
      } catch {
        return null;
      }
    },
    setItem(name, value) {
      pending = { name, value };
      if (timer === null) timer = setTimeout(write, WRITE_DELAY_MS);
    },
    removeItem(name) {
      pending = null;
      try {
        void Promise.resolve(getStorage()?.removeItem(name)).catch(warn);
      } catch (error) {
        warn(error);
      }
    },
  };
}
