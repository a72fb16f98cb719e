import { useSyncExternalStore } from 'react';

/**
 * The main pointer is a finger (a phone, a tablet): no hardware keyboard to rely on, so Enter
 * is a new line (there is no Shift+Enter) and nothing takes focus unasked (it opens the
 * keyboard over the page).
 */
export const touchFirst = (): boolean =>
  typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

/** Follows `touchFirst` (a tablet's keyboard attached or taken off). */
const onPointerChange = (changed: () => void): (() => void) => {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia('(pointer: coarse)');
  query.addEventListener?.('change', changed);
  return () => query.removeEventListener?.('change', changed);
};

/** A server cannot know the pointer: it renders for a keyboard, and hydration starts there. */
const onServer = (): boolean => false;

/** `touchFirst` in a render: false on the server and while hydrating, then the browser's. */
export const useTouchFirst = (): boolean =>
  useSyncExternalStore(onPointerChange, touchFirst, onServer);
