/**
 * Resume support: a continuation request (core's `continuationRequest`, either strategy)
 * is answered with the rest of the fixture, so `mergeContinuation` of the interrupted
 * answer and this one equals the uninterrupted fixture.
 */
import {
  type ContentBlockParam,
  defaultInstruction,
  type MessageParam,
  type MessageRequest,
} from '@message-stream/core';
import { createRandom, DEFAULT_SEED, randomId } from './random.js';
import { parseFixtureHeader, type Segment, splitSegments, sseEvent } from './sse.js';

/** A request recognised as the continuation of an interrupted answer. */
export interface Continuation {
  /** `prefill`: the last message is the assistant's partial answer; `user-message`: it is quoted. */
  readonly strategy: 'prefill' | 'user-message';
  /** The text of the partial answer, as the request carries it. */
  readonly partialText: string;
  /** The conversation before the continuation (the original request's messages). */
  readonly messages: readonly MessageParam[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches core's `defaultInstruction`, capturing the quoted partial answer. Built from the
 * function itself, so the two cannot drift apart.
 */
export const DEFAULT_CONTINUATION_PATTERN: RegExp = (() => {
  const marker = '\u0000';
  const [before = '', after = ''] = defaultInstruction(marker).split(marker);
  return new RegExp(`^${escapeRegExp(before)}([\\s\\S]*)${escapeRegExp(after)}$`);
})();

/** The text blocks of a message's content, joined (string content is its own text). */
export function contentText(content: MessageParam['content'] | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block: ContentBlockParam) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('');
}

/**
 * Recognises a continuation: a last message from the assistant (prefill), or a last user
 * message matching `pattern` (group 1: the partial answer; default: core's instruction).
 */
export function detectContinuation(
  request: Pick<MessageRequest, 'messages'>,
  pattern: RegExp = DEFAULT_CONTINUATION_PATTERN,
): Continuation | null {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const last = messages[messages.length - 1];
  if (last === undefined) return null;
  const before = messages.slice(0, -1);
  if (last.role === 'assistant') {
    if (before.length === 0) return null;
    // A prefill resume ends in the partial text (core drops whatever followed it); an answer
    // ending in a tool call or a server tool result is a paused turn sent back, not a resume.
    const blocks = Array.isArray(last.content) ? last.content : [];
    if (blocks.length > 0 && blocks[blocks.length - 1]?.type !== 'text') return null;
    return { strategy: 'prefill', partialText: contentText(last.content), messages: before };
  }
  if (last.role === 'user') {
    // The instruction is the last text of that turn: alone, or joined onto the question
    // it follows (roles alternate).
    const texts = Array.isArray(last.content)
      ? last.content.filter((block: ContentBlockParam) => block.type === 'text')
      : [];
    const instruction =
      typeof last.content === 'string' ? last.content : contentText(texts.slice(-1));
    const match = pattern.exec(instruction);
    if (match !== null) {
      const question = Array.isArray(last.content) ? last.content.slice(0, -1) : [];
      // A continuation always follows a question: alone, the instruction is just a message.
      if (question.length === 0 && before.length === 0) return null;
      const asked =
        question.length > 0 ? [...before, { role: 'user' as const, content: question }] : before;
      return { strategy: 'user-message', partialText: match[1] ?? '', messages: asked };
    }
  }
  return null;
}

interface TextBlockInfo {
  readonly index: number;
  readonly text: string;
}

const isWhitespace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * The rest of a fixture's answer after `partialText`, as fixture text: a fresh
 * `message_start`, then the interrupted text block from where the partial text ends (index
 * 0), then every later block (renumbered), `message_delta` and `message_stop` — whatever the
 * fixture has after the cut, pings included.
 *
 * The cut is found by matching the partial text against the fixture's final message: its
 * text blocks with visible text (the ones core's `continuationRequest` sends back), joined,
 * longest common prefix. A cut right after whitespace is moved to the start of that
 * whitespace, so the continuation restates it (as a model does): core's merge replaces the
 * partial answer's trailing whitespace with the continuation's leading whitespace, so this
 * holds whether the partial text was trimmed (prefill) or not (user message). A cut exactly
 * at the end of a block continues with that block, empty, so the later blocks stay separate.
 * A fixture without text serves whole.
 */
export function continuationText(
  fixtureText: string,
  partialText: string,
  options: { readonly seed?: number } = {},
): string {
  const segments = splitSegments(parseFixtureHeader(fixtureText).body);
  let start = 0;
  segments.forEach((segment, i) => {
    if (segment.type === 'message_start' && segment.json) start = i;
  });
  const final = segments.slice(start);
  const first = final[0];
  if (first?.type !== 'message_start' || first.json === undefined) return fixtureText;
  const texts = textBlocks(final);
  if (texts.length === 0) return fixtureText;

  // The cut: the longest prefix of the recoverable text that the partial text matches.
  const joined = texts.map((block) => block.text).join('');
  let matched = 0;
  const limit = Math.min(partialText.length, joined.length);
  while (matched < limit && partialText[matched] === joined[matched]) matched++;
  let block = texts[0] as TextBlockInfo;
  let offset = 0;
  let before = 0;
  for (const candidate of texts) {
    block = candidate;
    if (matched <= before + candidate.text.length) {
      offset = matched - before;
      break;
    }
    before += candidate.text.length;
  }
  while (offset > 0 && isWhitespace(block.text[offset - 1])) offset--;

  const random = createRandom(options.seed ?? DEFAULT_SEED);
  const message = first.json.message as Record<string, unknown> | undefined;
  const out: string[] = [
    sseEvent({
      ...first.json,
      type: 'message_start',
      message: { ...message, id: randomId('msg_01', random), content: [] },
    }),
  ];
  const shift = (json: Record<string, unknown>): Record<string, unknown> | null => {
    if (typeof json.index !== 'number') return json;
    const index = json.index - block.index;
    return index < 0 ? null : { ...json, index };
  };
  let position = 0;
  let reached = false;
  for (const segment of final.slice(1)) {
    const json = segment.json;
    const own = json !== undefined && json.index === block.index;
    if (own && segment.type === 'content_block_start') {
      const startBlock = json.content_block as Record<string, unknown>;
      const initial = typeof startBlock.text === 'string' ? startBlock.text : '';
      out.push(
        sseEvent({
          ...json,
          type: 'content_block_start',
          index: 0,
          content_block: { ...startBlock, text: initial.slice(Math.min(offset, initial.length)) },
        }),
      );
      position = initial.length;
      if (position >= offset) reached = true;
      continue;
    }
    const delta = own && segment.type === 'content_block_delta' ? textDelta(json) : undefined;
    if (delta !== undefined && !reached) {
      const end = position + delta.length;
      if (end > offset) {
        const rest = delta.slice(offset - position);
        out.push(sseEvent(withText(json as Record<string, unknown>, rest, 0)));
        reached = true;
      } else if (end === offset) {
        reached = true;
      }
      position = end;
      continue;
    }
    if (!reached) continue;
    if (json === undefined || !segment.isEvent) {
      out.push(segment.text);
      continue;
    }
    const shifted = shift(json);
    if (shifted !== null) out.push(sseEvent(shifted as Record<string, unknown> & { type: string }));
  }
  return out.join('');
}

/**
 * What `partialText` holds past all of a fixture's answer text, or undefined when it does not
 * hold it all. A Continue after `max_tokens` sends the whole answer back (then: `''`), and a
 * resume of that continuation sends more (then: the continuation's part).
 */
export function pastAnswer(fixtureText: string, partialText: string): string | undefined {
  const segments = splitSegments(parseFixtureHeader(fixtureText).body);
  let start = 0;
  segments.forEach((segment, i) => {
    if (segment.type === 'message_start' && segment.json) start = i;
  });
  const whole = textBlocks(segments.slice(start))
    .map((block) => block.text)
    .join('')
    .trimEnd();
  if (whole === '' || !partialText.startsWith(whole)) return undefined;
  return partialText.slice(whole.length);
}

/** The final message's text blocks with visible text, in order. */
function textBlocks(segments: readonly Segment[]): TextBlockInfo[] {
  const blocks = new Map<number, { text: string; isText: boolean }>();
  for (const segment of segments) {
    const json = segment.json;
    if (json === undefined || typeof json.index !== 'number') continue;
    if (segment.type === 'content_block_start') {
      const block = json.content_block as { type?: unknown; text?: unknown } | undefined;
      const isText = block?.type === 'text';
      blocks.set(json.index, {
        isText,
        text: isText && typeof block?.text === 'string' ? block.text : '',
      });
    } else if (segment.type === 'content_block_delta') {
      const entry = blocks.get(json.index);
      const text = textDelta(json);
      if (entry?.isText && text !== undefined) entry.text += text;
    }
  }
  return [...blocks.entries()]
    .filter(([, entry]) => entry.isText && entry.text.trim() !== '')
    .map(([index, entry]) => ({ index, text: entry.text }));
}

function textDelta(json: Record<string, unknown>): string | undefined {
  const delta = json.delta as { type?: unknown; text?: unknown } | undefined;
  return delta?.type === 'text_delta' && typeof delta.text === 'string' ? delta.text : undefined;
}

function withText(
  json: Record<string, unknown>,
  text: string,
  index: number,
): Record<string, unknown> & { type: string } {
  return {
    ...json,
    type: 'content_block_delta',
    index,
    delta: { ...(json.delta as Record<string, unknown>), text },
  };
}
