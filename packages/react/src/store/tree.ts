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
  let parent = ROOT;
  // Bounded by the number of turns: a corrupted (cyclic) tree read from storage cannot hang.
  for (let guard = Object.keys(tree.nodes).length; guard >= 0; guard--) {
    const children = tree.children[parent];
    if (children === undefined || children.length === 0) break;
    const index = clampIndex(tree.selected[parent] ?? children.length - 1, children.length);
    const turn = tree.nodes[children[index] as string];
    if (turn === undefined) break;
    path.push(turn);
    parent = turn.id;
  }
  return path;
}

const clampIndex = (index: number, count: number): number =>
  Number.isInteger(index) ? Math.min(Math.max(index, 0), count - 1) : count - 1;

/** Adds `turn` under `parentId` as its newest child, and shows it. */
export function addChild(tree: ConversationTree, parentId: string, turn: Turn): ConversationTree {
  const siblings = [...(tree.children[parentId] ?? []), turn.id];
  return {
    nodes: { ...tree.nodes, [turn.id]: turn },
    parents: { ...tree.parents, [turn.id]: parentId },
    children: { ...tree.children, [parentId]: siblings },
    selected: { ...tree.selected, [parentId]: siblings.length - 1 },
  };
}

/**
 * The turns a tree from `replaceNode` replaced, over the `nodes` of the tree it came from.
 * `nodes` is built from them when first read (then kept in `built`): copying a record of
 * 1,000 turns is about half a millisecond, and a streaming answer replaces its turn on every
 * frame, where nothing reads the whole record. Neither `base` nor `changes` is ever changed,
 * so a past tree keeps showing what it showed.
 */
interface Replaced {
  readonly base: Readonly<Record<string, Turn>>;
  readonly changes: ReadonlyMap<string, Turn>;
  built: Readonly<Record<string, Turn>> | undefined;
}

const replaced = new WeakMap<ConversationTree, Replaced>();

/** Past this many different turns replaced without a read, `nodes` is built (a map copy per frame would grow too). */
const MAX_CHANGES = 16;

function buildNodes(overlay: Replaced): Readonly<Record<string, Turn>> {
  if (overlay.built === undefined) {
    const nodes: Record<string, Turn> = { ...overlay.base };
    // Defined, not assigned: an id like `__proto__` stays an own entry.
    for (const [id, turn] of overlay.changes)
      Object.defineProperty(nodes, id, {
        value: turn,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    overlay.built = nodes;
  }
  return overlay.built;
}

const NODES_PROPERTY: PropertyDescriptor = {
  get(this: ConversationTree) {
    const overlay = replaced.get(this);
    return overlay === undefined ? undefined : buildNodes(overlay);
  },
  enumerable: true,
  configurable: true,
};

/** One turn of `tree` by id, without building a lazily replaced tree's `nodes`. */
export function nodeOf(tree: ConversationTree, id: string): Turn | undefined {
  const overlay = replaced.get(tree);
  if (overlay === undefined || overlay.built !== undefined) {
    return Object.hasOwn(tree.nodes, id) ? tree.nodes[id] : undefined;
  }
  const changed = overlay.changes.get(id);
  if (changed !== undefined) return changed;
  return Object.hasOwn(overlay.base, id) ? overlay.base[id] : undefined;
}

/**
 * Replaces one turn (same id, same place). Costs the same at any length of conversation:
 * the new tree's `nodes` is an own, enumerable accessor built on first read.
 */
export function replaceNode(tree: ConversationTree, turn: Turn): ConversationTree {
  const overlay = replaced.get(tree);
  const pending = overlay !== undefined && overlay.built === undefined ? overlay : undefined;
  const changes = new Map(pending?.changes);
  changes.set(turn.id, turn);
  const next = {
    parents: tree.parents,
    children: tree.children,
    selected: tree.selected,
  } as ConversationTree;
  replaced.set(next, {
    base: pending === undefined ? tree.nodes : pending.base,
    changes,
    built: undefined,
  });
  Object.defineProperty(next, 'nodes', NODES_PROPERTY);
  if (changes.size > MAX_CHANGES) void next.nodes;
  return next;
}

/** A straight conversation (no branches) as a tree. */
export function linearTree(turns: readonly Turn[]): ConversationTree {
  // One pass: folding addChild copies every map once per turn, which made restoring a
  // 1,000-turn thread quadratic (seconds before the composer was usable). It means what that
  // fold means, repeated ids included; fromEntries keeps every id (`__proto__` too) an own key.
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
    nodes: Object.fromEntries(turns.map((turn) => [turn.id, turn])),
    parents: Object.fromEntries(parents),
    children: Object.fromEntries(children),
    selected: Object.fromEntries([...children].map(([id, ids]) => [id, ids.length - 1])),
  };
}

export function branchInfo(tree: ConversationTree, turnId: string): BranchInfo {
  const parent = tree.parents[turnId];
  const siblings = parent === undefined ? undefined : tree.children[parent];
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
  const parent = tree.parents[turnId];
  const siblings = parent === undefined ? undefined : tree.children[parent];
  if (parent === undefined || siblings === undefined) return tree;
  if (!Number.isInteger(index) || index < 0 || index >= siblings.length) return tree;
  if ((tree.selected[parent] ?? siblings.length - 1) === index) return tree;
  return { ...tree, selected: { ...tree.selected, [parent]: index } };
}

/** Which sibling of `turnId`'s group is shown (whichever sibling `turnId` is), and how many. */
export function shownBranch(tree: ConversationTree, turnId: string): BranchInfo {
  const parent = tree.parents[turnId];
  const siblings = parent === undefined ? undefined : tree.children[parent];
  if (parent === undefined || siblings === undefined || siblings.length === 0) {
    return { index: 0, count: 1 };
  }
  const selected = tree.selected[parent] ?? siblings.length - 1;
  return { index: Math.min(Math.max(selected, 0), siblings.length - 1), count: siblings.length };
}
