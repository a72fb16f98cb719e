/**
 * Persistence from its own chunk (the backends, the restore checks, idb-keyval after them):
 * asked for as a store with `persist` is created, so a chat that saves nothing never loads
 * it. Reading back is asynchronous anyway (`restored`); until the chunk arrives, changes wait
 * in memory like changes made before the read.
 */

import { loadOnce } from '../../load-once.js';
import type { ConversationTree } from '../types.js';
import type { Persistence, PersistenceHost, StorageChoice } from './persistence.js';

const persistenceChunk = loadOnce(() => import('./persistence.js'));

export function startPersistenceLater(
  host: PersistenceHost,
  name: string,
  choice: StorageChoice,
): Persistence {
  // What storage is compared with once read: the tree the store began with, not whatever it
  // holds when the chunk arrives (a message sent meanwhile must still be written).
  const began: ConversationTree = host.model().tree;
  let disposed = false;
  const started = persistenceChunk().then(
    (chunk) => {
      const persistence = chunk.startPersistence(host, name, choice, began);
      if (disposed) persistence.dispose();
      return persistence;
    },
    (error: unknown) => {
      // Offline, or a deploy replaced the chunk: nothing is read, so nothing is written over
      // what storage holds; the conversation keeps working in memory.
      host.report(error, 'read');
      return null;
    },
  );
  return {
    restored: started.then((persistence) => persistence?.restored),
    flush: () => started.then((persistence) => persistence?.flush()),
    dispose() {
      disposed = true;
      void started.then((persistence) => persistence?.dispose());
    },
  };
}
