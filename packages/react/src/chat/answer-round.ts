import { isToolResultsTurn } from '../store/conversation.js';
import { nodeOf, parentOf, shownChildOf } from '../store/tree.js';
import type { AssistantTurn, ConversationTree, Turn } from '../store/types.js';

// One answer can span several turns: a turn that calls client tools ends (`tool_use`), the
// results go back in a user turn the log does not show, and the answer goes on in the next
// turn. The log shows them as one answer: one action row, under its last part.

const isAssistant = (turn: Turn | undefined): turn is AssistantTurn => turn?.role === 'assistant';

/** Whether `turn`'s answer goes on in a later turn of the shown path, after its tool results. */
export function answerGoesOn(tree: ConversationTree, turn: AssistantTurn): boolean {
  if (turn.stream.message?.stop_reason !== 'tool_use') return false;
  const results = shownChildOf(tree, turn.id);
  return (
    results !== undefined &&
    isToolResultsTurn(results) &&
    isAssistant(shownChildOf(tree, results.id))
  );
}

/**
 * The turns of the answer `turn` ends, first to last: `turn` and the turns before it that it
 * goes on from (each joined to the next by a turn of tool results only).
 */
export function answerParts(tree: ConversationTree, turn: AssistantTurn): AssistantTurn[] {
  const parts = [turn];
  // A corrupted (cyclic) tree read from storage cannot hang: a turn met again ends the walk.
  // (Bounded by the tree's size, it counted the turns: work for every frame of a streaming
  // answer that grew with the conversation.)
  for (let first = turn; ; ) {
    const resultsId = parentOf(tree, first.id);
    const results = resultsId === undefined ? undefined : nodeOf(tree, resultsId);
    if (results === undefined || !isToolResultsTurn(results)) break;
    const before = nodeOf(tree, parentOf(tree, results.id) ?? '');
    if (!isAssistant(before) || before.stream.message?.stop_reason !== 'tool_use') break;
    if (parts.includes(before)) break;
    parts.unshift(before);
    first = before;
  }
  return parts;
}
