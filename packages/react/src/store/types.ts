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
  /**
   * The name of the file each of `content`'s blocks was made from, by position (`null` for a
   * block that was none), for showing them: an image block has no title on the wire. Kept
   * with the turn, never sent.
   */
  readonly fileNames?: readonly (string | null)[];
}

/**
 * The result of a client-side tool call, as the UI shows it and the API receives it.
 * `awaiting-approval`: the tool needs the user's yes (`approveToolCall`) or no
 * (`denyToolCall`); a denial is an `error` with `isError: true` and the reason as content
 * (what the API needs), marked `declined` so the UI does not show it as a failure.
 */
export interface ToolResultState {
  readonly status: 'awaiting-approval' | 'running' | 'complete' | 'error';
  readonly content?: unknown;
  readonly isError?: boolean;
  /**
   * The user declined the call, so it never ran: `'denied'` by `denyToolCall`, `'skipped'`
   * when a new message was sent while it waited for approval. It still goes back as an
   * `is_error` result with `content`; only what the UI shows differs.
   */
  readonly declined?: 'denied' | 'skipped';
  /** The reason the user gave to `denyToolCall`, if any (also the result's `content`). */
  readonly reason?: string;
  /**
   * The call was cut short before it returned: `'stop'` by `stop()`, `'reload'` by the page
   * going away while it ran. It goes back as an `is_error` result with `content`; the UI shows
   * it as stopped or interrupted, not as the tool failing.
   */
  readonly endedBy?: 'stop' | 'reload';
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
  /**
   * When the answer's first content arrived (epoch ms, as the event was read, not when it was
   * drawn): its time to first token. Absent on turns saved by earlier versions.
   */
  readonly firstContentAt?: number | null;
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
  /** A tool call of the last answer waits for `approveToolCall` / `denyToolCall`. */
  | 'awaiting-approval'
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

/**
 * A client-side tool the store runs itself. `run`'s return value becomes the tool_result
 * content, a throw an error result. With `needsApproval` (true, or true for this input) the
 * call waits as `awaiting-approval` until `approveToolCall` runs it or `denyToolCall`
 * answers it with an error result.
 */
export interface ChatTool {
  readonly run: (input: unknown, call: ToolCall) => unknown | Promise<unknown>;
  readonly needsApproval?: boolean | ((input: unknown) => boolean);
}

/**
 * A file to send with a message, already read (see `readAttachment` and `useAttachments`):
 * an image (PNG, JPEG, GIF, WebP) or a PDF as base64, a plain-text file as text.
 */
export interface Attachment {
  readonly id: string;
  readonly name: string;
  readonly mediaType: AttachmentMediaType;
  /** Size of the file in bytes. */
  readonly size: number;
  /** Base64 for images and PDFs, the text itself for `text/plain`. */
  readonly data: string;
}

export type AttachmentMediaType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'application/pdf'
  | 'text/plain';

export interface SendOptions {
  /** Files to send beside the text, as `image` / `document` blocks (before the text). */
  readonly attachments?: readonly (Attachment | Blob)[];
}

export interface EditOptions {
  /**
   * Files of the message to leave out of its new version, by the ids `attachmentsOf` gives
   * them (`block_<index>`). Only with text `content`; the others are kept.
   */
  readonly removeFiles?: readonly string[];
}

/** Which sibling of its turn is shown: `index` of `count` (0-based), `count` 1 without siblings. */
export interface BranchInfo {
  readonly index: number;
  readonly count: number;
}

/**
 * The conversation as a tree: every turn by id, each parent's children in the order they
 * were made (`''` is the root), and which child is shown under each parent. `turns` (the
 * active path) is read from it; requests carry only that path.
 */
export interface ConversationTree {
  readonly nodes: Readonly<Record<string, Turn>>;
  /** Each turn's parent id (`''` for a first turn). */
  readonly parents: Readonly<Record<string, string>>;
  readonly children: Readonly<Record<string, readonly string[]>>;
  readonly selected: Readonly<Record<string, number>>;
}

/** Where a failed save happened; the conversation in memory is kept either way. */
export interface PersistErrorInfo {
  readonly name: string;
  readonly operation: 'read' | 'write' | 'remove';
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
  /**
   * Client tools by name, run by the store (before `onToolCall`, which handles the rest).
   * `needsApproval` makes a call wait for `approveToolCall` / `denyToolCall`.
   */
  readonly tools?: Readonly<Record<string, ChatTool>>;
  /** An answer finished (complete, or ended as interrupted, error or aborted). */
  readonly onFinish?: (turn: AssistantTurn) => void;
  readonly onError?: (error: StreamError, turn: AssistantTurn | null) => void;
  /**
   * How store notifications are coalesced while a stream runs: `'frame'` (default) at most
   * one per animation frame, a number for at most one per that many ms, `false` for one
   * per event. The reducer sees every event either way: nothing is dropped, only coalesced.
   * An answer whose text passes 96 K characters is published one frame (or interval) less
   * often per 96 K: each update renders, lays out and paints the growing answer, and this
   * keeps what that costs per second the same however long the answer grows.
   */
  readonly batch?: 'frame' | number | false;
  /**
   * How many tool round trips (and paused-turn continuations) one send may take. Default
   * `DEFAULT_MAX_TOOL_ROUNDTRIPS` (8) from core.
   */
  readonly maxToolRoundtrips?: number;
  /**
   * Continue an answer the API paused (`stop_reason: 'pause_turn'`, long server-tool turns)
   * by sending it back, as the API asks. Default true.
   */
  readonly continuePausedTurns?: boolean;
  /** How resume builds its continuation (strategy, instruction). */
  readonly resume?: ContinuationOptions;
  /**
   * Keep the conversation across page loads: its whole tree (every branch), attachments and
   * pending approvals. By default in IndexedDB, one record per turn, written only when that
   * turn changed (at most every half second while a stream runs). `storage` picks a
   * string storage instead (`localStorage`, or anything with its three methods): the whole
   * conversation as one JSON value per write. An answer cut off by the reload shows as
   * interrupted and can be resumed, on whichever branch it was. Restoring from IndexedDB is
   * asynchronous: await `store.restored` before relying on the turns.
   */
  readonly persist?:
    | {
        readonly name: string;
        readonly storage?: ChatPersistStorage | 'indexeddb' | 'localstorage';
      }
    | false;
  /**
   * A save or a read of the persisted conversation failed (quota full, storage blocked,
   * private mode). The conversation in memory is untouched and later writes are still
   * tried. Default: one `console.warn` per store.
   */
  readonly onPersistError?: (error: unknown, info: PersistErrorInfo) => void;
}

/** Where persisted conversations are kept: the subset of Storage the store needs. */
export interface ChatPersistStorage {
  getItem(name: string): string | null | Promise<string | null>;
  setItem(name: string, value: string): void | Promise<void>;
  removeItem(name: string): void | Promise<void>;
}

export interface ChatActions {
  /**
   * Sends a user message and streams the answer. Resolves when the answer (and any tool
   * round trips) ended. Tool calls still awaiting approval are first answered as denied
   * ("The user sent a new message instead.") in the same request. Attachments are checked
   * first: a file of another type or over the API's limits rejects with an
   * `AttachmentError` naming it, and nothing is sent.
   */
  send(content: string | ContentBlockParam[], options?: SendOptions): Promise<void>;
  /** Stops the answer in flight; what arrived stays, marked aborted. */
  stop(): void;
  /** Continues the interrupted last answer in place (the core's continuation request, merged). */
  resume(): Promise<void>;
  /**
   * Asks again for the last answer, from scratch. When any of it arrived (a block begun, a
   * reasoning cut short included), as `regenerate()`: the old one stays a version. When nothing
   * did (the request failed, or was stopped before any content), the new answer takes the
   * failed one's place: a failed request leaves no version of its own. Called again before the
   * first went out, or after the answer stopped being the last shown, it does nothing.
   */
  retry(): Promise<void>;
  /**
   * Continues an answer that stopped at `max_tokens`, in place (default: the last answer):
   * the core's continuation request, merged into the same turn like `resume`.
   */
  continueAnswer(turnId?: string): Promise<void>;
  /** Runs a tool call that awaits approval; the turn continues when every call is decided. */
  approveToolCall(toolUseId: string): Promise<void>;
  /**
   * Answers a tool call that awaits approval with an error result holding `reason` (the API's
   * way to say it did not run), recorded as `declined: 'denied'`.
   */
  denyToolCall(toolUseId: string, reason?: string): Promise<void>;
  /**
   * Sends `content` as a new version of the user turn `turnId` (a sibling, shown from now
   * on) and streams its answer. An answer streaming meanwhile is stopped first. Text alone
   * replaces the message's text: the files it was sent with stay, but for those named in
   * `options.removeFiles` (blocks in `content` replace them all).
   */
  edit(turnId: string, content: string | ContentBlockParam[], options?: EditOptions): Promise<void>;
  /**
   * A new answer beside the assistant turn `turnId` (default: the last answer), shown from
   * now on; the old one stays a branch. An answer streaming meanwhile is stopped first.
   */
  regenerate(turnId?: string): Promise<void>;
  /** Which of its siblings the turn is, and how many there are. */
  branchesOf(turnId: string): BranchInfo;
  /** Shows the `index`-th sibling of `turnId` (and that branch's latest path below it). */
  selectBranch(turnId: string, index: number): void;
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
  /** The active path through the tree: what is shown and what the next request carries. */
  readonly turns: readonly Turn[];
  /** Every turn of every branch. */
  readonly tree: ConversationTree;
  readonly status: ChatStatus;
  readonly error: StreamError | null;
}
