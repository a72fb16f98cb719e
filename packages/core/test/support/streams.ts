/**
 * Core's own test streams and SSE builders. Core depends on nothing of ours (the mock
 * package depends on core), so its tests carry their data: a few recorded streams in
 * test/streams/ (copies of the mock's fixtures of the same name, which the mock's own tests
 * check against the API's documented examples) and `large-tool-input`, generated here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessageRequest } from '../../src/protocol.js';

// Paths, not URL objects: under jsdom the global URL is not the one node:fs accepts.
const streamsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'streams');

export type StreamName =
  | 'spec-basic-text'
  | 'spec-tool-use'
  | 'truncated-mid-tool'
  | 'in-stream-error'
  | 'text-pings'
  | 'long-markdown'
  | 'large-tool-input';

const requests = JSON.parse(readFileSync(join(streamsDir, 'requests.json'), 'utf8')) as Record<
  StreamName,
  MessageRequest
>;

/** One event as SSE text: `event: <type>` and one compact `data:` line. */
export const sseEvent = (data: Record<string, unknown> & { type: string }): string =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** A small seeded generator (mulberry32), so generated streams are the same every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let largeToolInput: string | undefined;

/**
 * A write_file tool_use whose input (about 300 KB of text with newlines, quotes,
 * backslashes, é and an emoji written as a \u escape pair) streams as input_json_delta
 * fragments of 1 to 20 characters, after a short text block; stop_reason tool_use.
 */
function generateLargeToolInput(): string {
  const random = seededRandom(0x1a2b);
  const words = ['alpha', 'beta', 'say "hi"', 'C:\\path', 'café', 'résumé', 'ops', '😀'];
  let content = '';
  while (content.length < 300_000) {
    content += words[Math.floor(random() * words.length)] as string;
    content += random() < 0.1 ? '\n' : ' ';
  }
  // JSON.stringify writes é as is; the emoji goes as a \u pair, as the API may send it.
  const json = JSON.stringify({ path: 'src/report.md', content }).replace(/😀/g, '\\ud83d\\ude00');
  const events = [
    sseEvent({
      type: 'message_start',
      message: {
        id: 'msg_large_tool_input',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 3150, output_tokens: 1 },
      },
    }),
    sseEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    sseEvent({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: "I'll write the full report to `src/report.md`." },
    }),
    sseEvent({ type: 'content_block_stop', index: 0 }),
    sseEvent({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_large', name: 'write_file', input: {} },
    }),
  ];
  for (let at = 0; at < json.length; ) {
    const size = 1 + Math.floor(random() * 20);
    events.push(
      sseEvent({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: json.slice(at, at + size) },
      }),
    );
    at += size;
  }
  events.push(
    sseEvent({ type: 'content_block_stop', index: 1 }),
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 94532 },
    }),
    sseEvent({ type: 'message_stop' }),
  );
  return events.join('');
}

export function streamText(name: StreamName): string {
  if (name === 'large-tool-input') {
    largeToolInput ??= generateLargeToolInput();
    return largeToolInput;
  }
  return readFileSync(join(streamsDir, `${name}.sse`), 'utf8');
}

// A Buffer (Node's own Uint8Array): under jsdom, TextEncoder's arrays come from another realm.
export const streamBytes = (name: StreamName): Uint8Array => Buffer.from(streamText(name), 'utf8');

/** The request a stream answers, without `stream` (the transport adds it). */
export function streamRequest(name: StreamName): MessageRequest {
  const { stream: _stream, ...request } = structuredClone(requests[name]);
  return request as MessageRequest;
}
