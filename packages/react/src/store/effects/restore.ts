/**
 * Restore: a conversation read back from storage. An answer that was still streaming when
 * the page went away cannot continue that connection: it ends as interrupted, ready to
 * resume, on whichever branch it was. A tool that was running has no result to give.
 */
import { endStream, isFinalStatus, isPlainObject } from '@message-stream/core';
import { linearTree, recordOf } from '../tree.js';
import type { AssistantTurn, ConversationTree, ToolResultState, Turn } from '../types.js';
import { DEFAULT_DENIAL, DENIED_BY_NEW_MESSAGE, STOPPED_RESULT } from './tool-loop.js';

const RELOADED: ToolResultState = {
  status: 'error',
  content: 'The page was reloaded before the tool finished.',
  isError: true,
  endedBy: 'reload',
};

function settleTurn(turn: Turn): Turn {
  if (turn.role !== 'assistant') return turn;
  // A record from an older or damaged store may lack its results: none is no result.
  let next: AssistantTurn = isPlainObject(turn.toolResults) ? turn : { ...turn, toolResults: {} };
  if (!isFinalStatus(turn.stream.status)) {
    next = {
      ...next,
      stream: endStream(turn.stream, {
        type: 'network',
        message: 'The page was closed or reloaded while this answer was streaming.',
      }),
    };
  }
  const results = Object.values(next.toolResults);
  if (results.some((result) => !isResult(result) || isUnmarkedDecision(result))) {
    // A damaged entry is no result (the call is answered like one that never ran).
    next = {
      ...next,
      toolResults: Object.fromEntries(
        Object.entries(next.toolResults).flatMap(([id, result]) =>
          isResult(result) ? [[id, marked(result)]] : [],
        ),
      ),
    };
  }
  const running = Object.entries(next.toolResults).filter(([, r]) => r.status === 'running');
  if (running.length > 0) {
    next = {
      ...next,
      toolResults: {
        ...next.toolResults,
        ...Object.fromEntries(running.map(([id]) => [id, RELOADED])),
      },
    };
  }
  return next;
}

/**
 * Threads saved before results said who decided them hold a denial, a skip or a stop as a
 * plain error, which would show as the tool failing. The kit's own sentences say which it was.
 */
const UNMARKED: Readonly<Record<string, Partial<ToolResultState>>> = {
  [DEFAULT_DENIAL]: { declined: 'denied' },
  [DENIED_BY_NEW_MESSAGE]: { declined: 'skipped' },
  [STOPPED_RESULT.content as string]: { endedBy: 'stop' },
  [RELOADED.content as string]: { endedBy: 'reload' },
};

const isResult = (value: unknown): value is ToolResultState =>
  isPlainObject(value) && typeof value.status === 'string';

const isUnmarkedDecision = (result: ToolResultState): boolean =>
  result.status === 'error' &&
  result.declined === undefined &&
  result.endedBy === undefined &&
  typeof result.content === 'string' &&
  Object.hasOwn(UNMARKED, result.content);

const marked = (result: ToolResultState): ToolResultState =>
  isUnmarkedDecision(result) ? { ...result, ...UNMARKED[result.content as string] } : result;

/**
 * A stored record that can be a turn: one that is not (damaged storage, another app's data) is
 * left out rather than failing the whole read, so one bad record never loses a thread.
 */
function isTurn(value: unknown): value is Turn {
  if (!isPlainObject(value) || typeof value.id !== 'string' || value.id === '') return false;
  if (value.role === 'user') return true;
  return (
    value.role === 'assistant' &&
    isPlainObject(value.stream) &&
    typeof value.stream.status === 'string' &&
    (value.toolResults === undefined || isPlainObject(value.toolResults))
  );
}

/**
 * The tree a stored value holds, settled; null when it holds none. Reads this store's
 * format (`{ tree }`) and the linear one of earlier versions (`{ turns }`).
 */
export function restoredTree(stored: unknown): ConversationTree | null {
  const value = (stored as { state?: unknown } | null)?.state ?? stored;
  const tree = (value as { tree?: ConversationTree } | null)?.tree;
  if (tree !== undefined && tree !== null && typeof tree === 'object') {
    const nodes = recordOf(
      Object.entries(tree.nodes ?? {})
        .filter(([, turn]) => isTurn(turn))
        .map(([id, turn]) => [id, settleTurn(turn)]),
    );
    return {
      nodes,
      parents: tree.parents ?? {},
      children: tree.children ?? {},
      selected: tree.selected ?? {},
    };
  }
  const turns = (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns)) return null;
  return linearTree(turns.filter(isTurn).map(settleTurn));
}
