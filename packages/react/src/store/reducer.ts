/**
 * The chat store's one reducer: every change of a conversation, and every status
 * transition, is an action applied here. Pure: effects (streaming, tools, persistence) only
 * dispatch. What the app reads (`turns`, `tree`, `status`, `error`) is this model.
 */
import type { StreamError, StreamState } from '@message-stream/core';
import {
  activePath,
  addChild,
  emptyTree,
  nodeOf,
  ROOT,
  replaceNode,
  selectSibling,
  turnCount,
} from './tree.js';
import type {
  AssistantTurn,
  ChatStatus,
  ConversationTree,
  ToolResultState,
  Turn,
} from './types.js';

export interface ChatModel {
  readonly tree: ConversationTree;
  /** The active path of `tree` (kept in step with it, never set on its own). */
  readonly turns: readonly Turn[];
  readonly status: ChatStatus;
  readonly error: StreamError | null;
  /** The answer a request is streaming into right now, if any. */
  readonly live: string | null;
}

export type ChatAction =
  /** A user turn (a message, or tool results going back) under `parentId`, shown, about to be sent. */
  | { readonly type: 'user-turn-added'; readonly turn: Turn; readonly parentId: string }
  /**
   * A request went out for a new answer under `parentId`; `inPlace`: in the place of the failed
   * answer of the same id, which nothing arrived of (`retry`), rather than as a version.
   */
  | {
      readonly type: 'answer-started';
      readonly turn: AssistantTurn;
      readonly parentId: string;
      readonly inPlace?: boolean;
    }
  /** A request went out to continue the answer `id` in place (resume, max_tokens). */
  | { readonly type: 'continuation-started'; readonly id: string }
  /** `firstContentAt`: when its first content arrived, once known (kept from the first time). */
  | {
      readonly type: 'stream-updated';
      readonly id: string;
      readonly stream: StreamState;
      readonly firstContentAt?: number | undefined;
    }
  /**
   * The request for `id` ended with `stream`. `toolsFollow`: the store runs (or waits to
   * approve) its client tool calls next.
   */
  | {
      readonly type: 'answer-ended';
      readonly id: string;
      readonly stream: StreamState;
      readonly finishedAt: number;
      readonly toolsFollow: boolean;
      readonly firstContentAt?: number | undefined;
    }
  /** Tool results of answer `id` changed (awaiting approval, running, or settled). */
  | {
      readonly type: 'tool-results-updated';
      readonly id: string;
      readonly results: Readonly<Record<string, ToolResultState>>;
    }
  /** `stop()` ended the tool calls of answer `id` with these results. */
  | {
      readonly type: 'tools-stopped';
      readonly id: string;
      readonly results: Readonly<Record<string, ToolResultState>>;
    }
  /** The tool loop reached its limit; nothing more is sent. */
  | { readonly type: 'tool-loop-limited'; readonly id: string; readonly error: StreamError }
  | { readonly type: 'branch-selected'; readonly turnId: string; readonly index: number }
  /** A send refused before anything went out (an attachment over the limits). */
  | { readonly type: 'send-refused'; readonly error: StreamError }
  /** The whole conversation replaced: setMessages, reset, or restored from storage. */
  | { readonly type: 'replaced'; readonly tree: ConversationTree };

export const initialModel = (tree: ConversationTree = emptyTree()): ChatModel =>
  settle({ tree, turns: activePath(tree), status: 'idle', error: null, live: null });

/** A stream's status as the conversation's: a request not yet answered is `submitted`. */
export const statusOfStream = (stream: StreamState): ChatStatus =>
  stream.status === 'idle' ? 'submitted' : stream.status;

const toolStatus = (turn: AssistantTurn): ChatStatus | null => {
  const results = Object.values(turn.toolResults);
  if (results.some((result) => result.status === 'running')) return 'running-tools';
  if (results.some((result) => result.status === 'awaiting-approval')) return 'awaiting-approval';
  return null;
};

/** Status and error read from the shown path, for a model nothing is streaming into. */
function settle(model: ChatModel): ChatModel {
  const last = model.turns.at(-1);
  if (last?.role !== 'assistant') return { ...model, status: 'idle', error: null };
  const status = toolStatus(last) ?? statusOfStream(last.stream);
  return { ...model, status, error: last.stream.error };
}

const isLast = (model: ChatModel, id: string): boolean => model.turns.at(-1)?.id === id;

const withTree = (model: ChatModel, tree: ConversationTree): ChatModel => ({
  ...model,
  tree,
  turns: activePath(tree),
});

/**
 * The model with `turn` added under `parentId` and shown. Under the last shown turn (a
 * message sent, an answer begun: every send) the path grows by that turn without being
 * walked again; elsewhere (an edit, a regenerate) the new path is walked.
 */
function withChild(model: ChatModel, parentId: string, turn: Turn): ChatModel {
  const last = model.turns.at(-1);
  const appended =
    (last === undefined ? parentId === ROOT : last.id === parentId) &&
    // A new id, on a path that is the tree's own: a path cut short by the guard of a cyclic
    // tree (damaged storage) is longer than the tree, and is walked again.
    nodeOf(model.tree, turn.id) === undefined &&
    model.turns.length <= turnCount(model.tree);
  const tree = addChild(model.tree, parentId, turn);
  return appended ? { ...model, tree, turns: [...model.turns, turn] } : withTree(model, tree);
}

/** Replaces one answer, in the tree and (when shown) in the path, keeping other objects. */
function updateAnswer(
  model: ChatModel,
  id: string,
  update: (turn: AssistantTurn) => AssistantTurn,
): ChatModel {
  const turn = nodeOf(model.tree, id);
  if (turn?.role !== 'assistant') return model;
  const next = update(turn);
  return {
    ...model,
    tree: replaceNode(model.tree, next),
    turns: replaceInPath(model.turns, id, next),
  };
}

/** The path with `next` for the turn of its id: a streaming answer is the last one. */
function replaceInPath(turns: readonly Turn[], id: string, next: Turn): readonly Turn[] {
  const index = turns.at(-1)?.id === id ? turns.length - 1 : turns.findIndex((t) => t.id === id);
  if (index < 0) return turns;
  const copy = turns.slice();
  copy[index] = next;
  return copy;
}

/** The turn with its first content's time, unless it has one (a continuation keeps the first). */
const withFirstContent = (turn: AssistantTurn, at: number | undefined): AssistantTurn =>
  at === undefined || typeof turn.firstContentAt === 'number'
    ? turn
    : { ...turn, firstContentAt: at };

const mergeResults = (
  turn: AssistantTurn,
  results: Readonly<Record<string, ToolResultState>>,
): AssistantTurn => ({ ...turn, toolResults: { ...turn.toolResults, ...results } });

export function chatReducer(model: ChatModel, action: ChatAction): ChatModel {
  switch (action.type) {
    case 'user-turn-added':
      // A user turn is added only to be sent: the request is as good as out.
      return {
        ...withChild(model, action.parentId, action.turn),
        status: 'submitted',
        error: null,
      };

    case 'answer-started':
      return {
        ...(action.inPlace
          ? updateAnswer(model, action.turn.id, () => action.turn)
          : withChild(model, action.parentId, action.turn)),
        status: 'submitted',
        error: null,
        live: action.turn.id,
      };

    case 'continuation-started':
      if (nodeOf(model.tree, action.id)?.role !== 'assistant') return model;
      return { ...model, status: 'submitted', error: null, live: action.id };

    case 'stream-updated': {
      const next = updateAnswer(model, action.id, (turn) => ({
        ...withFirstContent(turn, action.firstContentAt),
        stream: action.stream,
      }));
      const first = next.status === 'submitted' && next.live === action.id;
      return first && isLast(next, action.id) ? { ...next, status: 'streaming' } : next;
    }

    case 'answer-ended': {
      const next = updateAnswer(model, action.id, (turn) => ({
        ...withFirstContent(turn, action.firstContentAt),
        stream: action.stream,
        finishedAt: action.finishedAt,
      }));
      const live = next.live === action.id ? null : next.live;
      if (!isLast(next, action.id)) {
        // A newer request owns the status now; with none (an earlier answer continued, or
        // another branch shown meanwhile), the shown path says it.
        return live === null ? settle({ ...next, live }) : { ...next, live };
      }
      const status = action.toolsFollow ? 'running-tools' : statusOfStream(action.stream);
      return { ...next, live, status, error: action.stream.error };
    }

    case 'tool-results-updated': {
      const next = updateAnswer(model, action.id, (turn) => mergeResults(turn, action.results));
      const turn = nodeOf(next.tree, action.id);
      if (!isLast(next, action.id) || turn?.role !== 'assistant') return next;
      return { ...next, status: toolStatus(turn) ?? statusOfStream(turn.stream) };
    }

    case 'tools-stopped': {
      const next = updateAnswer(model, action.id, (turn) => mergeResults(turn, action.results));
      return isLast(next, action.id) ? { ...next, status: 'aborted' } : next;
    }

    case 'tool-loop-limited':
      return isLast(model, action.id)
        ? { ...model, status: 'complete', error: action.error }
        : model;

    case 'branch-selected': {
      const tree = selectSibling(model.tree, action.turnId, action.index);
      if (tree === model.tree) return model;
      const next = withTree(model, tree);
      const last = next.turns.at(-1);
      // The branch with the live answer keeps its streaming status.
      if (last !== undefined && last.id === next.live) {
        const status = last.role === 'assistant' ? statusOfStream(last.stream) : 'submitted';
        return { ...next, status, error: null };
      }
      return settle(next);
    }

    case 'send-refused':
      return { ...model, error: action.error };

    case 'replaced':
      return initialModel(action.tree);
  }
}

export { ROOT };
