import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type StreamState, toMessage } from '@message-stream/core';
import { sseEvent } from '@message-stream/mock';
import { vi } from 'vitest';
import {
  type AssistantTurn,
  type ChatPersistStorage,
  type ChatState,
  type ChatStoreOptions,
  createChatStore,
} from '../../src/index.js';

const fixturesDir = join(
  dirname(createRequire(import.meta.url).resolve('@message-stream/mock/package.json')),
  'fixtures',
);
export const fixture = (name: string): string =>
  readFileSync(join(fixturesDir, `${name}.sse`), 'utf8');

export interface Recorded {
  readonly url: string;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

type Reply = (request: Recorded) => Response;

/** A fetch that answers each request with the next reply and records what it was sent. */
export function scriptedFetch(...replies: Reply[]) {
  const requests: Recorded[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const recorded: Recorded = {
      url: String(input),
      body: JSON.parse(String(init?.body ?? '{}')),
      headers: { ...(init?.headers as Record<string, string>) },
    };
    requests.push(recorded);
    const reply = replies[requests.length - 1];
    if (!reply) throw new TypeError('no scripted reply left');
    const response = reply(recorded);
    init?.signal?.addEventListener('abort', () => {
      void response.body?.cancel().catch(() => {});
    });
    return response;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const encoder = new TextEncoder();

/** An SSE response whose body is `text`, optionally cut after `cutAt` bytes (connection dropped). */
export function sse(text: string, options: { cutAt?: number; hang?: boolean } = {}): Response {
  const bytes = encoder.encode(text);
  const end = options.cutAt ?? bytes.length;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let i = 0; i < end; i += 64) {
        controller.enqueue(bytes.subarray(i, Math.min(end, i + 64)));
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (closed) return;
      }
      if (options.hang) return;
      if (options.cutAt !== undefined) controller.error(new TypeError('network error'));
      else controller.close();
    },
    cancel() {
      closed = true;
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** Byte offset just after the n-th occurrence of `needle` in `text`. */
export function offsetAfter(text: string, needle: string, n = 1): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`"${needle}" not found ${n} times`);
  return encoder.encode(text.slice(0, at + needle.length)).length;
}

/** A text stream answering with exactly `text`, in a few deltas. */
export function textAnswer(text: string, id = 'msg_cont'): string {
  return textAnswerEvents(text, id).map(sseEvent).join('');
}

/** `textAnswer`'s events: a one-text-block answer, its text in deltas of 7 characters. */
export function textAnswerEvents(text: string, id = 'msg_cont'): Parameters<typeof sseEvent>[0][] {
  const events: Parameters<typeof sseEvent>[0][] = [
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ];
  for (let i = 0; i < text.length; i += 7) {
    events.push({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: text.slice(i, i + 7) },
    });
  }
  events.push(
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
    { type: 'message_stop' },
  );
  return events;
}

/** The answers on the shown path, the last one, and a stream's text blocks joined. */
export const answersOf = (state: ChatState): AssistantTurn[] =>
  state.turns.filter((t): t is AssistantTurn => t.role === 'assistant');
export const lastAnswerOf = (state: ChatState): AssistantTurn =>
  answersOf(state).at(-1) as AssistantTurn;
export const streamText = (stream: StreamState): string =>
  (toMessage(stream)?.content ?? [])
    .map((b) => (b.type === 'text' ? (b as { text: string }).text : ''))
    .join('');

/** The ids of an answer's tool calls, in order. */
export const toolIds = (turn: AssistantTurn): string[] =>
  (toMessage(turn.stream)?.content ?? [])
    .filter((b) => b.type === 'tool_use')
    .map((b) => (b as { id: string }).id);

/**
 * A store whose `get_weather` tool runs `run` (after approval when `needsApproval`), batching
 * off, with any further options: the tool-loop tests' store.
 */
export function weatherToolStore(
  run: () => unknown,
  {
    needsApproval = false,
    ...options
  }: Partial<ChatStoreOptions> & { needsApproval?: boolean } = {},
) {
  return createChatStore({
    request: { model: 'claude-opus-5', max_tokens: 1024 },
    batch: false,
    tools: { get_weather: { run, needsApproval } },
    ...options,
  });
}

/** A string storage over `saved` (as localStorage keeps text), its writes recorded. */
export function mapStorage(saved: Map<string, string> = new Map()) {
  const setItem = vi.fn((key: string, value: string) => void saved.set(key, value));
  const storage: ChatPersistStorage = {
    getItem: (key) => saved.get(key) ?? null,
    setItem,
    removeItem: (key) => void saved.delete(key),
  };
  return { saved, storage, setItem };
}

/**
 * A fetch whose answer sends its events up to the first `sentUpTo` and then holds, and fails
 * as a dropped connection when `drop` is called: what a service worker's mock (MSW) does to
 * its streams as a page goes.
 */
export function droppableFetch(sentUpTo = 'message_delta') {
  let fail: (() => void) | undefined;
  const text = textAnswer('Part of an answer that goes on for a while.');
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(text.slice(0, text.indexOf(sentUpTo))));
          fail = () => controller.error(new TypeError('Failed to fetch'));
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  return { fetch: fetch as typeof globalThis.fetch, drop: () => fail?.() };
}
