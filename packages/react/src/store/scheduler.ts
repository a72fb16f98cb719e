/**
 * Coalesces store notifications while a stream runs: many events, one update per frame.
 * The work itself (the reducer) has already happened for every event; only publishing it
 * is deferred, so nothing is dropped.
 */
export interface Scheduler {
  /** Ask for a flush: now (mode false), or once per frame / interval. */
  request(): void;
  cancel(): void;
}

/**
 * `periods`: how many frames (or intervals) the next flush waits, asked each time one ends;
 * one unless the caller spaces its updates out (see `framesBetweenUpdates`).
 */
export function createScheduler(
  mode: 'frame' | number | false,
  flush: () => void,
  periods: () => number = () => 1,
): Scheduler {
  let pending: { cancel(): void } | null = null;
  let waited = 0;
  const run = () => {
    pending = null;
    if (++waited < periods()) {
      pending = schedule();
      return;
    }
    waited = 0;
    flush();
  };
  const schedule = (): { cancel(): void } => {
    // requestAnimationFrame only exists in a page; timers stand in elsewhere (SSR, tests,
    // workers). Nothing is touched at import time.
    if (mode === 'frame' && typeof requestAnimationFrame === 'function') {
      const id = requestAnimationFrame(run);
      return { cancel: () => cancelAnimationFrame(id) };
    }
    const id = setTimeout(run, mode === 'frame' ? 16 : (mode as number));
    return { cancel: () => clearTimeout(id) };
  };
  return {
    request() {
      if (mode === false) return flush();
      if (pending === null) pending = schedule();
    },
    cancel() {
      pending?.cancel();
      pending = null;
      waited = 0;
    },
  };
}
