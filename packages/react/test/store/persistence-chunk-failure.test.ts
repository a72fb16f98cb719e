import { describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import { mapStorage, scriptedFetch, sse, textAnswer } from './support.js';

// Persistence (a chunk loaded on demand) cannot be loaded: offline, or a deploy that
// replaced it.
vi.mock('../../src/store/effects/persistence.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const request = { model: 'claude-opus-5', max_tokens: 1024 };

describe('persistence, when its chunk cannot be loaded', () => {
  it('is reported as a read that failed, writes nothing over storage, and the chat works', async () => {
    const { storage, setItem } = mapStorage(
      new Map([['chat', '{"state":{"tree":{}},"version":1}']]),
    );
    const onPersistError = vi.fn();
    const { fetch } = scriptedFetch(() => sse(textAnswer('Still answered.')));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      persist: { name: 'chat', storage },
      onPersistError,
    });
    await expect(store.restored).resolves.toBeUndefined();
    expect(onPersistError).toHaveBeenCalledWith(expect.any(Error), {
      name: 'chat',
      operation: 'read',
    });
    await store.getState().send('Hi');
    await expect(store.flush()).resolves.toBeUndefined();
    expect(store.getState().turns).toHaveLength(2);
    expect(setItem).not.toHaveBeenCalled();
    store.dispose();
  });
});
