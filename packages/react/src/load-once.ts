/**
 * `load` run once and its promise shared by every call, for code loaded on demand (a dynamic
 * `import()`). A load that failed (offline, a deploy that replaced the chunk) is forgotten, so
 * the next call tries again instead of failing for the rest of the page's life.
 */
export function loadOnce<M>(load: () => Promise<M>): () => Promise<M> {
  let pending: Promise<M> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
