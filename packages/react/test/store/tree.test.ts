import { describe, expect, it } from 'vitest';
import { activePath, addChild, emptyTree, linearTree, ROOT } from '../../src/store/tree.js';
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
