import { describe, expect, it } from 'vitest';
import {
  activePath,
  addChild,
  branchInfo,
  emptyTree,
  linearTree,
  nodeOf,
  parentOf,
  ROOT,
  recordOf,
  replaceNode,
  selectSibling,
  turnCount,
} from '../../src/store/tree.js';
import type { ConversationTree, Turn, UserTurn } from '../../src/store/types.js';

const user = (id: string): UserTurn => ({ id, role: 'user', content: id });

/** The tree as adding each turn under the previous one builds it: what linearTree must equal. */
function folded(turns: readonly Turn[]): ConversationTree {
  let tree = emptyTree();
  let parent = ROOT;
  for (const turn of turns) {
    tree = addChild(tree, parent, turn);
    parent = turn.id;
  }
  return tree;
}

describe('recordOf', () => {
  it('makes the record Object.fromEntries makes: own entries, later ids win, in order', () => {
    const entries: [string, number][] = [
      ['a', 1],
      ['__proto__', 2],
      ['constructor', 3],
      ['b', 4],
      ['a', 5],
      ['10', 6],
    ];
    const record = recordOf(entries);
    expect(record).toStrictEqual(Object.fromEntries(entries));
    expect(Object.entries(record)).toEqual(Object.entries(Object.fromEntries(entries)));
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toBe(2);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });
});

describe('linearTree', () => {
  it('is the tree that adding the turns one under another builds', () => {
    for (const count of [0, 1, 2, 7, 300]) {
      const turns = Array.from({ length: count }, (_, i) => user(`t${i}`));
      const tree = linearTree(turns);
      expect(tree).toEqual(folded(turns));
      expect(activePath(tree).map((turn) => turn.id)).toEqual(turns.map((turn) => turn.id));
    }
  });

  it('keeps a `__proto__` id as an own entry, prototypes untouched', () => {
    const turns = [user('a'), user('__proto__'), user('b')];
    const tree = linearTree(turns);
    expect(Object.hasOwn(tree.nodes, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(tree.nodes)).toBe(Object.prototype);
    expect(tree.parents.b).toBe('__proto__');
    expect(activePath(tree).map((turn) => turn.id)).toEqual(['a', '__proto__', 'b']);
  });

  it('gives repeated ids the meaning adding them one by one gives', () => {
    const turns = [user('a'), user('b'), user('a')];
    expect(linearTree(turns)).toEqual(folded(turns));
  });
});

/** A tree whose records count how often something walked all of their keys. */
function watchedTree(count: number): { tree: ConversationTree; walks: () => number } {
  const plain = linearTree(Array.from({ length: count }, (_, i) => user(`t${i}`)));
  let walks = 0;
  const watched = <T extends object>(record: T): T =>
    new Proxy(record, {
      ownKeys(target) {
        walks++;
        return Reflect.ownKeys(target);
      },
    });
  return {
    tree: {
      nodes: watched(plain.nodes),
      parents: watched(plain.parents),
      children: watched(plain.children),
      selected: watched(plain.selected),
    },
    walks: () => walks,
  };
}

describe('replaceNode', () => {
  it('replaces a turn without walking the other turns, however often it runs', () => {
    const { tree, walks } = watchedTree(1000);
    let next = tree;
    for (let i = 0; i < 200; i++) next = replaceNode(next, user(`t999`));
    next = replaceNode(next, { id: 't999', role: 'user', content: 'last' });
    expect(walks()).toBe(0);
    expect(nodeOf(next, 't999')).toEqual({ id: 't999', role: 'user', content: 'last' });
    expect(nodeOf(next, 't0')).toBe(tree.nodes.t0);
    expect(nodeOf(next, 'toString')).toBeUndefined();
    expect(next.parents).toBe(tree.parents);
  });

  it('reads as the plain tree it stands for, and past trees keep what they showed', () => {
    const turns = [user('a'), user('__proto__'), user('b')];
    const first = linearTree(turns);
    const second = replaceNode(first, { id: 'b', role: 'user', content: 'b2' });
    const third = replaceNode(second, { id: '__proto__', role: 'user', content: 'p2' });
    // Built on first read, kept after it: the same record each time.
    expect(third.nodes).toBe(third.nodes);
    expect(Object.hasOwn(third.nodes, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(third.nodes)).toBe(Object.prototype);
    expect(Object.keys(third.nodes)).toEqual(['a', '__proto__', 'b']);
    expect(JSON.parse(JSON.stringify(third))).toEqual({
      nodes: {
        a: user('a'),
        ['__proto__']: { id: '__proto__', role: 'user', content: 'p2' },
        b: { id: 'b', role: 'user', content: 'b2' },
      },
      parents: first.parents,
      children: first.children,
      selected: first.selected,
    });
    expect(structuredClone(third)).toEqual(third);
    expect(activePath(third).map((turn) => (turn as UserTurn).content)).toEqual(['a', 'p2', 'b2']);
    // Reading the newer trees changed nothing the older ones show.
    expect(second.nodes.b).toEqual({ id: 'b', role: 'user', content: 'b2' });
    expect(nodeOf(second, '__proto__')).toEqual(user('__proto__'));
    expect(first.nodes.b).toEqual(user('b'));
    // A tree replaced after a read starts from what was read.
    const fourth = replaceNode(third, user('a'));
    expect(nodeOf(fourth, 'b')).toEqual({ id: 'b', role: 'user', content: 'b2' });
    expect(fourth.nodes.a).toEqual(user('a'));
  });
});

describe('addChild', () => {
  it('adds a turn without walking the conversation, however long it is and however often', () => {
    const { tree, walks } = watchedTree(2000);
    let next = tree;
    let parent = 't1999';
    for (let i = 0; i < 200; i++) {
      next = addChild(next, parent, user(`n${i}`));
      parent = `n${i}`;
      // What a send reads: the new turn, its parent, its branches, the count of turns.
      expect(nodeOf(next, parent)).toEqual(user(parent));
      expect(branchInfo(next, parent)).toEqual({ index: 0, count: 1 });
      expect(turnCount(next)).toBe(2001 + i);
    }
    // Past MAX_CHANGES the records are rebuilt now and then: bounded, not once per turn.
    const rebuilt = walks();
    expect(rebuilt).toBeLessThanOrEqual(4 * Math.ceil(200 / 16) + 1);
    expect(parentOf(next, 'n0')).toBe('t1999');
    expect(nodeOf(next, 'toString')).toBeUndefined();
    expect(turnCount(tree)).toBe(2000);
  });

  it('reads as the plain tree it stands for, and past trees keep what they showed', () => {
    const first = linearTree([user('a'), user('b')]);
    const second = addChild(first, 'a', user('__proto__'));
    const third = addChild(second, '__proto__', user('c'));
    const plain = {
      nodes: { a: user('a'), b: user('b'), ['__proto__']: user('__proto__'), c: user('c') },
      parents: { a: ROOT, b: 'a', ['__proto__']: 'a', c: '__proto__' },
      children: { [ROOT]: ['a'], a: ['b', '__proto__'], ['__proto__']: ['c'] },
      selected: { [ROOT]: 0, a: 1, ['__proto__']: 0 },
    };
    expect(JSON.parse(JSON.stringify(third))).toEqual(plain);
    expect(structuredClone(third)).toEqual(third);
    expect(Object.hasOwn(third.parents, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(third.children)).toBe(Object.prototype);
    expect(third.children).toBe(third.children);
    expect(activePath(third).map((turn) => turn.id)).toEqual(['a', '__proto__', 'c']);
    expect(turnCount(third)).toBe(4);
    // The older trees still show their own branches.
    expect(activePath(first).map((turn) => turn.id)).toEqual(['a', 'b']);
    expect(activePath(second).map((turn) => turn.id)).toEqual(['a', '__proto__']);
    expect(nodeOf(second, 'c')).toBeUndefined();
    expect(first.children.a).toEqual(['b']);
    // A branch chosen on a lazy tree, and a turn replaced on it, read as usual.
    const back = selectSibling(third, 'b', 0);
    expect(activePath(back).map((turn) => turn.id)).toEqual(['a', 'b']);
    expect(back.selected).toEqual({ ...plain.selected, a: 0 });
    expect(back.nodes).toEqual(plain.nodes);
    const replaced = replaceNode(third, { id: 'c', role: 'user', content: 'c2' });
    expect(replaced.parents).toBe(third.parents);
    expect(nodeOf(replaced, 'c')).toEqual({ id: 'c', role: 'user', content: 'c2' });
    expect(nodeOf(third, 'c')).toEqual(user('c'));
  });
});

describe('activePath', () => {
  it('ends in a corrupted, cyclic tree, after as many steps as it has turns', () => {
    const tree: ConversationTree = {
      nodes: { a: user('a'), b: user('b') },
      parents: { a: 'b', b: 'a' },
      children: { [ROOT]: ['a'], a: ['b'], b: ['a'] },
      selected: {},
    };
    expect(activePath(tree).map((turn) => turn.id)).toEqual(['a', 'b', 'a']);
  });
});
