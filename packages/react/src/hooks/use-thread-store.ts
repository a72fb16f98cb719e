import { useStore } from 'zustand';
import type { ThreadState, ThreadStore } from '../store/create-thread-store.js';

/**
 * The thread list and its actions, re-rendering on change; with a selector, only when the
 * selected value changes (`Object.is`).
 *
 * ```tsx
 * const activeId = useThreadStore(threads, (s) => s.activeId);
 * const chat = threads.getState().chatOf(activeId ?? undefined);
 * ```
 */
export function useThreadStore(store: ThreadStore): ThreadState;
export function useThreadStore<T>(store: ThreadStore, selector: (state: ThreadState) => T): T;
export function useThreadStore<T>(
  store: ThreadStore,
  selector?: (state: ThreadState) => T,
): T | ThreadState {
  return useStore(store, (selector ?? identity) as (state: ThreadState) => T | ThreadState);
}

const identity = (state: ThreadState): ThreadState => state;
