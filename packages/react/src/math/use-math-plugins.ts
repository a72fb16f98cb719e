import { useEffect, useState } from 'react';
import type { MarkdownPlugins } from '../markdown/plugins.js';

let loaded: MarkdownPlugins | null = null;
let loading: Promise<MarkdownPlugins | null> | null = null;

/** Loads the math chunk (remark-math, rehype-katex, KaTeX and its CSS) once per page. */
export function loadMathPlugins(): Promise<MarkdownPlugins | null> {
  loading ??= import('./plugins.js').then(
    (module) => {
      loaded = module.mathPlugins;
      return loaded;
    },
    () => null,
  );
  return loading;
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
