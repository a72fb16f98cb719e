import { describe, expect, it } from 'vitest';
import { answerParts } from '../../src/chat/answer-round.js';
import { answerFromMessage } from '../../src/store/conversation.js';
import { ROOT } from '../../src/store/tree.js';
import type { AssistantTurn, ConversationTree, UserTurn } from '../../src/store/types.js';

/** An answer that called a tool (it goes on after the tool's result). */
function callingTool(id: string): AssistantTurn {
  const turn = answerFromMessage(id, [
    { type: 'tool_use', id: `call-${id}`, name: 'get_weather', input: {} },
  ]);
  const message = turn.stream.message;
  if (message === null) throw new Error('answerFromMessage gave no message');
  return { ...turn, stream: { ...turn.stream, message: { ...message, stop_reason: 'tool_use' } } };
}

const results = (id: string, call: string): UserTurn => ({
  id,
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: call, content: 'sunny' }],
});

describe('answerParts', () => {
  it('gathers the turns an answer went on from, through its tool results', () => {
    const last = answerFromMessage('a2', 'It is sunny.');
    const tree: ConversationTree = {
      nodes: { a1: callingTool('a1'), r1: results('r1', 'call-a1'), a2: last },
      parents: { a1: ROOT, r1: 'a1', a2: 'r1' },
      children: { [ROOT]: ['a1'], a1: ['r1'], r1: ['a2'] },
      selected: {},
    };
    expect(answerParts(tree, last).map((turn) => turn.id)).toEqual(['a1', 'a2']);
  });

  it('ends in a corrupted, cyclic tree read from storage', () => {
    const answer = callingTool('a');
    const tree: ConversationTree = {
      nodes: { a: answer, r: results('r', 'call-a') },
      parents: { a: 'r', r: 'a' },
      children: { [ROOT]: ['a'], a: ['r'], r: ['a'] },
      selected: {},
    };
    expect(answerParts(tree, answer).map((turn) => turn.id)).toEqual(['a']);
  });
});
