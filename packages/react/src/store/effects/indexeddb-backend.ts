/**
 * Conversations in IndexedDB: one record per turn plus one small record of the tree's
 * shape; a write sends only the turns whose object changed since the last write (turns are
 * immutable, so identity says it), never the whole conversation. Loaded on demand by
 * persistence.ts.
 */
import { isPlainObject } from '@message-stream/core';
import { idbDelMany, idbGet, idbGetMany, idbSetMany, metaKeyOf, turnKeyOf } from '../idb.js';
import { setEntry } from '../tree.js';
import type { ConversationTree, Turn } from '../types.js';
import { type Backend, plain } from './persistence.js';
import { restoredTree } from './restore.js';

interface MetaRecord {
  readonly version: 1;
  readonly ids: readonly string[];
  readonly parents: ConversationTree['parents'];
  readonly children: ConversationTree['children'];
  readonly selected: ConversationTree['selected'];
}

export function indexedDbBackend(name: string): Backend {
  const metaKey = metaKeyOf(name);
  const turnKey = (id: string) => turnKeyOf(name, id);
  /** The turn objects as last written, by id. */
  let written = new Map<string, Turn>();
  let writtenShape: ConversationTree | null = null;
  return {
    async read() {
      const meta = await idbGet<MetaRecord>(metaKey);
      if (meta === undefined || !Array.isArray(meta.ids)) return null;
      const turns = await idbGetMany<Turn>(meta.ids.map(turnKey));
      const nodes: Record<string, Turn> = {};
      // A record that is not an object (null, damaged) names no turn; restoredTree checks the rest.
      for (const turn of turns) {
        if (isPlainObject(turn) && typeof turn.id === 'string') setEntry(nodes, turn.id, turn);
      }
      const tree = restoredTree({ tree: { ...meta, nodes } });
      // What is stored is known: the first write sends only what changes after this.
      if (tree !== null) {
        written = new Map(Object.entries(tree.nodes));
        writtenShape = tree;
      }
      return tree;
    },
    async write(model) {
      const { tree } = model;
      const entries: [string, unknown][] = [];
      const next = new Map<string, Turn>();
      for (const [id, turn] of Object.entries(tree.nodes)) {
        next.set(id, turn);
        if (written.get(id) !== turn) entries.push([turnKey(id), plain(turn)]);
      }
      const shapeChanged =
        writtenShape === null ||
        writtenShape.parents !== tree.parents ||
        writtenShape.children !== tree.children ||
        writtenShape.selected !== tree.selected;
      if (shapeChanged) {
        const meta: MetaRecord = {
          version: 1,
          ids: Object.keys(tree.nodes),
          parents: tree.parents,
          children: tree.children,
          selected: tree.selected,
        };
        entries.push([metaKey, plain(meta)]);
      }
      const removed = [...written.keys()].filter((id) => !next.has(id)).map(turnKey);
      if (entries.length > 0) await idbSetMany(entries);
      if (removed.length > 0) await idbDelMany(removed);
      written = next;
      writtenShape = tree;
    },
  };
}
