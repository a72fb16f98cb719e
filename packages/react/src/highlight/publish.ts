import { createScheduler } from '../store/scheduler.js';

/**
 * Highlighting results reach React at most once per frame, and in the same commit as the
 * stream's own update when one is coming: a result that arrives in its own task and commits on
 * its own would be a second commit in that frame.
 *
 * While a chat store publishes (once per frame while an answer streams), pending results are
 * handed over inside its notification, so React renders them in the store's commit. When the
 * store has been quiet for a few frames, a frame callback of our own hands them over.
 */

/**
 * Frames without a store notification before results commit on their own. Counted in frames,
 * not milliseconds: a long frame while the answer streams must not look like a quiet store.
 */
const QUIET_FRAMES = 3;

const pending = new Set<() => void>();
/** Our frame callbacks since the store last notified (a large number: it never has). */
let quietFrames = QUIET_FRAMES;

/** Hands `emit` over with the next flush (once, however often it is asked for). */
export function schedulePublish(emit: () => void): void {
  pending.add(emit);
  frame.request();
}

/** Hands every pending result over now. */
export function flushPublishes(): void {
  if (pending.size === 0) return;
  const list = [...pending];
  pending.clear();
  for (const emit of list) emit();
}

/** Called inside a store's notification: pending results join the commit it starts. */
export function flushWithStore(): void {
  quietFrames = 0;
  flushPublishes();
}

/** Our frame callback: hands results over once the store has been quiet long enough. */
const frame = createScheduler('frame', () => {
  if (pending.size === 0) return;
  quietFrames++;
  // The store is publishing: its next notification (within a frame) carries the results.
  if (quietFrames <= QUIET_FRAMES) frame.request();
  else flushPublishes();
});

interface Subscribable {
  subscribe(listener: () => void): () => void;
}

const stores = new WeakMap<Subscribable, { count: number; unsubscribe: () => void }>();

/**
 * Makes `store`'s notifications carry highlighting results (one subscription per store, however
 * many messages ask). Returns the release.
 */
export function publishWithStore(store: Subscribable): () => void {
  let entry = stores.get(store);
  if (entry === undefined) {
    entry = { count: 0, unsubscribe: store.subscribe(flushWithStore) };
    stores.set(store, entry);
  }
  entry.count++;
  const held = entry;
  return () => {
    held.count--;
    if (held.count === 0) {
      held.unsubscribe();
      stores.delete(store);
    }
  };
}
