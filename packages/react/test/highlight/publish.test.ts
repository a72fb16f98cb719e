import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A store that notifies its listeners when told to, as the chat store does once per frame. */
function fakeStore() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(log: string[]) {
      log.push('store');
      for (const listener of listeners) listener();
    },
    get listeners() {
      return listeners.size;
    },
  };
}

describe('highlight results reach React', () => {
  let frames: FrameRequestCallback[] = [];
  let clock = 0;
  const runFrame = () => {
    const due = frames;
    frames = [];
    for (const callback of due) callback(clock);
  };

  beforeEach(() => {
    vi.resetModules();
    frames = [];
    clock = 1000;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      frames.push(callback);
      return frames.length;
    });
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('inside the store notification while the store publishes, never in a frame of their own', async () => {
    const { publishWithStore, schedulePublish } = await import('../../src/highlight/publish.js');
    const store = fakeStore();
    const release = publishWithStore(store);
    const log: string[] = [];
    const emit = () => log.push('tokens');

    store.notify(log);
    schedulePublish(emit);
    // The next frame: the store has just published, so our own callback leaves it to the store.
    clock += 16;
    runFrame();
    expect(log).toEqual(['store']);
    // The store's notification carries the results: the same call, so the same React commit.
    store.notify(log);
    expect(log).toEqual(['store', 'store', 'tokens']);
    // Asked twice before a flush: handed over once.
    schedulePublish(emit);
    schedulePublish(emit);
    store.notify(log);
    expect(log.filter((entry) => entry === 'tokens')).toHaveLength(2);
    release();
    expect(store.listeners).toBe(0);
  });

  it('in a frame callback once the store has been quiet', async () => {
    const { flushWithStore, schedulePublish } = await import('../../src/highlight/publish.js');
    const log: string[] = [];
    flushWithStore();
    schedulePublish(() => log.push('tokens'));
    // Even a long frame is not a quiet store: it takes frames without a notification.
    clock += 200;
    runFrame();
    expect(log).toEqual([]);
    runFrame();
    runFrame();
    runFrame();
    expect(log).toEqual(['tokens']);
  });

  it('subscribes once per store however many answers ask', async () => {
    const { publishWithStore } = await import('../../src/highlight/publish.js');
    const store = fakeStore();
    const releases = [publishWithStore(store), publishWithStore(store), publishWithStore(store)];
    expect(store.listeners).toBe(1);
    for (const release of releases) release();
    expect(store.listeners).toBe(0);
  });
});
