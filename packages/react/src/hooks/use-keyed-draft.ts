import { useCallback, useReducer, useRef, useState } from 'react';

/**
 * What is being written and not sent yet, kept in `drafts` by key (a conversation's store,
 * else the component's own key) rather than in component state: the key can change under a
 * mounted component (another conversation shown), and what belongs to one key must never be
 * filed under another, nor be lost when its component unmounts (a file read after a switch).
 * Gives the value for the current key, `update(change, key?)` (the current key by default;
 * re-renders), and `keyNow()`, to read the key before waiting for something that comes back
 * later, and update that key's value then.
 */
export function useKeyedDraft<T>(
  drafts: WeakMap<object, T>,
  draftKey: object | undefined,
  empty: T,
) {
  const [own] = useState({});
  const key = useRef(own);
  key.current = draftKey ?? own;
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const update = useCallback(
    (change: (current: T) => T, target = key.current) => {
      drafts.set(target, change(drafts.get(target) ?? empty));
      changed();
    },
    [drafts, empty],
  );
  const keyNow = useCallback(() => key.current, []);
  return [drafts.get(key.current) ?? empty, update, keyNow] as const;
}
