import { type ComponentType, type ReactElement, type ReactNode, useEffect, useState } from 'react';
import { whenPaintedAndIdle } from '../after-paint.js';
import { loadOnce } from '../load-once.js';

/** Waits before a mounted part asks again for a chunk that failed (then on `online` too). */
const RETRY_MS = [2_000, 10_000, 30_000] as const;

/** Parts whose code is one chunk loaded on demand, and the way to load it ahead of need. */
export interface LazyParts<M> {
  /**
   * A component that renders `fallback(props)` until the chunk has loaded, then the part
   * `pick` takes from it, with the same props. Once loaded, every part of the group renders
   * synchronously: no Suspense, no extra frame. The part replaces the fallback's elements, so a
   * fallback holds nothing focusable (focus in it would drop to the page) and takes the part's
   * size.
   */
  part<P extends object>(
    name: string,
    pick: (parts: M) => ComponentType<P>,
    fallback: (props: P) => ReactNode,
  ): (props: P) => ReactElement;
  /**
   * Starts loading the chunk (once; a failed load is tried again by the next call). Call it
   * when a part is about to be needed, so it is there by the time it is shown.
   */
  preload(): Promise<M>;
  /** Whether the chunk has loaded. */
  loaded(): boolean;
}

/**
 * Groups the parts one dynamic `import()` provides. A part shown before its chunk arrives
 * draws its fallback (the same frame and first line, so nothing jumps), asks for the chunk,
 * and draws itself when it lands. A chunk that fails to load (offline, a deploy that replaced
 * it) leaves the fallback, which says what it is, says so once in the console, and is tried
 * again: by a mounted part after a pause (2, 10, then every 30 s) or when the browser is back
 * online, and by the next part that mounts.
 */
export function lazyParts<M>(load: () => Promise<M>): LazyParts<M> {
  let parts: M | undefined;
  let warned = false;
  const preload = loadOnce(() =>
    load().then(
      (loaded) => {
        parts = loaded;
        return loaded;
      },
      (error: unknown) => {
        if (!warned) {
          warned = true;
          console.warn('message-stream: a part could not be loaded; it is tried again.', error);
        }
        throw error;
      },
    ),
  );

  const part = <P extends object>(
    name: string,
    pick: (loaded: M) => ComponentType<P>,
    fallback: (props: P) => ReactNode,
  ) => {
    // biome-ignore lint/correctness/noComponentHookFactories: made once per part at module level (never during a render), so each part is one stable component.
    function Part(props: P): ReactElement {
      const [arrived, setArrived] = useState<M | undefined>(parts);
      const [attempt, setAttempt] = useState(0);
      const current = parts ?? arrived;
      useEffect(() => {
        if (current !== undefined) return;
        let live = true;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const again = () => {
          if (live) setAttempt((n) => n + 1);
        };
        preload().then(
          (loaded) => {
            if (live) setArrived(loaded);
          },
          // The fallback stays; ask again after a pause, or as soon as the network is back.
          () => {
            if (!live) return;
            timer = setTimeout(again, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
            if (typeof addEventListener === 'function') addEventListener('online', again);
          },
        );
        return () => {
          live = false;
          if (timer !== undefined) clearTimeout(timer);
          if (typeof removeEventListener === 'function') removeEventListener('online', again);
        };
      }, [current, attempt]);
      if (current === undefined) return <>{fallback(props)}</>;
      const Loaded = pick(current);
      return <Loaded {...props} />;
    }
    Part.displayName = name;
    return Part;
  };

  groups.push(preload);
  return { part, preload, loaded: () => parts !== undefined };
}

/** Every group's preload, in the order the groups were made. */
const groups: (() => Promise<unknown>)[] = [];

/**
 * Loads every part this package loads on demand (what draws messages, the code block and its
 * highlighting, the citation markers and sources, the JSON view and the open tool card, the
 * server tool calls and results, the thread list, the stream details) now, instead of when first
 * shown: for tests that assert on the first render, or a server render that should draw them
 * in full. Rejects if a chunk cannot be loaded.
 *
 * ```ts
 * await preloadParts();
 * ```
 */
export async function preloadParts(): Promise<void> {
  // A chunk may make groups of its own (the messages' chunk holds the code block's): load
  // until a round finds no group it has not loaded.
  for (let loaded = 0; loaded < groups.length; ) {
    const round = groups.slice(loaded);
    loaded = groups.length;
    await Promise.all(round.map((preload) => preload()));
  }
}

let preloadingWhenIdle = false;

/**
 * Loads every on-demand part in an idle period after the page has painted (two frames), once:
 * the chat calls it as it mounts, so a part first shown mid-answer (a tool call, a search) is
 * drawn in full at once instead of its placeholder. A failed chunk is left to the part that
 * needs it (it asks again).
 */
export function preloadPartsWhenIdle(): void {
  if (preloadingWhenIdle) return;
  preloadingWhenIdle = true;
  whenPaintedAndIdle(() => void preloadParts().catch(() => {}));
}
