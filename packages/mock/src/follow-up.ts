/**
 * The answer to a follow-up when the scenario names no `then` fixture: written from the
 * request itself, so it fits what came back. Tool results sent back get an answer that names
 * each tool, what it was asked and what it returned (or how it failed); a paused turn sent
 * back gets the rest of the turn, built on the server tool's results. No recorded answer about
 * `const` and `let` after a weather lookup.
 */
import type { ContentBlockParam, MessageParam } from '@message-stream/core';
import { createRandom, randomId } from './random.js';
import { contentText } from './resume.js';
import { sseEvent } from './sse.js';

type Block = ContentBlockParam & Record<string, unknown>;

const blocksOf = (message: MessageParam | undefined): Block[] =>
  Array.isArray(message?.content) ? (message.content as Block[]) : [];

const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** A tool input in a few words: its scalar values (`San Francisco, CA`), else its JSON. */
function inputSummary(input: unknown): string {
  if (input === null || typeof input !== 'object') return input === undefined ? '' : String(input);
  const values = Object.values(input as Record<string, unknown>).filter(
    (value) => ['string', 'number', 'boolean'].includes(typeof value) && String(value) !== '',
  );
  return clip(values.length > 0 ? values.slice(0, 3).join(', ') : JSON.stringify(input), 80);
}

/** A tool result's content as text: strings and text blocks; other blocks by their type. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((block: Record<string, unknown>) =>
      block?.type === 'text' && typeof block.text === 'string' ? block.text : `[${block?.type}]`,
    )
    .join('\n');
}

/** Markdown quoting a (possibly multi-line) result. */
const quote = (text: string): string =>
  clip(text.trim() === '' ? '(no content)' : text.trim(), 600)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

/**
 * A result saying the user declined the call: `@message-stream/react`'s words for Deny and
 * for a new message sent instead (a model reads them the same way).
 */
const isDeclined = (text: string): boolean =>
  text.startsWith('The user denied this tool call.') ||
  text === 'The user sent a new message instead.';
const DENIAL_REASON = /^The user denied this tool call\. Their reason: ([\s\S]*)$/;

/** The answer text for tool results, or undefined when the request carries none. */
function toolResultsAnswer(messages: readonly MessageParam[]): string | undefined {
  const results = blocksOf(messages[messages.length - 1]).filter((b) => b.type === 'tool_result');
  if (results.length === 0) return undefined;
  const calls = new Map<string, Block>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use' && typeof block.id === 'string') calls.set(block.id, block);
    }
  }
  const parts = results.map((result) => {
    const call = calls.get(String(result.tool_use_id));
    const name = typeof call?.name === 'string' ? call.name : 'the tool';
    const asked = call === undefined ? '' : inputSummary(call.input);
    const forWhat = asked === '' ? '' : ` for ${asked}`;
    const text = resultText(result.content);
    if (result.is_error === true && isDeclined(text)) {
      const reason = DENIAL_REASON.exec(text)?.[1]?.trim();
      return `I did not run **${name}**${forWhat}: you chose not to${reason ? ` ("${clip(reason, 200)}")` : ''}.`;
    }
    return result.is_error === true
      ? `**${name}** failed${forWhat}:\n\n${quote(text)}\n\nI can't answer that part without it; try again, or check the tool.`
      : `Here is what **${name}** returned${forWhat}:\n\n${quote(text)}`;
  });
  const ok = results.some((result) => result.is_error !== true);
  const declined = results.every(
    (result) => result.is_error === true && isDeclined(resultText(result.content)),
  );
  const after = ok
    ? '\n\nThat is the latest from the tool, so it is the answer to go by.'
    : declined
      ? '\n\nTell me if you would like me to try it another way, or answer from what I know.'
      : '';
  return `${parts.join('\n\n')}${after}`;
}

/** The rest of a paused turn: what its server tool found, listed. */
function pausedTurnAnswer(messages: readonly MessageParam[]): string {
  const blocks = blocksOf(messages[messages.length - 1]);
  const found = blocks
    .flatMap((block) => (Array.isArray(block.content) ? block.content : []))
    .filter(
      (item: Record<string, unknown>) =>
        typeof item?.title === 'string' && typeof item?.url === 'string',
    )
    .slice(0, 5) as Array<{ title: string; url: string }>;
  const query = blocks.find((block) => block.type === 'server_tool_use');
  const about = query === undefined ? '' : ` for ${inputSummary(query.input)}`;
  if (found.length === 0) {
    return `The search${about} came back empty, so I can only answer from what I already know.`;
  }
  const list = found.map((item) => `- [${item.title}](${item.url})`).join('\n');
  return `The search${about} found these sources:\n\n${list}\n\nThe first one is the primary source; start there for the details.`;
}

export interface TextFixtureOptions {
  /** The message id. Default: one drawn from `seed`. */
  readonly id?: string;
  readonly model?: string;
  /** `usage.input_tokens` of the message_start. Default 12. */
  readonly inputTokens?: number;
  /** Seeds the default id. Default 1. */
  readonly seed?: number;
}

/**
 * Fixture text of a one-text-block answer: the text streamed a few words per delta, as a
 * model streams it, then `end_turn`. For `MockOptions.fixtures`, or your own tests:
 * `createMockFetch({ fixtures: { hello: textFixture('Hello!') } })`.
 */
export function textFixture(text: string, options: TextFixtureOptions = {}): string {
  const out = [
    sseEvent({
      type: 'message_start',
      message: {
        id: options.id ?? randomId('msg_01', createRandom(options.seed ?? 1)),
        type: 'message',
        role: 'assistant',
        model: options.model ?? 'claude-opus-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: options.inputTokens ?? 12, output_tokens: 1 },
      },
    }),
    sseEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  // A few words per delta, as a model streams; whitespace stays with the word before it.
  const pieces = text.match(/(?:\S+\s*){1,3}|\s+/g) ?? [text];
  for (const piece of pieces) {
    out.push(
      sseEvent({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      }),
    );
  }
  out.push(
    sseEvent({ type: 'content_block_stop', index: 0 }),
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: Math.ceil(text.length / 4) },
    }),
    sseEvent({ type: 'message_stop' }),
  );
  return out.join('');
}

/**
 * Fixture text answering a follow-up (tool results, or a paused turn sent back): one text
 * block, streamed a few words per delta, `end_turn`. Deterministic for a given request.
 */
export function followUpText(
  messages: readonly MessageParam[],
  options: { readonly model?: string; readonly seed?: number } = {},
): string {
  const text = toolResultsAnswer(messages) ?? pausedTurnAnswer(messages);
  const inputTokens = Math.ceil(
    messages.reduce((sum, message) => sum + contentText(message.content).length, 0) / 4 + 12,
  );
  return textFixture(text, { ...options, inputTokens });
}
