import type { BranchInfo, ConversationTree, Turn } from './types.js';

/** The parent id of the first turns of a conversation. */
export const ROOT = '';

export const emptyTree = (): ConversationTree => ({
  nodes: {},
  parents: {},
  children: {},
  selected: {},
});

/** The shown path: from the root, the selected child of each turn, down to a leaf. */
export function activePath(tree: ConversationTree): Turn[] {
  const path: Turn[] = [];
  const node = readerOf(tree, 'nodes');
  const childrenOfTurn = readerOf(tree, 'children');
  const selectedOfTurn = readerOf(tree, 'selected');
  let parent = ROOT;
  // Bounded by the number of turns: a corrupted (cyclic) tree read from storage cannot hang.
  for (let guard = turnCount(tree); guard >= 0; guard--) {
    const children = childrenOfTurn(parent);
    if (children === undefined || children.length === 0) break;
    const index = clampIndex(selectedOfTurn(parent) ?? children.length - 1, children.length);
    const id = children[index] as string;
    const turn = node(id);
    if (turn === undefined) break;
    path.push(turn);
    parent = turn.id;
  }
  return path;
}

const clampIndex = (index: number, count: number): number =>
  Number.isInteger(index) ? Math.min(Math.max(index, 0), count - 1) : count - 1;

type RecordKey = keyof ConversationTree;
type Value<K extends RecordKey> = ConversationTree[K][string];

/**
 * A record of a tree written as the record it came from plus a few changed entries. The
 * record is built from them when first read (then kept in `built`): copying a record of
 * 2,000 turns costs over a millisecond, and a streaming answer replaces its turn on every
 * frame, a send adds two turns, where nothing reads the whole record. `base` and `changes`
 * change only when the record is built (to the built record and none), so a past tree keeps
 * showing what it showed; trees that share a record share this object, so the record they
 * read is one object too.
 */
class LazyRecord<V> {
  built: Readonly<Record<string, V>> | undefined = undefined;
  constructor(
    // Let go of once built (only an unbuilt record reads them), so a record is kept once.
    public base: Readonly<Record<string, V>>,
    public changes: ReadonlyMap<string, V>,
  ) {}
}

const NO_CHANGES: ReadonlyMap<string, never> = new Map<string, never>();

type LazyRecords = { [K in RecordKey]?: LazyRecord<Value<K>> };

const lazyRecords = new WeakMap<ConversationTree, LazyRecords>();

/** Past this many entries changed without a read, the record is built (a map copy per change would grow too). */
const MAX_CHANGES = 16;

/**
 * `record[id] = value`, where an id like `__proto__` is an own entry like any other (assigned,
 * it would swap the record's prototype). Core's partial-JSON reader has the same rule
 * (`setOwn`, private to core).
 */
export function setEntry<V>(record: Record<string, V>, id: string, value: V): void {
  if (id === '__proto__') {
    Object.defineProperty(record, id, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    record[id] = value;
  }
}

function build<V>(lazy: LazyRecord<V>): Readonly<Record<string, V>> {
  if (lazy.built === undefined) {
    const record: Record<string, V> = { ...lazy.base };
    for (const [id, value] of lazy.changes) setEntry(record, id, value);
    lazy.built = record;
    lazy.base = record;
    lazy.changes = NO_CHANGES;
  }
  return lazy.built;
}

/** The unbuilt lazy record behind `tree[key]`, if it is one. */
function pendingRecord<K extends RecordKey>(
  tree: ConversationTree,
  key: K,
): LazyRecord<Value<K>> | undefined {
  const lazy = lazyRecords.get(tree)?.[key] as LazyRecord<Value<K>> | undefined;
  return lazy !== undefined && lazy.built === undefined ? lazy : undefined;
}

/** Reads entries of a tree's record, without building a lazy record. */
function readerOf<K extends RecordKey>(
  tree: ConversationTree,
  key: K,
): (id: string) => Value<K> | undefined {
  const lazy = pendingRecord(tree, key);
  const record = (lazy?.base ?? tree[key]) as Readonly<Record<string, Value<K>>>;
  const changes = lazy?.changes;
  return (id) => {
    if (changes?.has(id)) return changes.get(id);
    return Object.hasOwn(record, id) ? record[id] : undefined;
  };
}

/** One entry of a tree's record, without building a lazy record. */
const entryOf = <K extends RecordKey>(tree: ConversationTree, key: K, id: string) =>
  readerOf(tree, key)(id);

/** The child of `id` the shown path goes through (as `activePath` picks it), if any. */
export function shownChildOf(tree: ConversationTree, id: string): Turn | undefined {
  const children = childrenOf(tree, id);
  if (children === undefined || children.length === 0) return undefined;
  const index = clampIndex(selectedOf(tree, id) ?? children.length - 1, children.length);
  return nodeOf(tree, children[index] as string);
}

/** One turn of `tree` by id, without building the tree's records. */
export const nodeOf = (tree: ConversationTree, id: string): Turn | undefined =>
  entryOf(tree, 'nodes', id);
/** A turn's parent id (`''` for a first turn), without building the tree's records. */
export const parentOf = (tree: ConversationTree, id: string): string | undefined =>
  entryOf(tree, 'parents', id);
const childrenOf = (tree: ConversationTree, id: string): readonly string[] | undefined =>
  entryOf(tree, 'children', id);
const selectedOf = (tree: ConversationTree, id: string): number | undefined =>
  entryOf(tree, 'selected', id);

/** `tree[key]` as a lazy record with `id` set to `value`. */
function withEntry<K extends RecordKey>(
  tree: ConversationTree,
  key: K,
  id: string,
  value: Value<K>,
): LazyRecord<Value<K>> {
  const pending = pendingRecord(tree, key);
  const changes = new Map(pending?.changes);
  changes.set(id, value);
  return new LazyRecord(
    pending?.base ?? (tree[key] as Readonly<Record<string, Value<K>>>),
    changes,
  );
}

/** `tree[key]` as the next tree takes it unchanged: the same value, or the same lazy record. */
const kept = <K extends RecordKey>(tree: ConversationTree, key: K) =>
  lazyRecords.get(tree)?.[key] ?? tree[key];

/**
 * A tree from its four records, each a plain record or a lazy one. A lazy record is an own,
 * enumerable accessor built on first read, so the tree reads (and serializes) as the plain
 * tree it stands for.
 */
function treeOf(
  records: {
    readonly [K in RecordKey]: LazyRecord<Value<K>> | ConversationTree[K];
  },
): ConversationTree {
  const tree: Record<string, unknown> = {};
  const lazy: Record<string, LazyRecord<unknown>> = {};
  for (const key of ['nodes', 'parents', 'children', 'selected'] as const) {
    const record: LazyRecord<unknown> | object = records[key];
    if (!(record instanceof LazyRecord)) {
      tree[key] = record;
      continue;
    }
    if (record.built === undefined && record.changes.size > MAX_CHANGES) build(record);
    lazy[key] = record;
    Object.defineProperty(tree, key, {
      get: () => build(record),
      enumerable: true,
      configurable: true,
    });
  }
  const next = tree as unknown as ConversationTree;
  if (Object.keys(lazy).length > 0) lazyRecords.set(next, lazy as LazyRecords);
  return next;
}

/**
 * Adds `turn` under `parentId` as its newest child, and shows it. Costs the same at any
 * length of conversation (each record is lazy, see `LazyRecord`).
 */
export function addChild(tree: ConversationTree, parentId: string, turn: Turn): ConversationTree {
  const siblings = [...(childrenOf(tree, parentId) ?? []), turn.id];
  return treeOf({
    nodes: withEntry(tree, 'nodes', turn.id, turn),
    parents: withEntry(tree, 'parents', turn.id, parentId),
    children: withEntry(tree, 'children', parentId, siblings),
    selected: withEntry(tree, 'selected', parentId, siblings.length - 1),
  });
}

/**
 * Replaces one turn (same id, same place). Costs the same at any length of conversation:
 * the new tree's `nodes` is lazy, its other records are the old tree's.
 */
export function replaceNode(tree: ConversationTree, turn: Turn): ConversationTree {
  return treeOf({
    nodes: withEntry(tree, 'nodes', turn.id, turn),
    parents: kept(tree, 'parents'),
    children: kept(tree, 'children'),
    selected: kept(tree, 'selected'),
  });
}

const recordSizes = new WeakMap<object, number>();
const sizeOf = (record: object): number => {
  let size = recordSizes.get(record);
  if (size === undefined) {
    size = Object.keys(record).length;
    recordSizes.set(record, size);
  }
  return size;
};

/** How many turns `tree` holds, without building its records (each base is counted once). */
export function turnCount(tree: ConversationTree): number {
  const lazy = pendingRecord(tree, 'nodes');
  if (lazy === undefined) return sizeOf(tree.nodes);
  let added = 0;
  for (const id of lazy.changes.keys()) if (!Object.hasOwn(lazy.base, id)) added++;
  return sizeOf(lazy.base) + added;
}

/**
 * A record of `entries`, as `Object.fromEntries` makes it (a later entry of an id wins, and
 * `__proto__` is an own entry like any other id), at a fraction of its cost for many ids: with
 * 2,000 new ids `fromEntries` took 6-12 ms in Node and 30 ms of a 1,000-turn thread's first
 * paint in Chromium, assignment 1-3 ms.
 */
export function recordOf<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const record: Record<string, V> = {};
  for (const [id, value] of entries) setEntry(record, id, value);
  return record;
}

/** A straight conversation (no branches) as a tree. */
export function linearTree(turns: readonly Turn[]): ConversationTree {
  // One pass: folding addChild copies every map once per turn, which made restoring a
  // 1,000-turn thread quadratic (seconds before the composer was usable). It means what that
  // fold means, repeated ids included.
  const parents: [string, string][] = [];
  const children = new Map<string, string[]>();
  let parent = ROOT;
  for (const turn of turns) {
    parents.push([turn.id, parent]);
    const siblings = children.get(parent);
    if (siblings === undefined) children.set(parent, [turn.id]);
    else siblings.push(turn.id);
    parent = turn.id;
  }
  return {
    nodes: recordOf(turns.map((turn) => [turn.id, turn])),
    parents: recordOf(parents),
    children: recordOf(children),
    selected: recordOf([...children].map(([id, ids]) => [id, ids.length - 1])),
  };
}

export function branchInfo(tree: ConversationTree, turnId: string): BranchInfo {
  const parent = parentOf(tree, turnId);
  const siblings = parent === undefined ? undefined : childrenOf(tree, parent);
  const index = siblings?.indexOf(turnId) ?? -1;
  if (siblings === undefined || index < 0) return { index: 0, count: 1 };
  return { index, count: siblings.length };
}

/** Shows the `index`-th sibling of `turnId`; unchanged when there is no such sibling. */
export function selectSibling(
  tree: ConversationTree,
  turnId: string,
  index: number,
): ConversationTree {
  const parent = parentOf(tree, turnId);
  const siblings = parent === undefined ? undefined : childrenOf(tree, parent);
  if (parent === undefined || siblings === undefined) return tree;
  if (!Number.isInteger(index) || index < 0 || index >= siblings.length) return tree;
  if ((selectedOf(tree, parent) ?? siblings.length - 1) === index) return tree;
  return treeOf({
    nodes: kept(tree, 'nodes'),
    parents: kept(tree, 'parents'),
    children: kept(tree, 'children'),
    selected: withEntry(tree, 'selected', parent, index),
  });
}

/** Which sibling of `turnId`'s group is shown (whichever sibling `turnId` is), and how many. */
export function shownBranch(tree: ConversationTree, turnId: string): BranchInfo {
  const parent = parentOf(tree, turnId);
  const siblings = parent === undefined ? undefined : childrenOf(tree, parent);
  if (parent === undefined || siblings === undefined || siblings.length === 0) {
    return { index: 0, count: 1 };
  }
  const selected = selectedOf(tree, parent) ?? siblings.length - 1;
  return { index: Math.min(Math.max(selected, 0), siblings.length - 1), count: siblings.length };
}
