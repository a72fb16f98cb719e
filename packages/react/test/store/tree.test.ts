import { describe, expect, it } from 'vitest';
import {
  activePath,
  addChild,
  emptyTree,
  linearTree,
  nodeOf,
  ROOT,
  replaceNode,
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

/** A tree whose `nodes` counts how often something walked all of its keys. */
function watchedTree(count: number): { tree: ConversationTree; walks: () => number } {
  const plain = linearTree(Array.from({ length: count }, (_, i) => user(`t${i}`)));
  let walks = 0;
  const nodes = new Proxy(plain.nodes, {
    ownKeys(target) {
      walks++;
      return Reflect.ownKeys(target);
    },
  });
  return { tree: { ...plain, nodes }, walks: () => walks };
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
