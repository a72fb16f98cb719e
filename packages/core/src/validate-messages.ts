/**
 * The Messages API's rules for a request's `messages`, checked before it is sent: apps,
 * gateways and this kit's own tests use it to know a conversation will not be rejected.
 * Total: any input gives a list of problems (empty when valid), nothing throws.
 */
import { isNonEmptyString, isPlainObject } from './object.js';
import { isWholeThinking } from './sendable.js';

export type MessageProblemCode =
  | 'not_a_list'
  | 'no_messages'
  | 'bad_message'
  | 'first_not_user'
  | 'roles_not_alternating'
  | 'empty_content'
  | 'empty_text'
  | 'unanswered_tool_use'
  | 'orphan_tool_result'
  | 'tool_result_in_assistant'
  | 'tool_use_in_user'
  | 'thinking_without_signature'
  | 'thinking_in_user'
  | 'trailing_whitespace_prefill';

export interface MessageProblem {
  readonly code: MessageProblemCode;
  /** Index of the message in `messages`. */
  readonly message: number;
  /** Index of the block in that message's content, when one block is at fault. */
  readonly block?: number;
  /** What is wrong, for a person. */
  readonly detail: string;
}

type Block = Record<string, unknown> & { type?: unknown };

const blocksOf = (content: unknown): Block[] | null =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : Array.isArray(content)
      ? content.map((block) => (isPlainObject(block) ? (block as Block) : { type: undefined }))
      : null;

/**
 * Problems the API would reject `messages` for: roles alternate, starting with the user;
 * every `tool_use` of an assistant message is answered by a `tool_result` with its id in
 * the next (user) message and every `tool_result` answers one; no message and no text block
 * is empty; a final assistant message (a prefill) does not end in whitespace; thinking
 * blocks go back whole, with their signature (redacted ones with their data).
 *
 * ```ts
 * const problems = validateMessages(request.messages);
 * if (problems.length > 0) console.warn(problems.map((p) => p.detail).join('\n'));
 * ```
 */
export function validateMessages(messages: unknown): MessageProblem[] {
  if (!Array.isArray(messages)) {
    return [{ code: 'not_a_list', message: -1, detail: '`messages` is not an array.' }];
  }
  if (messages.length === 0) {
    return [{ code: 'no_messages', message: -1, detail: '`messages` is empty.' }];
  }
  const problems: MessageProblem[] = [];
  const add = (code: MessageProblemCode, message: number, detail: string, block?: number) =>
    problems.push(
      block === undefined ? { code, message, detail } : { code, message, block, detail },
    );

  let previousRole: unknown = null;
  /** tool_use ids of the previous assistant message, not yet answered. */
  let open: Set<string> | null = null;
  messages.forEach((entry: unknown, i: number) => {
    const role = isPlainObject(entry) ? entry.role : undefined;
    const blocks = isPlainObject(entry) ? blocksOf(entry.content) : null;
    if ((role !== 'user' && role !== 'assistant') || blocks === null) {
      add('bad_message', i, `Message ${i} needs a user or assistant role and content.`);
      previousRole = null;
      open = null;
      return;
    }
    if (i === 0 && role !== 'user')
      add('first_not_user', i, 'The first message must be the user’s.');
    if (role === previousRole) {
      add('roles_not_alternating', i, `Messages ${i - 1} and ${i} are both from the ${role}.`);
    }
    const isFinal = i === messages.length - 1;
    if (blocks.length === 0 && !(isFinal && role === 'assistant')) {
      add('empty_content', i, `Message ${i} has no content.`);
    }

    const answered = new Set<string>();
    const uses = new Set<string>();
    blocks.forEach((block, b) => {
      switch (block.type) {
        case 'text':
          if (typeof block.text !== 'string' || block.text.trim() === '') {
            add('empty_text', i, `Message ${i} has a text block with no text.`, b);
          }
          break;
        case 'tool_use':
          if (role === 'user') add('tool_use_in_user', i, `Message ${i} (user) has a tool_use.`, b);
          else if (isNonEmptyString(block.id)) uses.add(block.id);
          break;
        case 'tool_result': {
          if (role === 'assistant') {
            add('tool_result_in_assistant', i, `Message ${i} (assistant) has a tool_result.`, b);
            break;
          }
          const id = block.tool_use_id;
          if (typeof id === 'string' && open?.has(id)) answered.add(id);
          else {
            add(
              'orphan_tool_result',
              i,
              `Message ${i} answers ${String(id)}, which the message before did not call.`,
              b,
            );
          }
          break;
        }
        case 'thinking':
        case 'redacted_thinking': {
          if (role === 'user') {
            add('thinking_in_user', i, `Message ${i} (user) has a thinking block.`, b);
            break;
          }
          if (!isWholeThinking(block)) {
            add(
              'thinking_without_signature',
              i,
              `Message ${i} has a ${block.type} block without its ${block.type === 'thinking' ? 'signature' : 'data'}.`,
              b,
            );
          }
          break;
        }
        default:
          break;
      }
    });

    if (open !== null && open.size > 0) {
      const missing = [...open].filter((id) => !answered.has(id));
      if (missing.length > 0) {
        add(
          'unanswered_tool_use',
          i - 1,
          `Message ${i - 1} calls ${missing.join(', ')} with no tool_result in message ${i}.`,
        );
      }
    }
    open = role === 'assistant' ? uses : null;
    if (isFinal && role === 'assistant') {
      if (uses.size > 0) {
        // A final assistant message with tool calls is a prefill the API cannot answer.
        add(
          'unanswered_tool_use',
          i,
          `Message ${i} calls ${[...uses].join(', ')} and nothing answers.`,
        );
      }
      const last = blocks.at(-1);
      if (last?.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text)) {
        add(
          'trailing_whitespace_prefill',
          i,
          'The final assistant message (a prefill) may not end in whitespace.',
          blocks.length - 1,
        );
      }
    }
    previousRole = role;
  });
  return problems;
}
