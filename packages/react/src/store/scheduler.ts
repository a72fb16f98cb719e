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

export function createScheduler(mode: 'frame' | number | false, flush: () => void): Scheduler {
  let pending: { cancel(): void } | null = null;
  const run = () => {
    pending = null;
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
    },
  };
}
