import {
  type ContentBlock,
  type ContentBlockParam,
  createStreamState,
  emptyMessage,
  isPlainObject,
  isToolUseBlock,
  type MessageParam,
  type StreamState,
  sendableContent,
  type ToolUseBlock,
} from '@message-stream/core';
import { jsonText } from './json-text.js';
import type { AssistantTurn, ToolResultState, Turn, UserTurn } from './types.js';

/** A tool call is answered once its result is final (not awaiting approval, not running). */
export const isSettledResult = (result: ToolResultState | undefined): boolean =>
  result?.status === 'complete' || result?.status === 'error';

const isThinking = (block: ContentBlockParam): boolean =>
  block.type === 'thinking' || block.type === 'redacted_thinking';

/** The answer's blocks that can go back to the API as history (core's rule, plus one). */
function historyContent(turn: AssistantTurn): ContentBlockParam[] {
  const blocks = sendableContent(turn.stream, {
    isAnswered: (id) => isSettledResult(turn.toolResults[id]),
  });
  // Thinking from an answer that never finished is not sent back, even a whole, signed
  // block: the answer around it is incomplete and the API expects thinking as it gave it.
  return turn.stream.stopReceived ? blocks : blocks.filter((block) => !isThinking(block));
}

/** One turn as a Messages API message, or null when it leaves nothing to send. */
export function toMessageParam(turn: Turn): MessageParam | null {
  if (turn.role === 'user') return { role: 'user', content: turn.content };
  const content = historyContent(turn);
  // An answer that failed before saying anything leaves no trace in the history.
  return content.length > 0 ? { role: 'assistant', content } : null;
}

const asBlocks = (content: MessageParam['content']): ContentBlockParam[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];

/**
 * Messages with alternating roles: neighbours of one role become one message, in order.
 * Two user turns meet when the answer between them left nothing to send (it failed
 * first), or when tool results and a new question go out together; two answers meet when
 * a paused turn was continued (the continuation carries on the same assistant message).
 */
export function alternate(messages: readonly MessageParam[]): MessageParam[] {
  const joined: MessageParam[] = [];
  for (const message of messages) {
    const previous = joined.at(-1);
    if (previous?.role === message.role) {
      joined[joined.length - 1] = {
        role: message.role,
        content: [...asBlocks(previous.content), ...asBlocks(message.content)],
      };
    } else joined.push(message);
  }
  return joined;
}

/** The Messages API `messages` for a conversation (its shown path). */
export function toMessageParams(turns: readonly Turn[]): MessageParam[] {
  const messages: MessageParam[] = [];
  for (const turn of turns) {
    const message = toMessageParam(turn);
    if (message !== null) messages.push(message);
  }
  return alternate(messages);
}

/** The tool_result content the API accepts: a string or content blocks. */
export function toolResultContent(content: unknown): string | ContentBlockParam[] {
  if (typeof content === 'string') return content;
  if (
    Array.isArray(content) &&
    content.every((c) => isPlainObject(c) && typeof c.type === 'string')
  ) {
    return content as ContentBlockParam[];
  }
  if (content === undefined) return '';
  return jsonText(content) ?? String(content);
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
export function clientToolCalls(turn: AssistantTurn): ToolUseBlock[] {
  return (turn.stream.message?.content ?? [])
    .filter((entry) => entry.status === 'complete' && isToolUseBlock(entry.block))
    .map((entry) => entry.block as ToolUseBlock);
}

/** A user turn the UI does not show: it only carries tool results back to the API. */
export const isToolResultsTurn = (turn: Turn): boolean =>
  turn.role === 'user' &&
  Array.isArray(turn.content) &&
  turn.content.length > 0 &&
  turn.content.every((block) => block.type === 'tool_result');

/** A past answer given as plain history: a complete stream state holding its content. */
export function answerFromMessage(id: string, content: MessageParam['content']): AssistantTurn {
  return {
    id,
    role: 'assistant',
    request: { model: '', max_tokens: 0 },
    stream: {
      ...createStreamState(),
      status: 'complete',
      stopReceived: true,
      message: {
        ...emptyMessage({ stop_reason: 'end_turn' }),
        content: asBlocks(content).map((block, index) => ({
          index,
          status: 'complete' as const,
          block: block as ContentBlock,
        })),
      },
    },
    toolResults: {},
    startedAt: 0,
    finishedAt: 0,
  };
}

/**
 * Some of an answer arrived to continue from: text, or a block that finished. Without it, a
 * failed answer offers Retry, not Resume (`retry` asks again in its place when not even a block
 * began, else as a new version that keeps what did arrive).
 */
export const somethingArrived = (stream: StreamState): boolean =>
  (stream.message?.content ?? []).some(
    (entry) =>
      entry.status === 'complete' ||
      (entry.block.type === 'text' &&
        String((entry.block as { text?: unknown }).text ?? '') !== ''),
  );
