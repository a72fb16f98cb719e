/**
 * Restore: a conversation read back from storage. An answer that was still streaming when
 * the page went away cannot continue that connection: it ends as interrupted, ready to
 * resume, on whichever branch it was. A tool that was running has no result to give.
 */
import {
  describeError,
  endStream,
  isFinalStatus,
  isPlainObject,
  type StreamState,
} from '@message-stream/core';
import { PAGE_LEFT_MID_ANSWER } from '../page-left.js';
import { linearTree, ROOT, recordOf, setEntry } from '../tree.js';
import type { AssistantTurn, ConversationTree, ToolResultState, Turn } from '../types.js';
import { DEFAULT_DENIAL, DENIED_BY_NEW_MESSAGE, STOPPED_RESULT } from './tool-loop.js';

const RELOADED: ToolResultState = {
  status: 'error',
  content: 'The page was reloaded before the tool finished.',
  isError: true,
  endedBy: 'reload',
};

/**
 * A stored answer's stream, as the views can read it: `attempts` a list of records (damaged,
 * it is left out: only the details and the usage note read it), and an error's `retry-after`
 * wait left out, with its sentence said again without it. That wait was counted from a moment
 * long gone: kept, a conversation opened days later would count down and send a request
 * nobody asked for.
 */
function readableStream(stream: StreamState): StreamState {
  let next = stream;
  if (next.attempts !== undefined && !isListOf(next.attempts, () => true)) {
    const { attempts: _damaged, ...rest } = next;
    next = rest;
  }
  const error = next.error;
  if (isPlainObject(error) && error.retryAfterMs !== undefined) {
    const { retryAfterMs: _gone, ...rest } = error;
    const type = typeof rest.type === 'string' ? rest.type : 'api_error';
    const message = typeof rest.message === 'string' ? rest.message : '';
    next = { ...next, error: { ...rest, description: describeError({ ...rest, type, message }) } };
  }
  return next;
}

function settleTurn(turn: Turn): Turn {
  if (turn.role !== 'assistant') return turn;
  // A record from an older or damaged store may lack its results: none is no result.
  let next: AssistantTurn = isPlainObject(turn.toolResults) ? turn : { ...turn, toolResults: {} };
  const stream = readableStream(next.stream);
  if (stream !== next.stream) next = { ...next, stream };
  if (!isFinalStatus(next.stream.status)) {
    const ended = endStream(next.stream);
    // Said as what happened: as a network error it read "The network connection failed".
    next = {
      ...next,
      stream: ended.status === 'interrupted' ? { ...ended, error: PAGE_LEFT_MID_ANSWER } : ended,
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
export function isTurn(value: unknown): value is Turn {
  if (!isPlainObject(value) || typeof value.id !== 'string' || value.id === '') return false;
  if (value.role === 'user') {
    return typeof value.content === 'string' || isListOf(value.content, hasType);
  }
  const stream = value.stream;
  return (
    value.role === 'assistant' &&
    isPlainObject(stream) &&
    typeof stream.status === 'string' &&
    (stream.message === null ||
      (isPlainObject(stream.message) &&
        isListOf(stream.message.content, (entry) => hasType(entry.block)))) &&
    (value.toolResults === undefined || isPlainObject(value.toolResults))
  );
}

/** A block or content part: an object with a type (what every view reads first). */
const hasType = (value: unknown): boolean => isPlainObject(value) && typeof value.type === 'string';

const isListOf = (value: unknown, each: (entry: Record<string, unknown>) => boolean): boolean =>
  Array.isArray(value) && value.every((entry) => isPlainObject(entry) && each(entry));

/** Settled, or left out when even that fails on it: one record never fails the read. */
function settledEntries(entries: [string, unknown][]): [string, Turn][] {
  return entries.flatMap(([id, turn]): [string, Turn][] => {
    if (!isTurn(turn)) return [];
    try {
      return [[id, settleTurn(turn)]];
    } catch {
      return [];
    }
  });
}

/**
 * The tree without the turns left out: each one's children take its place under its parent,
 * so the turns after a damaged record are still on the shown path instead of cut off there.
 */
function withoutLeftOut(tree: ConversationTree, nodes: Record<string, Turn>): ConversationTree {
  const parents = recordOf(Object.entries(tree.parents ?? {}));
  const children = recordOf(Object.entries(tree.children ?? {}));
  const selected = recordOf(Object.entries(tree.selected ?? {}));
  // A turn is left out when its record was (damaged), or missing (a record IndexedDB lost).
  for (const id of new Set([...Object.keys(tree.nodes ?? {}), ...Object.keys(parents)])) {
    if (Object.hasOwn(nodes, id)) continue;
    const parent = Object.hasOwn(parents, id) ? (parents[id] as string) : ROOT;
    const kids = listAt(children, id);
    const siblings = listAt(children, parent);
    const at = siblings.indexOf(id);
    setEntry(
      children,
      parent,
      at === -1
        ? [...siblings, ...kids]
        : [...siblings.slice(0, at), ...kids, ...siblings.slice(at + 1)],
    );
    for (const kid of kids) setEntry(parents, kid, parent);
    // The parent's shown child was this turn: its own shown child is shown in its place.
    const shown = Object.hasOwn(selected, parent) ? selected[parent] : undefined;
    if (at !== -1 && shown === at && kids.length > 0) {
      const own = Object.hasOwn(selected, id) ? (selected[id] as number) : kids.length - 1;
      setEntry(selected, parent, at + Math.min(Math.max(own, 0), kids.length - 1));
    } else if (at !== -1 && typeof shown === 'number' && shown > at) {
      setEntry(selected, parent, shown + kids.length - 1);
    }
    delete children[id];
    delete parents[id];
    delete selected[id];
  }
  return { nodes, parents, children, selected };
}

const listAt = (record: Record<string, readonly string[]>, id: string): string[] => {
  const list = Object.hasOwn(record, id) ? record[id] : undefined;
  return Array.isArray(list) ? list.filter((kid): kid is string => typeof kid === 'string') : [];
};

/**
 * The tree a stored value holds, settled; null when it holds none. Reads this store's
 * format (`{ tree }`) and the linear one of earlier versions (`{ turns }`).
 */
export function restoredTree(stored: unknown): ConversationTree | null {
  const value = (stored as { state?: unknown } | null)?.state ?? stored;
  const tree = (value as { tree?: ConversationTree } | null)?.tree;
  if (tree !== undefined && tree !== null && typeof tree === 'object') {
    const nodes = recordOf(settledEntries(Object.entries(tree.nodes ?? {})));
    return withoutLeftOut(tree, nodes);
  }
  const turns = (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns)) return null;
  return linearTree(settledEntries(turns.map((turn) => ['', turn])).map(([, turn]) => turn));
}
