// A client boundary, as the package's main entry is: the hook and the list run in the browser.
'use client';

/**
 * `@message-stream/react/threads`: many conversations, saved and listed. `createThreadStore`
 * keeps the list (titles, times, which one is open) and one chat store per conversation, each
 * persisted like `createChatStore({ persist })`; `ThreadList` is the sidebar that lists, opens,
 * renames and deletes them; `useThreadStore` reads the list in a component. A separate entry
 * because a single-conversation chat needs none of it.
 */
export { type RecentSection, ThreadList, type ThreadListProps } from './components/thread-list.js';
export { useThreadStore } from './hooks/use-thread-store.js';
export {
  createThreadStore,
  type ThreadChatOptions,
  type ThreadState,
  type ThreadStore,
  type ThreadStoreOptions,
  type ThreadSummary,
} from './store/create-thread-store.js';
