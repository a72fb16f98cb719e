import {
  type ContentBlockParam,
  canResume,
  continuationRequest,
  createStreamError,
  createStreamState,
  endStream,
  isFinalStatus,
  type MessageParam,
  type MessageRequest,
  mergeContinuation,
  type StreamState,
  streamMessage,
} from '@message-stream/core';
import { persist } from 'zustand/middleware';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import { clientToolCalls, toMessageParam, toolResultsTurn } from './conversation.js';
import { throttledStorage } from './persist-storage.js';
import { createScheduler } from './scheduler.js';
import type {
  AssistantTurn,
  ChatState,
  ChatStatus,
  ChatStoreOptions,
  ToolResultState,
  Turn,
  UserTurn,
} from './types.js';

/** A store for one conversation. Several stores on one page are independent. */
export type ChatStore = StoreApi<ChatState> & {
  /** Replaces the options (the hook keeps callbacks fresh with it). */
  setOptions(options: ChatStoreOptions): void;
};

let nextId = 0;
const newId = (prefix: string) =>
  `${prefix}_${(nextId++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

const statusOf = (stream: StreamState): ChatStatus =>
  stream.status === 'idle' ? 'submitted' : stream.status;

const userTurnsFrom = (messages: readonly MessageParam[]): Turn[] =>
  messages.map((message): Turn => {
    if (message.role === 'user')
      return { id: newId('user'), role: 'user', content: message.content };
    // A past answer given as plain history: a complete stream state holding its content.
    const content =
      typeof message.content === 'string'
        ? [{ type: 'text' as const, text: message.content }]
        : message.content;
    return {
      id: newId('answer'),
      role: 'assistant',
      request: { model: '', max_tokens: 0 },
      stream: {
        ...createStreamState(),
        status: 'complete',
        stopReceived: true,
        message: {
          id: '',
          type: 'message',
          role: 'assistant',
          model: '',
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: {},
          content: content.map((block, index) => ({
            index,
            status: 'complete' as const,
            block: block as import('@message-stream/core').ContentBlock,
          })),
        },
      },
      toolResults: {},
      startedAt: 0,
      finishedAt: 0,
    };
  });

/**
 * Creates the store for one conversation: its turns, status and error, and the actions
 * that drive it (`send`, `stop`, `resume`, `retry`, `addToolResult`, `setMessages`,
 * `reset`). A zustand vanilla store: use it with `useMessageStream`, with zustand's
 * `useStore`, or without React at all.
 */
export function createChatStore(initialOptions: ChatStoreOptions): ChatStore {
  let options = initialOptions;
  /** The stream in flight, if any. One at a time per conversation. */
  let inFlight: AbortController | null = null;
  /**
   * What each turn was first sent as. Later requests and resume repeat exactly that, even
   * when the turn changed since (an answer aborted by the next question settles after that
   * question went out; a tool result can arrive late): the history the API saw stays the
   * history, and one message per turn is kept, not one copy of the history per answer.
   */
  const sentAs = new Map<string, MessageParam | null>();
  const historyOf = (turns: readonly Turn[]): MessageParam[] => {
    const messages: MessageParam[] = [];
    for (const turn of turns) {
      let message = sentAs.get(turn.id);
      if (message === undefined) {
        message = toMessageParam(turn);
        sentAs.set(turn.id, message);
      }
      if (message !== null) messages.push(message);
    }
    return messages;
  };

  const creator: StateCreator<ChatState> = (set, get) => {
    /** Replaces one assistant turn (by id) in the current turns. */
    const updateTurn = (id: string, update: (turn: AssistantTurn) => AssistantTurn) => {
      set((state) => ({
        turns: state.turns.map((turn) =>
          turn.id === id && turn.role === 'assistant' ? update(turn) : turn,
        ),
      }));
    };

    /**
     * Streams one request into the turn `id`, publishing at most once per frame. `view`
     * maps each raw state to what the turn shows (identity for a fresh answer, a merge for
     * a resumed one); it runs at flush time, not per event.
     */
    const stream = async (
      id: string,
      request: MessageRequest,
      view: (state: StreamState) => StreamState,
    ): Promise<StreamState> => {
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      let latest: StreamState | null = null;
      const scheduler = createScheduler(options.batch ?? 'frame', () => {
        if (latest === null) return;
        const shown = view(latest);
        latest = null;
        updateTurn(id, (turn) => ({ ...turn, stream: shown }));
        if (get().status === 'submitted' && inFlight === controller) set({ status: 'streaming' });
      });
      const { onToolCall: _t, onFinish: _f, onError: _e, request: _r, ...transport } = options;
      let final: StreamState;
      try {
        final = await streamMessage(request, {
          ...transport,
          signal: controller.signal,
          onState: (state) => {
            latest = state;
            scheduler.request();
          },
        });
      } finally {
        scheduler.cancel();
        if (inFlight === controller) inFlight = null;
      }
      return view(final);
    };

    /** Publishes a finished answer and runs what follows it (callbacks, tools). */
    const finish = async (id: string, final: StreamState, roundtrip: number) => {
      updateTurn(id, (turn) => ({ ...turn, stream: final, finishedAt: Date.now() }));
      const turn = get().turns.find(
        (t): t is AssistantTurn => t.id === id && t.role === 'assistant',
      );
      if (!turn) return;
      const runsTools =
        final.status === 'complete' &&
        final.message?.stop_reason === 'tool_use' &&
        options.onToolCall !== undefined &&
        clientToolCalls(turn).length > 0;
      // A newer send may have replaced this answer meanwhile; it owns the status now.
      if (get().turns.at(-1)?.id === id) {
        set({ status: runsTools ? 'running-tools' : statusOf(final), error: final.error });
      }
      options.onFinish?.(turn);
      if (final.error) options.onError?.(final.error, turn);
      if (runsTools) await runTools(turn, roundtrip);
      else if (continuesPausedTurn(final, roundtrip) && get().turns.at(-1)?.id === id) {
        // A long server-tool turn paused by the API: sending the answer back as it is lets
        // the model carry on (the API's own instruction for `pause_turn`).
        await answer(historyOf(get().turns), roundtrip + 1);
      }
    };

    const continuesPausedTurn = (final: StreamState, roundtrip: number): boolean =>
      final.status === 'complete' &&
      final.message?.stop_reason === 'pause_turn' &&
      options.continuePausedTurns !== false &&
      roundtrip < (options.maxToolRoundtrips ?? 8);

    const answer = async (messages: MessageParam[], roundtrip: number) => {
      const { request: defaults } = options;
      const request: MessageRequest = { ...defaults, messages };
      const turn: AssistantTurn = {
        id: newId('answer'),
        role: 'assistant',
        // Without its messages: they are the turns before this one (see AssistantTurn).
        request: defaults,
        stream: createStreamState(),
        toolResults: {},
        startedAt: Date.now(),
        finishedAt: null,
      };
      set((state) => ({ turns: [...state.turns, turn], status: 'submitted', error: null }));
      const final = await stream(turn.id, request, (state) => state);
      await finish(turn.id, final, roundtrip);
    };

    /** Runs client tools with `onToolCall`, then continues the turn with their results. */
    const runTools = async (turn: AssistantTurn, roundtrip: number) => {
      const calls = clientToolCalls(turn);
      const onToolCall = options.onToolCall;
      if (calls.length === 0 || onToolCall === undefined) return;
      if (roundtrip >= (options.maxToolRoundtrips ?? 8)) {
        const error = createStreamError({
          type: 'tool_loop_limit',
          message: `Stopped after ${roundtrip} tool round trips.`,
          retryable: false,
        });
        set({ status: 'complete', error });
        options.onError?.(error, turn);
        return;
      }
      // Tools run under the same stop as a stream: `stop()` aborts their signal and ends
      // the loop before another (billed) request goes out.
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      const running = Object.fromEntries(
        calls.map((call) => [call.id, { status: 'running' } as ToolResultState]),
      );
      updateTurn(turn.id, (t) => ({ ...t, toolResults: { ...t.toolResults, ...running } }));
      const results = await Promise.all(
        calls.map(async (block): Promise<[string, ToolResultState]> => {
          try {
            const content = await onToolCall({
              id: block.id,
              name: block.name,
              input: block.input,
              block,
              signal: controller.signal,
            });
            return [block.id, { status: 'complete', content }];
          } catch (error) {
            const content = error instanceof Error ? error.message : String(error);
            return [block.id, { status: 'error', content, isError: true }];
          }
        }),
      );
      if (inFlight === controller) inFlight = null;
      if (controller.signal.aborted) {
        const stopped = Object.fromEntries(
          calls.map((call) => [
            call.id,
            { status: 'error', content: 'Stopped before the tool finished.', isError: true },
          ]),
        ) as Record<string, ToolResultState>;
        updateTurn(turn.id, (t) => ({ ...t, toolResults: { ...t.toolResults, ...stopped } }));
        if (get().turns.at(-1)?.id === turn.id) set({ status: 'aborted' });
        return;
      }
      updateTurn(turn.id, (t) => ({
        ...t,
        toolResults: { ...t.toolResults, ...Object.fromEntries(results) },
      }));
      await continueAfterTools(turn.id, roundtrip + 1);
    };

    /** When every tool call of the last answer has a result, sends them and continues. */
    const continueAfterTools = async (id: string, roundtrip: number) => {
      const turns = get().turns;
      const turn = turns.at(-1);
      if (turn?.id !== id || turn.role !== 'assistant') return;
      const calls = clientToolCalls(turn).map((call) => call.id);
      const done = calls.every((call) => {
        const result = turn.toolResults[call];
        return result !== undefined && result.status !== 'running';
      });
      if (calls.length === 0 || !done) return;
      const results: UserTurn = toolResultsTurn(newId('tools'), calls, turn.toolResults);
      set((state) => ({ turns: [...state.turns, results] }));
      await answer(historyOf(get().turns), roundtrip);
    };

    const lastAnswer = (): AssistantTurn | undefined => {
      const last = get().turns.at(-1);
      return last?.role === 'assistant' ? last : undefined;
    };

    return {
      turns: userTurnsFrom(options.initialMessages ?? []),
      status: 'idle',
      error: null,

      async send(content: string | ContentBlockParam[]) {
        inFlight?.abort();
        const turn: UserTurn = { id: newId('user'), role: 'user', content };
        set((state) => ({ turns: [...state.turns, turn], status: 'submitted', error: null }));
        await answer(historyOf(get().turns), 0);
      },

      stop() {
        inFlight?.abort();
      },

      async resume() {
        const turn = lastAnswer();
        // One continuation at a time: a second click while one runs would abort it.
        if (!turn || inFlight !== null || !canResume(turn.stream)) return;
        const base = turn.stream;
        const turns = get().turns;
        const history = historyOf(turns.slice(0, turns.indexOf(turn)));
        const request = continuationRequest(
          { ...turn.request, messages: history },
          base,
          options.resume,
        );
        set({ status: 'submitted', error: null });
        const final = await stream(turn.id, request, (state) => mergeContinuation(base, state));
        await finish(turn.id, final, 0);
      },

      async retry() {
        const turn = lastAnswer();
        if (!turn) return;
        inFlight?.abort();
        set((state) => ({ turns: state.turns.filter((t) => t.id !== turn.id) }));
        sentAs.delete(turn.id);
        // From the conversation as it now stands (an answer loaded from history has no
        // request of its own to repeat).
        await answer(historyOf(get().turns), 0);
      },

      async addToolResult(toolUseId, result, resultOptions) {
        const owner = get().turns.find(
          (t): t is AssistantTurn =>
            t.role === 'assistant' &&
            (t.stream.message?.content ?? []).some(
              (entry) => (entry.block as { id?: unknown }).id === toolUseId,
            ),
        );
        if (!owner) return;
        const isError = resultOptions?.isError === true;
        updateTurn(owner.id, (t) => ({
          ...t,
          toolResults: {
            ...t.toolResults,
            [toolUseId]: { status: isError ? 'error' : 'complete', content: result, isError },
          },
        }));
        await continueAfterTools(owner.id, 1);
      },

      setMessages(messages) {
        inFlight?.abort();
        sentAs.clear();
        set({ turns: userTurnsFrom(messages), status: 'idle', error: null });
      },

      reset() {
        inFlight?.abort();
        sentAs.clear();
        set({ turns: [], status: 'idle', error: null });
      },
    };
  };

  const persistOptions = options.persist;
  const store = (
    persistOptions
      ? createStore<ChatState>()(
          persist(creator, {
            name: persistOptions.name,
            storage: throttledStorage(
              () =>
                persistOptions.storage ??
                (typeof localStorage === 'undefined' ? undefined : localStorage),
            ),
            partialize: (state) => ({ turns: state.turns }) as unknown as ChatState,
            merge: (persisted, current) => restore(persisted, current),
          }),
        )
      : createStore<ChatState>()(creator)
  ) as ChatStore;
  store.setOptions = (next) => {
    options = next;
  };
  return store;
}

/**
 * Brings back a persisted conversation. An answer that was still streaming when the page
 * went away cannot continue that connection: it shows as interrupted, ready to resume.
 */
function restore(persisted: unknown, current: ChatState): ChatState {
  const turns = (persisted as { turns?: Turn[] } | null)?.turns;
  if (!Array.isArray(turns)) return current;
  const settled = turns.map((turn): Turn => {
    if (turn.role !== 'assistant' || isFinalStatus(turn.stream.status)) return turn;
    return {
      ...turn,
      stream: endStream(turn.stream, {
        type: 'network',
        message: 'The page was closed or reloaded while this answer was streaming.',
      }),
    };
  });
  const last = settled.at(-1);
  return {
    ...current,
    turns: settled,
    status: last?.role === 'assistant' ? statusOf(last.stream) : 'idle',
    error: last?.role === 'assistant' ? last.stream.error : null,
  };
}
