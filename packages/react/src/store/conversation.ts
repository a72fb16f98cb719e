import {
  type ContentBlock,
  type ContentBlockParam,
  isToolUseBlock,
  type MessageParam,
  toMessage,
} from '@message-stream/core';
import type { AssistantTurn, ToolResultState, Turn, UserTurn } from './types.js';

/** The answer's blocks that can go back to the API as history. */
function sendableContent(turn: AssistantTurn): ContentBlockParam[] {
  const message = toMessage(turn.stream);
  if (message === null) return [];
  const live = turn.stream.message?.content ?? [];
  const blocks: ContentBlockParam[] = [];
  message.content.forEach((block, i) => {
    // Half a tool call or half a thought cannot be sent back; half a sentence can.
    if (live[i]?.status === 'incomplete' && block.type !== 'text') return;
    if (block.type === 'text' && String((block as { text?: unknown }).text ?? '').trim() === '') {
      return;
    }
    // A tool call without a result would make the API reject the history.
    if (isToolUseBlock(block) && turn.toolResults[block.id] === undefined) return;
    blocks.push(cleanBlock(block));
  });
  return blocks;
}

function cleanBlock(block: ContentBlock): ContentBlockParam {
  if (block.type === 'text' && (block as { citations?: unknown }).citations == null) {
    const { citations: _citations, ...rest } = block as ContentBlock & { citations?: unknown };
    return rest as ContentBlockParam;
  }
  return block;
}

/** One turn as a Messages API message, or null when it leaves nothing to send. */
export function toMessageParam(turn: Turn): MessageParam | null {
  if (turn.role === 'user') return { role: 'user', content: turn.content };
  const content = sendableContent(turn);
  // An answer that failed before saying anything leaves no trace in the history.
  return content.length > 0 ? { role: 'assistant', content } : null;
}

/** The Messages API `messages` for a conversation. */
export function toMessageParams(turns: readonly Turn[]): MessageParam[] {
  const messages: MessageParam[] = [];
  for (const turn of turns) {
    const message = toMessageParam(turn);
    if (message !== null) messages.push(message);
  }
  return messages;
}

/** The tool_result content the API accepts: a string or content blocks. */
export function toolResultContent(content: unknown): string | ContentBlockParam[] {
  if (typeof content === 'string') return content;
  if (
    Array.isArray(content) &&
    content.every((c) => c !== null && typeof c === 'object' && typeof c.type === 'string')
  ) {
    return content as ContentBlockParam[];
  }
  if (content === undefined) return '';
  try {
    return JSON.stringify(content);
  } catch {
    return String(content);
  }
}

/** The user turn that hands tool results back, in tool-call order. */
export function toolResultsTurn(
  id: string,
  calls: readonly string[],
  results: Readonly<Record<string, ToolResultState>>,
): UserTurn {
  return {
    id,
    role: 'user',
    content: calls.map((toolUseId) => {
      const result = results[toolUseId];
      return {
        type: 'tool_result' as const,
        tool_use_id: toolUseId,
        content: toolResultContent(result?.content),
        ...(result?.isError ? { is_error: true } : {}),
      };
    }),
  };
}

/** Client-side tool calls of a finished answer (server tools run on the API side). */
export function clientToolCalls(turn: AssistantTurn) {
  return (turn.stream.message?.content ?? [])
    .filter((entry) => entry.status === 'complete' && isToolUseBlock(entry.block))
    .map((entry) => entry.block as import('@message-stream/core').ToolUseBlock);
}

/** A user turn the UI does not show: it only carries tool results back to the API. */
export const isToolResultsTurn = (turn: Turn): boolean =>
  turn.role === 'user' &&
  Array.isArray(turn.content) &&
  turn.content.length > 0 &&
  turn.content.every((block) => block.type === 'tool_result');
