import {
  type ContentBlockParam,
  createStreamError,
  isFinalStatus,
  type MessageParam,
  prepareMessagesJson,
} from '@message-stream/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { loadAttachments } from './attachments-loader.js';
import { alternate, answerFromMessage, toMessageParam } from './conversation.js';
import { type EffectContext, Flight, type StreamedAnswer } from './effects/context.js';
import { continueInPlace } from './effects/continuation.js';
import { continuePausedTurn, continuesPausedTurn } from './effects/pause-turn.js';
import type { Persistence } from './effects/persistence.js';
import { startPersistenceLater } from './effects/persistence-loader.js';
import { startAnswer } from './effects/streaming.js';
import {
  addToolResult,
  approveToolCall,
  denyToolCall,
  preloadToolRuns,
  runToolsOf,
  settleBeforeNewMessage,
  storeRunsTools,
} from './effects/tool-loop.js';
import { nextTask } from './next-task.js';
import { type ChatAction, type ChatModel, chatReducer, initialModel } from './reducer.js';
import { branchInfo, linearTree, nodeOf, parentOf, ROOT, turnCount } from './tree.js';
import type {
  AssistantTurn,
  ChatState,
  ChatStoreOptions,
  ConversationTree,
  Turn,
  UserTurn,
} from './types.js';

/** A store for one conversation. Several stores on one page are independent. */
export type ChatStore = StoreApi<ChatState> & {
  /** Replaces the options (the hook keeps callbacks fresh with it). */
  setOptions(options: ChatStoreOptions): void;
  /** Settles once a persisted conversation was read back (at once without persistence). */
  readonly restored: Promise<void>;
  /** The name the conversation is saved under (`persist.name`); undefined when it is not saved. */
  readonly persistName?: string | undefined;
  /** Writes pending persistence now (tests, or before you navigate away yourself). */
  flush(): Promise<void>;
  /** Stops what runs and stops saving; the store is not used afterwards. */
  dispose(): void;
};

/** Turns whose request form is built per step of the idle pass (about a millisecond of work). */
const HISTORY_SLICE = 32;

/**
 * A send whose history has more turns than this without their request form (a long thread
 * sent from before the idle pass finished) builds them over several tasks first.
 */
const PREPARE_BEFORE_SEND = 2 * HISTORY_SLICE;

/** Time a task of that work may take before it yields to the page. */
const PREPARE_SLICE_MS = 4;

/** A turn's message as requests send it, frozen: the transport serializes it once. */
const requestForm = (turn: Turn): MessageParam | null => {
  const message = toMessageParam(turn);
  return message === null ? null : Object.freeze(message);
};

let nextId = 0;
const newId = (prefix: string) =>
  `${prefix}_${(nextId++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

const treeFromMessages = (messages: readonly MessageParam[]) =>
  linearTree(
    messages.map(
      (message): Turn =>
        message.role === 'user'
          ? { id: newId('user'), role: 'user', content: message.content }
          : answerFromMessage(newId('answer'), message.content),
    ),
  );

/**
 * Creates the store for one conversation: its turns (a tree; `turns` is the shown path),
 * status and error, and the actions that drive it. A zustand vanilla store: use it with
 * `useMessageStream`, with zustand's `useStore`, or without React at all.
 *
 * Every change goes through one reducer (`chatReducer`); sending, the tool loop, paused
 * turns, continuations and persistence are effects that dispatch to it.
 */
export function createChatStore(initialOptions: ChatStoreOptions): ChatStore {
  let options = initialOptions;
  let model: ChatModel = initialModel(treeFromMessages(options.initialMessages ?? []));
  const flight = new Flight();
  /** The top-level action running now; edit and regenerate wait for it after stopping it. */
  let current: Promise<void> = Promise.resolve();
  /**
   * What each turn was first sent as. Later requests and resume repeat exactly that, even
   * when the turn changed since (an answer aborted by the next question settles after that
   * question went out; a tool result can arrive late): the history the API saw stays the
   * history, and one message per turn is kept, not one copy of the history per answer.
   */
  const sentAs = new Map<string, MessageParam | null>();
  /**
   * Request forms built ahead in idle time, by turn object: one is used only while its turn is
   * that same object (turns are immutable; an answer continued meanwhile is a new one).
   */
  const prepared = new WeakMap<Turn, MessageParam | null>();

  // `set` is bound once the zustand store exists; the reducer's model is the truth.
  let publish: (model: ChatModel) => void = () => {};
  const dispatch = (action: ChatAction) => {
    const next = chatReducer(model, action);
    if (next === model) return;
    model = next;
    publish(next);
  };

  const isUnprepared = (turn: Turn) => !sentAs.has(turn.id) && !prepared.has(turn);
  /**
   * Builds a turn's request form and its JSON ahead of the send that needs them (the idle
   * pass, or a send that came first); throws what `JSON.stringify` throws.
   */
  const prepareTurn = (turn: Turn) => {
    if (!isUnprepared(turn)) return;
    const message = requestForm(turn);
    prepared.set(turn, message);
    if (message !== null) prepareMessagesJson([message]);
  };

  const ctx: EffectContext = {
    dispatch,
    model: () => model,
    options: () => options,
    newId,
    flight,
    history(turns) {
      const messages: MessageParam[] = [];
      for (const turn of turns) {
        let message = sentAs.get(turn.id);
        if (message === undefined) {
          message = prepared.get(turn) ?? requestForm(turn);
          sentAs.set(turn.id, message);
        }
        if (message !== null) messages.push(message);
      }
      return alternate(messages);
    },
    prepareHistory(turns) {
      const missing = turns.filter(isUnprepared);
      if (missing.length <= PREPARE_BEFORE_SEND) return null;
      return (async () => {
        let start = performance.now();
        try {
          for (const turn of missing) {
            if (performance.now() - start > PREPARE_SLICE_MS) {
              await nextTask();
              start = performance.now();
            }
            prepareTurn(turn);
          }
        } catch {
          // A history that cannot be serialized (a cycle, a BigInt) is the send's to report.
        }
      })();
    },
    forgetSent: (turnId) => void sentAs.delete(turnId),
    answer: (parentId, roundtrip, replacing) => startAnswer(ctx, parentId, roundtrip, replacing),
    async afterAnswer(id: string, { final, firstContentAt }: StreamedAnswer, roundtrip: number) {
      const turn = nodeOf(model.tree, id);
      if (turn?.role !== 'assistant') return;
      const toolsFollow =
        final.status === 'complete' &&
        final.message?.stop_reason === 'tool_use' &&
        storeRunsTools(ctx, { ...turn, stream: final });
      dispatch({
        type: 'answer-ended',
        id,
        stream: final,
        finishedAt: Date.now(),
        toolsFollow,
        firstContentAt,
      });
      const ended = nodeOf(model.tree, id) as AssistantTurn;
      options.onFinish?.(ended);
      if (final.error) options.onError?.(final.error, ended);
      if (toolsFollow) await runToolsOf(ctx, id, roundtrip);
      else if (continuesPausedTurn(ctx, final, roundtrip))
        await continuePausedTurn(ctx, id, roundtrip);
    },
  };

  /** Runs a top-level action as the current one. */
  const run = (action: () => Promise<void>): Promise<void> => {
    const promise = action();
    current = promise.catch(() => {});
    return promise;
  };
  /**
   * A send or an edit refused before anything went out (a file refused, the attachment
   * helpers' chunk not loaded): said as the store's error, nothing added, nothing sent.
   */
  const refuse = (cause: unknown) => {
    const error = createStreamError({
      type: 'attachment_error',
      message: cause instanceof Error ? cause.message : String(cause),
      retryable: false,
    });
    dispatch({ type: 'send-refused', error });
    options.onError?.(error, null);
  };
  /** Stops what runs and waits until it settled (its answer marked aborted). */
  const stopAndSettle = async () => {
    flight.abort();
    await current;
  };

  const lastAnswer = (): AssistantTurn | undefined => {
    const last = model.turns.at(-1);
    return last?.role === 'assistant' ? last : undefined;
  };
  /**
   * The parent of turn `id`, when `id` is still in the tree (a reset may have cleared it while
   * a request was stopped) and its parent is shown: a new version asks with the shown path.
   */
  const shownParentOf = (id: string): string | undefined => {
    const parentId = parentOf(model.tree, id);
    return parentId === ROOT || model.turns.some((turn) => turn.id === parentId)
      ? parentId
      : undefined;
  };
  const answerById = (turnId: string | undefined): AssistantTurn | undefined => {
    if (turnId === undefined) return lastAnswer();
    const turn = nodeOf(model.tree, turnId);
    return turn?.role === 'assistant' ? turn : undefined;
  };

  /** The whole conversation replaced (setMessages, reset, a restored one): prepared anew. */
  const replaceTree = (tree: ConversationTree) => {
    dispatch({ type: 'replaced', tree });
    prepareHistoryWhenIdle();
  };
  const resetTree = (tree: ConversationTree) => {
    flight.abort();
    sentAs.clear();
    replaceTree(tree);
  };

  /** Which idle pass is current: a replaced conversation starts its own, dispose ends it. */
  let historyPass = 0;
  /**
   * Builds the request form of a long history (each turn's message and its JSON) in idle
   * time, a slice at a time, so the first send after opening a 1,000-turn conversation does
   * not do it in its own task. The last two turns are left to the send: an answer may still
   * be resumed or continued, and its message would change.
   */
  function prepareHistoryWhenIdle() {
    const pass = ++historyPass;
    if (typeof requestIdleCallback !== 'function' || model.turns.length <= 2) return;
    let index = 0;
    const step = (deadline: IdleDeadline) => {
      if (pass !== historyPass) return;
      const turns = model.turns;
      const end = turns.length - 2;
      try {
        while (index < end && deadline.timeRemaining() > 2) {
          for (const turn of turns.slice(index, Math.min(index + HISTORY_SLICE, end))) {
            prepareTurn(turn);
          }
          index += HISTORY_SLICE;
        }
      } catch {
        // A history that cannot be serialized (a cycle, a BigInt) is the send's to report.
        return;
      }
      if (index < end) requestIdleCallback(step);
    };
    requestIdleCallback(step);
  }

  const state = (m: ChatModel): Pick<ChatState, 'turns' | 'tree' | 'status' | 'error'> => ({
    turns: m.turns,
    tree: m.tree,
    status: m.status,
    error: m.error,
  });

  const store = createStore<ChatState>()(() => ({
    ...state(model),

    send: (content, sendOptions) =>
      run(async () => {
        let blocks: ContentBlockParam[] | string = content;
        let fileNames: string[] | undefined;
        const files = sendOptions?.attachments ?? [];
        if (files.length > 0) {
          try {
            const { attachmentBlock, resolveAttachments } = await loadAttachments();
            const attachments = await resolveAttachments(files);
            const text: ContentBlockParam[] =
              typeof content !== 'string'
                ? content
                : content.trim() === ''
                  ? []
                  : [{ type: 'text', text: content }];
            // Files first: the API reads a question best after what it is about.
            blocks = [...attachments.map(attachmentBlock), ...text];
            fileNames = attachments.map((attachment) => attachment.name);
          } catch (cause) {
            refuse(cause);
            return;
          }
          // Its thread was deleted while the files were read: the message goes nowhere.
          if (flight.closed) return;
        }
        flight.abort();
        const parentId = settleBeforeNewMessage(ctx);
        const turn: Turn = {
          id: newId('user'),
          role: 'user',
          content: blocks,
          ...(fileNames ? { fileNames } : {}),
        };
        dispatch({ type: 'user-turn-added', turn, parentId });
        await ctx.answer(turn.id, 0);
      }),

    stop: () => flight.abort(),

    resume: () =>
      run(async () => {
        const turn = lastAnswer();
        if (turn !== undefined) await continueInPlace(ctx, turn, 'resume');
      }),

    continueAnswer: (turnId) =>
      run(async () => {
        const turn = answerById(turnId);
        if (turn !== undefined) await continueInPlace(ctx, turn, 'max-tokens');
      }),

    retry: () => {
      const target = lastAnswer();
      // Only a failed request of which nothing arrived, not even a block begun (reasoning cut
      // short is something the user saw and paid for): the new answer takes its place, no
      // version of its own. Else asked again as a new version, the old one kept (`regenerate`).
      return target && isFinalStatus(target.stream.status) && !target.stream.message?.content.length
        ? run(async () => {
            await stopAndSettle();
            // Looked at again after the wait: a retry before this one, a reset or another
            // version shown may have changed it. Only the same failed answer, still last (so
            // its parent is shown), is asked again.
            if (lastAnswer() !== target) return;
            ctx.forgetSent(target.id);
            await ctx.answer(parentOf(model.tree, target.id) ?? ROOT, 0, target.id);
          })
        : store.getState().regenerate();
    },

    regenerate: (turnId) =>
      run(async () => {
        const target = answerById(turnId);
        if (target === undefined) return;
        await stopAndSettle();
        const parentId = shownParentOf(target.id);
        if (parentId !== undefined) await ctx.answer(parentId, 0);
      }),

    edit: async (turnId, content, options) => {
      const target = nodeOf(model.tree, turnId);
      if (target?.role !== 'user') return;
      // A message of blocks (files among them, as a rule): its new text keeps its files
      // (that code loads with the attachment helpers, as a message with files already did).
      // Loaded before the edit runs: a refused edit leaves a streaming answer alone.
      let edited: Pick<UserTurn, 'content' | 'fileNames'> = { content };
      if (typeof content === 'string' && typeof target.content !== 'string') {
        try {
          edited = (await loadAttachments()).editedContent(target, content, options?.removeFiles);
        } catch (cause) {
          // The helpers' chunk did not load (offline): said as a send's refused file is.
          refuse(cause);
          return;
        }
      }
      // Disposed (a deleted thread): nothing is sent from here on.
      if (flight.closed) return;
      return run(async () => {
        await stopAndSettle();
        const parentId = shownParentOf(turnId);
        if (parentId === undefined) return;
        const turn: Turn = { id: newId('user'), role: 'user', ...edited };
        dispatch({ type: 'user-turn-added', turn, parentId });
        await ctx.answer(turn.id, 0);
      });
    },

    branchesOf: (turnId) => branchInfo(model.tree, turnId),

    selectBranch: (turnId, index) => dispatch({ type: 'branch-selected', turnId, index }),

    approveToolCall: (toolUseId) => run(() => approveToolCall(ctx, toolUseId)),

    denyToolCall: (toolUseId, reason) => run(() => denyToolCall(ctx, toolUseId, reason)),

    addToolResult: (toolUseId, result, resultOptions) =>
      run(() => addToolResult(ctx, toolUseId, result, resultOptions?.isError === true)),

    setMessages: (messages) => resetTree(treeFromMessages(messages)),

    reset: () => resetTree(linearTree([])),
  })) as ChatStore;

  publish = (next) => store.setState(state(next));
  prepareHistoryWhenIdle();

  let warned = false;
  const persistOptions = options.persist;
  const persistence: Persistence | null = persistOptions
    ? startPersistenceLater(
        {
          model: () => model,
          subscribe: (listener) => store.subscribe(listener),
          restore(tree) {
            // A conversation begun before the read finished is not overwritten.
            if (turnCount(model.tree) === 0) replaceTree(tree);
          },
          report(error, operation) {
            const info = { name: persistOptions.name, operation };
            if (options.onPersistError) return options.onPersistError(error, info);
            if (warned) return;
            warned = true;
            console.warn(
              `message-stream: the conversation could not be saved (${operation}).`,
              error,
            );
          },
        },
        persistOptions.name,
        persistOptions.storage,
      )
    : null;

  preloadToolRuns(ctx);
  store.setOptions = (next) => {
    options = next;
    preloadToolRuns(ctx);
  };
  Object.assign(store, {
    restored: persistence?.restored ?? Promise.resolve(),
    persistName: persistOptions ? persistOptions.name : undefined,
    flush: () => persistence?.flush() ?? Promise.resolve(),
    dispose: () => {
      historyPass++;
      flight.close();
      persistence?.dispose();
    },
  });
  return store;
}
