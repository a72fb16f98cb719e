import { type ComponentType, type ReactElement, type ReactNode, useEffect, useState } from 'react';

/** Parts whose code is one chunk loaded on demand, and the way to load it ahead of need. */
export interface LazyParts<M> {
  /**
   * A component that renders `fallback(props)` until the chunk has loaded, then the part
   * `pick` takes from it, with the same props. Once loaded, every part of the group renders
   * synchronously: no Suspense, no extra frame.
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
 * and draws itself when it lands. A chunk that fails to load (offline) leaves the fallback,
 * which says what it is, and is tried again when the next part mounts.
 */
export function lazyParts<M>(load: () => Promise<M>): LazyParts<M> {
  let parts: M | undefined;
  let pending: Promise<M> | undefined;
  const preload = (): Promise<M> => {
    pending ??= load().then(
      (loaded) => {
        parts = loaded;
        return loaded;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };

  const part = <P extends object>(
    name: string,
    pick: (loaded: M) => ComponentType<P>,
    fallback: (props: P) => ReactNode,
  ) => {
    // biome-ignore lint/correctness/noComponentHookFactories: made once per part at module level (never during a render), so each part is one stable component.
    function Part(props: P): ReactElement {
      const [arrived, setArrived] = useState<M | undefined>(parts);
      const current = parts ?? arrived;
      useEffect(() => {
        if (current !== undefined) return;
        let live = true;
        preload().then(
          (loaded) => {
            if (live) setArrived(loaded);
          },
          // The fallback stays; the next mount tries again.
          () => {},
        );
        return () => {
          live = false;
        };
      }, [current]);
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
 * Loads every part this package loads on demand (the JSON view and the open tool card, the
 * server tool results, the thread list) now, instead of when first shown: for tests that
 * assert on the first render, or a server render that should draw them in full. Rejects if a
 * chunk cannot be loaded.
 *
 * ```ts
 * await preloadParts();
 * ```
 */
export async function preloadParts(): Promise<void> {
  await Promise.all(groups.map((preload) => preload()));
}
