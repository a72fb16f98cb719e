import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { type ChatStore, createChatStore } from '../store/create-chat-store.js';
import type { AssistantTurn, ChatActions, ChatState, ChatStoreOptions } from '../store/types.js';

/** What `useMessageStream` returns without a selector. */
export interface MessageStreamView extends ChatActions {
  readonly turns: ChatState['turns'];
  /** Every branch of the conversation (`turns` is its shown path). */
  readonly tree: ChatState['tree'];
  /** The last answer (live while it streams), or null before the first one. */
  readonly answer: AssistantTurn | null;
  readonly status: ChatState['status'];
  readonly error: ChatState['error'];
  /** The store behind the view, to share with other components. */
  readonly store: ChatStore;
}

const isStore = (value: unknown): value is ChatStore =>
  typeof (value as ChatStore | null)?.getState === 'function' &&
  typeof (value as ChatStore).subscribe === 'function';

/** Keeps one store per component, created from options on first render. */
function useChatStore(source: ChatStoreOptions | ChatStore): ChatStore {
  const [own] = useState<ChatStore | null>(() =>
    isStore(source) ? null : createChatStore(source),
  );
  const store = isStore(source) ? source : (own as ChatStore);
  // Callbacks and transport options may change between renders; the store reads the latest.
  useEffect(() => {
    if (!isStore(source)) store.setOptions(source);
  });
  return store;
}

function view(state: ChatState, store: ChatStore): MessageStreamView {
  let answer: AssistantTurn | null = null;
  for (let i = state.turns.length - 1; i >= 0; i--) {
    const turn = state.turns[i];
    if (turn?.role === 'assistant') {
      answer = turn;
      break;
    }
  }
  return {
    turns: state.turns,
    tree: state.tree,
    answer,
    status: state.status,
    error: state.error,
    send: state.send,
    stop: state.stop,
    resume: state.resume,
    retry: state.retry,
    continueAnswer: state.continueAnswer,
    approveToolCall: state.approveToolCall,
    denyToolCall: state.denyToolCall,
    edit: state.edit,
    regenerate: state.regenerate,
    branchesOf: state.branchesOf,
    selectBranch: state.selectBranch,
    addToolResult: state.addToolResult,
    setMessages: state.setMessages,
    reset: state.reset,
    store,
  };
}

/**
 * The conversation, the live answer, its status and error, and the actions. Pass options
 * to get a store of this component's own, or a store to share one. With a selector, the
 * component re-renders only when the selected value changes (compare with `Object.is`; wrap
 * object-returning selectors in zustand's `useShallow`).
 */
export function useMessageStream(source: ChatStoreOptions | ChatStore): MessageStreamView;
export function useMessageStream<T>(
  source: ChatStoreOptions | ChatStore,
  selector: (state: ChatState) => T,
): T;
export function useMessageStream<T>(
  source: ChatStoreOptions | ChatStore,
  selector?: (state: ChatState) => T,
): T | MessageStreamView {
  const store = useChatStore(source);
  const selected = useStore(store, (selector ?? identity) as (state: ChatState) => T | ChatState);
  const [cache] = useState(() => new WeakMap<ChatState, MessageStreamView>());
  if (selector) return selected as T;
  const state = selected as ChatState;
  // The same state gives the same view object, so memoized children can bail out.
  let result = cache.get(state);
  if (result === undefined) {
    result = view(state, store);
    cache.set(state, result);
  }
  return result;
}

const identity = (state: ChatState): ChatState => state;
