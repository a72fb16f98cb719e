import type {
  ContentBlockParam,
  ContinuationOptions,
  MessageParam,
  MessageRequestFields,
  StreamError,
  StreamMessageOptions,
  StreamState,
  ToolUseBlock,
} from '@message-stream/core';

/** A message the user sent (or, hidden in the UI, the tool results the kit sent back). */
export interface UserTurn {
  readonly id: string;
  readonly role: 'user';
  readonly content: MessageParam['content'];
}

/** The result of a client-side tool call, as the UI shows it and the API receives it. */
export interface ToolResultState {
  readonly status: 'running' | 'complete' | 'error';
  readonly content?: unknown;
  readonly isError?: boolean;
}

/** One answer of the assistant: its live stream state and what the kit did around it. */
export interface AssistantTurn {
  readonly id: string;
  readonly role: 'assistant';
  /**
   * The request parameters that started this answer (model, max_tokens, system, tools, …).
   * Its `messages` were the turns before it, as each was first sent; resume sends them the
   * same way, so a long conversation holds (and persists) one history, not a copy per
   * answer. Resume always builds its continuation from this original request, however many
   * times the answer was interrupted.
   */
  readonly request: RequestDefaults;
  /** The stream state; after a resume, the merged state of every attempt. */
  readonly stream: StreamState;
  /** Results of client-side tool calls in this answer, by tool_use id. */
  readonly toolResults: Readonly<Record<string, ToolResultState>>;
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

export type Turn = UserTurn | AssistantTurn;

/**
 * Where the conversation is. `submitted`: a request is out and nothing has arrived yet;
 * `running-tools`: `onToolCall` is running the answer's tool calls; the final four mirror
 * the last answer's stream status.
 */
export type ChatStatus =
  | 'idle'
  | 'submitted'
  | 'streaming'
  /** Client tools of the last answer are running; the turn continues when they finish. */
  | 'running-tools'
  | 'complete'
  | 'interrupted'
  | 'error'
  | 'aborted';

/** A client-side tool call the model asked for. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly block: ToolUseBlock;
  readonly signal: AbortSignal;
}

/** Request fields every send uses unless the call overrides them. */
export type RequestDefaults = MessageRequestFields;

export interface ChatStoreOptions
  extends Omit<StreamMessageOptions, 'signal' | 'onEvent' | 'onState'> {
  /** model, max_tokens, system, tools, thinking, … sent with every request. */
  readonly request: RequestDefaults;
  /** The conversation to start from. */
  readonly initialMessages?: readonly MessageParam[];
  /**
   * Runs a client-side tool. Its return value becomes the tool_result content; a throw
   * becomes an error result. When every tool call of an answer has a result, the turn
   * continues by itself.
   */
  readonly onToolCall?: (call: ToolCall) => unknown | Promise<unknown>;
  /** An answer finished (complete, or ended as interrupted, error or aborted). */
  readonly onFinish?: (turn: AssistantTurn) => void;
  readonly onError?: (error: StreamError, turn: AssistantTurn | null) => void;
  /**
   * How store notifications are coalesced while a stream runs: `'frame'` (default) at most
   * one per animation frame, a number for at most one per that many ms, `false` for one
   * per event. The reducer sees every event either way: nothing is dropped, only coalesced.
   */
  readonly batch?: 'frame' | number | false;
  /** How many tool round trips (and paused-turn continuations) one send may take. Default 8. */
  readonly maxToolRoundtrips?: number;
  /**
   * Continue an answer the API paused (`stop_reason: 'pause_turn'`, long server-tool turns)
   * by sending it back, as the API asks. Default true.
   */
  readonly continuePausedTurns?: boolean;
  /** How resume builds its continuation (strategy, instruction). */
  readonly resume?: ContinuationOptions;
  /**
   * Keep the conversation across page loads (zustand `persist`, localStorage by default).
   * An answer cut off by the reload shows as interrupted and can be resumed.
   */
  readonly persist?: { readonly name: string; readonly storage?: ChatPersistStorage } | false;
}

/** Where persisted conversations are kept: the subset of Storage the store needs. */
export interface ChatPersistStorage {
  getItem(name: string): string | null | Promise<string | null>;
  setItem(name: string, value: string): void | Promise<void>;
  removeItem(name: string): void | Promise<void>;
}

export interface ChatActions {
  /** Sends a user message and streams the answer. Resolves when the answer (and any tool round trips) ended. */
  send(content: string | ContentBlockParam[]): Promise<void>;
  /** Stops the answer in flight; what arrived stays, marked aborted. */
  stop(): void;
  /** Continues the interrupted last answer in place (the core's continuation request, merged). */
  resume(): Promise<void>;
  /** Regenerates the last answer from scratch. */
  retry(): Promise<void>;
  /** Supplies a client-side tool's result; continues the turn when all results are in. */
  addToolResult(
    toolUseId: string,
    result: unknown,
    options?: { readonly isError?: boolean },
  ): Promise<void>;
  /** Replaces the conversation (e.g. loaded from your backend). */
  setMessages(messages: readonly MessageParam[]): void;
  /** Empties the conversation and stops anything in flight. */
  reset(): void;
}

export interface ChatState extends ChatActions {
  readonly turns: readonly Turn[];
  readonly status: ChatStatus;
  readonly error: StreamError | null;
}
