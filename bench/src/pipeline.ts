import Anthropic from '@anthropic-ai/sdk';
import { accumulate } from '@message-stream/core';
import { chunkBytes, textStream } from './data.js';
import { formatMs, ratio, type Timing, time } from './measure.js';

const CHUNK = 16 * 1024;

/**
 * The floor any SSE consumer stands on: decode, split on blank lines, JSON.parse each data
 * line, and keep the text. Nothing typed, nothing checked, nothing kept on failure.
 */
function bareLoop(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  for (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', from)) {
      const data = buffer.indexOf('data: ', from);
      if (data !== -1 && data < end) {
        const event = JSON.parse(buffer.slice(data + 6, end));
        if (event.type === 'content_block_delta') text += event.delta.text;
      }
      from = end + 2;
    }
    buffer = buffer.slice(from);
  }
  return text;
}

async function* iterate(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

async function ours(chunks: readonly Uint8Array[]): Promise<string> {
  const state = await accumulate(iterate(chunks));
  if (state.status !== 'complete') throw new Error(`accumulate ended ${state.status}`);
  return (state.message?.content[0]?.block as { text?: string } | undefined)?.text ?? '';
}

async function sdk(chunks: readonly Uint8Array[]): Promise<string> {
  const client = new Anthropic({
    apiKey: 'bench',
    maxRetries: 0,
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  });
  const message = await client.messages
    .stream({
      model: 'claude-opus-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'x' }],
    })
    .finalMessage();
  return (message.content[0] as { text: string }).text;
}

export interface PipelineRow {
  readonly name: string;
  readonly mb: number;
  readonly bare: Timing;
  readonly results: ReadonlyArray<{ name: string; timing: Timing; sameText: boolean }>;
}

export async function benchPipeline(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<PipelineRow[]> {
  const deltas = quick ? 10_000 : 100_000;
  const body = new TextEncoder().encode(textStream(deltas, 16));
  const chunks = chunkBytes(body, CHUNK);
  const expected = bareLoop(chunks);
  const runs = quick ? 3 : 7;
  const bare = await time(() => bareLoop(chunks), { runs });
  log(`  bare loop ${formatMs(bare.ms)}`);
  const results: PipelineRow['results'][number][] = [];
  for (const [name, run] of [
    ['@message-stream/core accumulate', ours],
    ['@anthropic-ai/sdk messages.stream().finalMessage()', sdk],
  ] as const) {
    let text = '';
    const timing = await time(
      async () => {
        text = await run(chunks);
      },
      { runs },
    );
    results.push({ name, timing, sameText: text === expected });
    log(`  ${name} ${formatMs(timing.ms)}`);
  }
  return [{ name: `text stream, ${deltas} deltas`, mb: body.length / 1e6, bare, results }];
}

export function pipelineTable(rows: readonly PipelineRow[]): string {
  const lines = [
    '| stream | contender | time | MB/s | × bare loop |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const mbps = (t: Timing) => (row.mb / (t.ms / 1000)).toFixed(1);
    lines.push(
      `| ${row.name} (${row.mb.toFixed(1)} MB) | bare decode-split-JSON.parse loop | ${formatMs(row.bare.ms)} | ${mbps(row.bare)} | 1.00× |`,
    );
    for (const r of row.results) {
      lines.push(
        `| | ${r.name}${r.sameText ? '' : ' **different text**'} | ${formatMs(r.timing.ms)} | ${mbps(r.timing)} | ${ratio(r.timing.ms, row.bare.ms)} |`,
      );
    }
  }
  return lines.join('\n');
}
