import { useEffect, useState } from 'react';
import { loadOnce } from '../load-once.js';
import type { MarkdownPlugins } from '../markdown/plugins.js';

let loaded: MarkdownPlugins | null = null;
const mathChunk = loadOnce(() => import('./plugins.js'));

/**
 * Loads the math chunk (remark-math, rehype-katex, KaTeX and its CSS) once per page; null when
 * it cannot be loaded (asked for again by the next call).
 */
export function loadMathPlugins(): Promise<MarkdownPlugins | null> {
  return mathChunk().then(
    (module) => {
      loaded = module.mathPlugins;
      return loaded;
    },
    () => null,
  );
}

/**
 * The markdown plugins for math when `enabled`, or null: while the chunk loads (the text shows
 * its `$…$` as written, then typesets), when math is off, or when the chunk failed to load.
 */
export function useMathPlugins(enabled: boolean): MarkdownPlugins | null {
  const [plugins, setPlugins] = useState<MarkdownPlugins | null>(enabled ? loaded : null);
  useEffect(() => {
    // Off: nothing to load, and no state to touch (a commit of its own on every mount).
    if (!enabled) return;
    let live = true;
    void loadMathPlugins().then((value) => {
      if (live) setPlugins(value);
    });
    return () => {
      live = false;
    };
  }, [enabled]);
  return enabled ? (plugins ?? loaded) : null;
}
