import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { accumulate, type StreamState } from '@message-stream/core';
import {
  chunkBytes,
  type Expected,
  manyBlocksFixture,
  type StreamFixture,
  textFixture,
  thinkingFixture,
  toolInputFixture,
} from './data.js';
import { formatMs, ratio, type Timing, time } from './measure.js';
import type { Target } from './target.js';

const CHUNK = 16 * 1024;

/** What each contender ends with, reduced to what the fixture says it must be. */
export interface Outcome {
  readonly text: string;
  readonly thinking: string;
  readonly signature: string;
  /** The tool call's input as an object, undefined when there is none. */
  readonly input: unknown;
  /** The contender saw the end of the message (message_stop, or its own finish). */
  readonly complete: boolean;
}

/** What is wrong with an outcome: an empty list when it is the expected result. */
export function problemsOf(outcome: Outcome, expected: Expected): string[] {
  const problems: string[] = [];
  if (!outcome.complete) problems.push('not complete');
  if (outcome.text !== expected.text) problems.push('text');
  if (outcome.thinking !== expected.thinking) problems.push('thinking');
  if (outcome.signature !== expected.signature) problems.push('signature');
  const input = outcome.input === undefined ? null : JSON.stringify(outcome.input);
  if (input !== expected.inputJson) problems.push('tool input');
  return problems;
}

/**
 * The floor any SSE consumer stands on: decode, split on blank lines, JSON.parse each data
 * line, and keep the text, thinking and tool JSON (parsed once at the end). Nothing typed,
 * nothing checked, nothing kept on failure.
 */
export function bareLoop(chunks: readonly Uint8Array[]): Outcome {
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  let thinking = '';
  let signature = '';
  let json = '';
  let tool = false;
  let complete = false;
  for (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', from)) {
      const data = buffer.indexOf('data: ', from);
      if (data !== -1 && data < end) {
        const event = JSON.parse(buffer.slice(data + 6, end));
        if (event.type === 'content_block_delta') {
          const delta = event.delta;
          if (delta.type === 'text_delta') text += delta.text;
          else if (delta.type === 'thinking_delta') thinking += delta.thinking;
          else if (delta.type === 'input_json_delta') json += delta.partial_json;
          else if (delta.type === 'signature_delta') signature = delta.signature;
        } else if (event.type === 'content_block_start') {
          if (event.content_block.type === 'tool_use') tool = true;
        } else if (event.type === 'message_stop') complete = true;
      }
      from = end + 2;
    }
    buffer = buffer.slice(from);
  }
  const input = tool ? (json === '' ? {} : JSON.parse(json)) : undefined;
  return { text, thinking, signature, input, complete };
}

async function* iterate(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

/** A `fetch` that answers any request with these bytes as an event stream. */
export const replayFetch = (chunks: readonly Uint8Array[]) => async (): Promise<Response> =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

/** The blocks of a Message (the SDK's, or `toMessage`'s shape) as an outcome. */
function outcomeOfBlocks(blocks: readonly unknown[], complete: boolean): Outcome {
  let text = '';
  let thinking = '';
  let signature = '';
  let input: unknown;
  for (const block of blocks as Array<Record<string, unknown>>) {
    if (block.type === 'text') text += block.text as string;
    else if (block.type === 'thinking') {
      thinking += block.thinking as string;
      signature = block.signature as string;
    } else if (block.type === 'tool_use') input = block.input;
  }
  return { text, thinking, signature, input, complete };
}

export const stateOutcome = (state: StreamState): Outcome =>
  outcomeOfBlocks(
    (state.message?.content ?? []).map((entry) => entry.block),
    state.status === 'complete',
  );

/** @message-stream/core: decode + reduce + end, the final state. */
export async function runAccumulate(chunks: readonly Uint8Array[]): Promise<StreamState> {
  return accumulate(iterate(chunks));
}

/** The SDK's MessageStream through its client, the bytes handed in by `fetch`. */
export async function runSdk(chunks: readonly Uint8Array[]): Promise<Anthropic.Message> {
  const client = new Anthropic({ apiKey: 'bench', maxRetries: 0, fetch: replayFetch(chunks) });
  return client.messages
    .stream({
      model: 'claude-opus-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'x' }],
    })
    .finalMessage();
}

/**
 * @ai-sdk/anthropic's `doStream` (the provider's parse and transform, without `ai`'s
 * streamText on top), read to the end: text and reasoning deltas joined, the signature
 * from the reasoning part's metadata, the tool call's input parsed from the string the
 * provider joins.
 */
export async function runAiSdk(chunks: readonly Uint8Array[]): Promise<Outcome> {
  const model = createAnthropic({ apiKey: 'bench', fetch: replayFetch(chunks) })(
    'claude-sonnet-4-5',
  );
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
    maxOutputTokens: 1024,
  });
  let text = '';
  let thinking = '';
  let signature = '';
  let input: unknown;
  let complete = false;
  const reader = stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) break;
    switch (part.type) {
      case 'text-delta':
        text += part.delta;
        break;
      case 'reasoning-delta': {
        thinking += part.delta;
        const meta = part.providerMetadata?.anthropic as { signature?: string } | undefined;
        if (meta?.signature !== undefined) signature = meta.signature;
        break;
      }
      case 'tool-call':
        input = JSON.parse(part.input);
        break;
      case 'finish':
        complete = part.finishReason.unified !== 'error' && part.finishReason.unified !== 'other';
        break;
      case 'error':
        throw part.error;
    }
  }
  return { text, thinking, signature, input, complete };
}

const contenders = [
  {
    id: 'accumulate',
    name: '@message-stream/core accumulate',
    run: async (chunks: readonly Uint8Array[]) => stateOutcome(await runAccumulate(chunks)),
  },
  {
    id: 'sdk',
    name: '@anthropic-ai/sdk messages.stream().finalMessage()',
    run: async (chunks: readonly Uint8Array[]) => {
      const message = await runSdk(chunks);
      // The SDK parses a tool input when it is read: read it, as a caller would.
      return outcomeOfBlocks(message.content, message.stop_reason !== null);
    },
  },
  {
    id: 'ai-sdk',
    name: '@ai-sdk/anthropic doStream, read to the end',
    run: runAiSdk,
  },
] as const;

export type ContenderId = (typeof contenders)[number]['id'];

export interface PipelineResult {
  readonly id: ContenderId;
  readonly name: string;
  readonly timing: Timing;
  /** What was wrong with its final result (empty: correct). */
  readonly problems: readonly string[];
}

export interface PipelineRow {
  readonly name: string;
  /** Size of the SSE body in MB (10^6 bytes): the MB of MB/s. */
  readonly mb: number;
  /** What the stream carries: "1.0 MB tool input". */
  readonly payload: string;
  readonly bare: Timing;
  readonly bareProblems: readonly string[];
  readonly results: readonly PipelineResult[];
}

/** The streams of the comparison: text, thinking-heavy, and a large tool input. */
export function pipelineFixtures(quick: boolean): StreamFixture[] {
  return quick
    ? [
        textFixture(10_000, 16),
        thinkingFixture(5_000, 48),
        toolInputFixture(100_000),
        manyBlocksFixture(1_000),
        manyBlocksFixture(4_000),
      ]
    : [
        textFixture(100_000, 16),
        thinkingFixture(50_000, 48),
        toolInputFixture(1_000_000),
        manyBlocksFixture(4_000),
        manyBlocksFixture(16_000),
      ];
}

export async function benchPipeline(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<PipelineRow[]> {
  const runs = quick ? 3 : 7;
  const rows: PipelineRow[] = [];
  for (const fixture of pipelineFixtures(quick)) {
    const body = new TextEncoder().encode(fixture.sse);
    const chunks = chunkBytes(body, CHUNK);
    const mb = body.length / 1e6;
    log(`  ${fixture.name} (${fixture.payload}, ${mb.toFixed(1)} MB of SSE)`);
    const bareLast: { outcome: Outcome | null } = { outcome: null };
    const bare = await time(
      () => {
        bareLast.outcome = bareLoop(chunks);
      },
      { runs },
    );
    const bareProblems = bareLast.outcome
      ? problemsOf(bareLast.outcome, fixture.expected)
      : ['no result'];
    log(`    bare loop ${formatMs(bare.ms)}${flag(bareProblems)}`);
    const results: PipelineResult[] = [];
    for (const { id, name, run } of contenders) {
      const last: { outcome: Outcome | null; failure: string | null } = {
        outcome: null,
        failure: null,
      };
      const timing = await time(
        async () => {
          try {
            last.outcome = await run(chunks);
          } catch (error) {
            last.failure = `threw ${error instanceof Error ? error.message : String(error)}`;
          }
        },
        { runs },
      );
      const problems = last.failure
        ? [last.failure]
        : last.outcome
          ? problemsOf(last.outcome, fixture.expected)
          : ['no result'];
      results.push({ id, name, timing, problems });
      log(`    ${name} ${formatMs(timing.ms)}${flag(problems)}`);
    }
    rows.push({ name: fixture.name, mb, payload: fixture.payload, bare, bareProblems, results });
  }
  return rows;
}

const flag = (problems: readonly string[]): string =>
  problems.length === 0 ? '' : ` WRONG RESULT: ${problems.join(', ')}`;

const find = (row: PipelineRow, id: ContenderId) => row.results.find((r) => r.id === id);

/**
 * Per stream: accumulate within 1.3× the bare loop, and at least 1.8× faster than the
 * SDK's MessageStream. A wrong result (ours, or the bare loop's) is a miss whatever the time.
 */
export function pipelineTargets(rows: readonly PipelineRow[]): Target[] {
  const targets: Target[] = [];
  // Defect 5: the cost per event stays flat as blocks accumulate (4 events per block).
  const many = rows.filter((r) => r.name.startsWith('many blocks'));
  const [fewer, more] = many;
  const fewerMs = fewer && find(fewer, 'accumulate')?.timing.ms;
  const moreMs = more && find(more, 'accumulate')?.timing.ms;
  if (fewer && more && fewerMs !== undefined && moreMs !== undefined) {
    const blocksOf = (row: PipelineRow) => Number(/(\d+) text blocks/.exec(row.name)?.[1] ?? 1);
    const perEvent = (ms: number, row: PipelineRow) => ms / blocksOf(row);
    const growth = perEvent(moreMs, more) / perEvent(fewerMs, fewer);
    targets.push({
      name: `Pipeline, many blocks: accumulate's cost per event at ${blocksOf(more)} blocks within 1.3× its cost at ${blocksOf(fewer)}`,
      figure: `${growth.toFixed(2)}× (${formatMs(moreMs)} vs ${formatMs(fewerMs)})`,
      pass: growth <= 1.3,
    });
  }
  for (const row of rows) {
    if (many.includes(row)) continue;
    const ours = find(row, 'accumulate');
    const sdk = find(row, 'sdk');
    if (!ours) continue;
    const oursWrong = ours.problems.length > 0 ? ' (accumulate: wrong result)' : '';
    const overBare = ours.timing.ms / row.bare.ms;
    targets.push({
      name: `Pipeline, ${row.name}: accumulate within 1.3× the bare decode-split-JSON.parse loop`,
      figure: `${overBare.toFixed(2)}×${oursWrong}${row.bareProblems.length > 0 ? ' (bare loop: wrong result)' : ''}`,
      pass: overBare <= 1.3 && oursWrong === '' && row.bareProblems.length === 0,
    });
    if (!sdk) continue;
    const speedup = sdk.timing.ms / ours.timing.ms;
    targets.push({
      name: `Pipeline, ${row.name}: accumulate at least 1.8× faster than the SDK MessageStream`,
      figure: `${speedup.toFixed(2)}×${oursWrong}${sdk.problems.length > 0 ? ' (SDK: wrong result)' : ''}`,
      pass: speedup >= 1.8 && oursWrong === '',
    });
  }
  return targets;
}

export function pipelineTable(rows: readonly PipelineRow[]): string {
  const lines = [
    '| stream | contender | time | MB/s | × bare loop | × accumulate | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const verdict = (problems: readonly string[]) =>
    problems.length === 0 ? 'correct' : `**wrong: ${problems.join(', ')}**`;
  for (const row of rows) {
    const mbps = (t: Timing) => (row.mb / (t.ms / 1000)).toFixed(1);
    const ours = find(row, 'accumulate');
    const overOurs = (t: Timing) => (ours ? ratio(t.ms, ours.timing.ms) : '–');
    lines.push(
      `| ${row.name}: ${row.payload}, ${row.mb.toFixed(1)} MB of SSE | bare decode-split-JSON.parse loop | ${formatMs(row.bare.ms)} | ${mbps(row.bare)} | 1.00× | ${overOurs(row.bare)} | ${verdict(row.bareProblems)} |`,
    );
    for (const r of row.results) {
      lines.push(
        `| | ${r.name} | ${formatMs(r.timing.ms)} | ${mbps(r.timing)} | ${ratio(r.timing.ms, row.bare.ms)} | ${overOurs(r.timing)} | ${verdict(r.problems)} |`,
      );
    }
  }
  lines.push(
    '',
    'MB/s is SSE bytes per second; the bytes arrive in 16 KB chunks, already in memory. ' +
      'Every contender is read to its final result, which is checked against what the generator put in ' +
      '(text, thinking, signature, tool input as an object); "wrong" marks a result that differs. ' +
      "@ai-sdk/anthropic runs through the most direct path, the provider model's `doStream()` " +
      "(its SSE parse, schema validation and transform into stream parts; `ai`'s `streamText` " +
      'would add its own layers on top), with the parts joined and the tool input JSON.parsed once. ' +
      "The SDK's tool input is its lazy `input` getter, read once.",
  );
  return lines.join('\n');
}
