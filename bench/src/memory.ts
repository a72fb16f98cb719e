/**
 * Memory: the heap an answer keeps once it has streamed, and what one conversation keeps
 * after many answers. Needs `node --expose-gc`: every figure is heapUsed after full
 * collections, minus heapUsed after full collections before the work, median of several
 * runs after a warm-up run (so compiled code and caches are not counted).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { accumulate, type StreamState } from '@message-stream/core';
import { createMockFetch } from '@message-stream/mock';
import { type AssistantTurn, createChatStore, type Turn } from '@message-stream/react';
import { type MarkdownSplit, splitMarkdown } from '@message-stream/react/markdown';
import { streamText } from 'ai';
import { markdownAnswer } from '../render/src/sse.js';
import { chunkBytes, type StreamFixture, textAnswerFixture } from './data.js';
import { bareLoop, replayFetch, runAccumulate, runSdk } from './pipeline.js';
import type { Target } from './target.js';

const CHUNK = 16 * 1024;

export interface AnswerRow {
  /** What is held: "accumulate: the final StreamState". */
  readonly name: string;
  /** Median retained heap, bytes, as the stream left it. */
  readonly retained: number;
  /** The same once the answer's text has been read once (V8 flattens a concatenated string on its first read). */
  readonly afterRead: number;
  /** What was wrong with the held result (empty: correct). */
  readonly problems: readonly string[];
}

export interface ConversationResult {
  readonly answers: number;
  /** UTF-8 bytes of all answers' text. */
  readonly textBytes: number;
  /** Median retained heap after all answers: the store and everything it holds. */
  readonly retained: number;
  /** Retained heap along the way (one run). */
  readonly checkpoints: ReadonlyArray<{ readonly answers: number; readonly retained: number }>;
  /**
   * Of `retained`, what the turns' `request` objects hold. They held a copy of the history
   * each (quadratic) until the store kept one message per turn; the row shows it stays so.
   */
  readonly requests: number;
  /** The same answers as accumulate's final states in an array, texts read once: the floor. */
  readonly states: number;
  /** Store states published with `batch: false`, tracked by WeakRef; `alive`: superseded ones not collected. */
  readonly superseded: { readonly published: number; readonly alive: number };
  readonly problems: readonly string[];
  readonly runs: number;
}

export interface MemoryResult {
  readonly answer: {
    /** UTF-8 bytes of the answer's text. */
    readonly textBytes: number;
    readonly textChars: number;
    readonly deltas: number;
    readonly sseBytes: number;
    readonly runs: number;
    readonly rows: readonly AnswerRow[];
  };
  readonly conversation: ConversationResult;
  readonly markdown: MarkdownSplitResult;
}

/** A markdown answer split as `StreamingMarkdown` splits it while it streams. */
export interface MarkdownSplitResult {
  readonly textBytes: number;
  readonly chunks: number;
  readonly splits: number;
  /** Median retained heap: the last split, as the component keeps it. */
  readonly retained: number;
  /** The same text as one flat string. */
  readonly reference: number;
  readonly runs: number;
  readonly problems: readonly string[];
}

const heap = () => process.memoryUsage().heapUsed;

/** Lets pending callbacks run, then collects everything collectable. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc?.();
  }
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Holds a value for the measurement, so no engine can decide it is dead early. */
const hold: { value: unknown } = { value: null };

/** Reading a string's character flattens it if it is a concatenation (a rope). */
const touch = (text: string): number => text.charCodeAt(text.length >> 1);

interface Holder<T> {
  readonly name: string;
  make(): Promise<T>;
  /** The answer's text as the holder keeps it (not a copy). */
  text(value: T): string | Promise<string>;
}

/**
 * One measurement, in its own call: locals of an async function live on in its frame until
 * it returns, so a value kept in a local of a loop would still be held by the next run.
 */
async function measureOnce<T>(
  holder: Holder<T>,
  expected: string,
): Promise<{ retained: number; afterRead: number; correct: boolean }> {
  await settle();
  const before = heap();
  hold.value = await holder.make();
  await settle();
  const streamed = heap();
  const correct = await readOnce(holder, expected);
  await settle();
  const read = heap();
  hold.value = null;
  return { retained: streamed - before, afterRead: read - before, correct };
}

/** Reads the held text once (as a UI would) and checks it. */
async function readOnce<T>(holder: Holder<T>, expected: string): Promise<boolean> {
  const text = await holder.text(hold.value as T);
  touch(text);
  return text === expected;
}

async function measureHolder<T>(
  holder: Holder<T>,
  expected: string,
  runs: number,
): Promise<AnswerRow> {
  const retained: number[] = [];
  const afterRead: number[] = [];
  let correct = true;
  for (let run = 0; run <= runs; run++) {
    const sample = await measureOnce(holder, expected);
    correct &&= sample.correct;
    if (run === 0) continue; // warm-up
    retained.push(sample.retained);
    afterRead.push(sample.afterRead);
  }
  return {
    name: holder.name,
    retained: median(retained),
    afterRead: median(afterRead),
    problems: correct ? [] : ['text'],
  };
}

const stateText = (state: StreamState): string => {
  const block = state.message?.content[0]?.block as { text?: string } | undefined;
  return block?.text ?? '';
};

function aiStream(chunks: readonly Uint8Array[]) {
  return streamText({
    model: createAnthropic({ apiKey: 'bench', fetch: replayFetch(chunks) })('claude-sonnet-4-5'),
    prompt: 'x',
    maxOutputTokens: 1024,
  });
}

/** The text part of an `ai` step as the step keeps it. */
const stepText = (steps: ReadonlyArray<{ content: ReadonlyArray<{ type: string }> }>): string =>
  (steps[0]?.content.find((part) => part.type === 'text') as { text?: string } | undefined)?.text ??
  '';

async function benchAnswer(fixture: StreamFixture, runs: number): Promise<MemoryResult['answer']> {
  const body = new TextEncoder().encode(fixture.sse);
  const chunks = chunkBytes(body, CHUNK);
  const expected = fixture.expected.text;
  const deltas = fixture.sse.split('"text_delta"').length - 1;
  const holders: Holder<unknown>[] = [
    {
      name: 'the text as one flat string (reference)',
      make: async () => [...expected].join(''),
      text: (value) => value as string,
    },
    {
      name: 'bare decode-split-JSON.parse loop: its `text +=` string',
      make: async () => bareLoop(chunks).text,
      text: (value) => value as string,
    },
    {
      name: '@message-stream/core accumulate: the final StreamState',
      make: () => runAccumulate(chunks),
      text: (value) => stateText(value as StreamState),
    },
    {
      name: '@anthropic-ai/sdk: the Message of finalMessage()',
      make: () => runSdk(chunks),
      text: (value) => (value as { content: Array<{ text?: string }> }).content[0]?.text ?? '',
    },
    {
      name: 'ai streamText + @ai-sdk/anthropic: `await result.steps`',
      make: async () => aiStream(chunks).steps,
      text: (value) => stepText(value as Parameters<typeof stepText>[0]),
    },
    {
      name: 'ai streamText + @ai-sdk/anthropic: the result object, after `await result.text`',
      make: async () => {
        const result = aiStream(chunks);
        await result.text;
        return result;
      },
      text: async (value) => stepText(await (value as ReturnType<typeof aiStream>).steps),
    },
  ];
  const rows: AnswerRow[] = [];
  for (const holder of holders) rows.push(await measureHolder(holder, expected, runs));
  return {
    textBytes: Buffer.byteLength(expected, 'utf8'),
    textChars: expected.length,
    deltas,
    sseBytes: body.length,
    runs,
    rows,
  };
}

/** One conversation of `answers.length` answers in one store, driven by the mock's fetch. */
async function runConversation(
  answers: readonly StreamFixture[],
  { batch, track, every }: { batch?: false; track?: boolean; every: number },
) {
  const problems = new Set<string>();
  const checkpoints: Array<{ answers: number; retained: number }> = [];
  const published: WeakRef<object>[] = [];
  await settle();
  const before = heap();
  let next = 0;
  const fetch = createMockFetch({
    fixtures: { answer: () => (answers[next++] as StreamFixture).sse },
  });
  const store = createChatStore({
    request: { model: 'mock:answer', max_tokens: 1024 },
    fetch,
    ...(batch === false ? { batch } : {}),
  });
  if (track) {
    store.subscribe((state) => {
      published.push(new WeakRef(state.turns));
      const last = state.turns.at(-1);
      if (last?.role === 'assistant') published.push(new WeakRef(last.stream));
    });
  }
  for (let i = 0; i < answers.length; i++) {
    await store.getState().send(`Question ${i + 1}: and then?`);
    if ((i + 1) % every === 0 && i + 1 < answers.length) {
      await settle();
      checkpoints.push({ answers: i + 1, retained: heap() - before });
    }
  }
  await settle();
  const retained = heap() - before;
  checkpoints.push({ answers: answers.length, retained });

  // Checks, after the measurement (in a function of their own: see measureOnce).
  const alive = checkConversation(store.getState().turns, answers, published, problems);

  // What the turns' requests hold: drop them and see what is freed.
  const empty = { model: '', max_tokens: 0, messages: [] };
  store.setState({
    turns: store
      .getState()
      .turns.map((turn) => (turn.role === 'assistant' ? { ...turn, request: empty } : turn)),
  });
  await settle();
  const requests = before + retained - heap();
  return {
    retained,
    checkpoints,
    requests,
    published: published.length,
    alive,
    problems: [...problems],
  };
}

/** Checks every answer, and counts the published states that are superseded yet alive. */
function checkConversation(
  turns: readonly Turn[],
  answers: readonly StreamFixture[],
  published: readonly WeakRef<object>[],
  problems: Set<string>,
): number {
  const answered = turns.filter((turn): turn is AssistantTurn => turn.role === 'assistant');
  if (answered.length !== answers.length) problems.add(`${answered.length} answers`);
  answered.forEach((turn, i) => {
    if (turn.stream.status !== 'complete') problems.add(`status ${turn.stream.status}`);
    if (stateText(turn.stream) !== answers[i]?.expected.text) problems.add('text');
  });
  const current = new Set<object>([turns, ...answered.map((turn) => turn.stream)]);
  let alive = 0;
  for (const ref of published) {
    const value = ref.deref();
    if (value !== undefined && !current.has(value)) alive++;
  }
  return alive;
}

/** The floor for the conversation: each answer's final state from accumulate, in an array. */
async function statesAlone(answers: readonly StreamFixture[], runs: number): Promise<number> {
  const bodies = answers.map((answer) => new TextEncoder().encode(answer.sse));
  const samples: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const sample = await statesOnce(bodies);
    if (run > 0) samples.push(sample);
  }
  return median(samples);
}

async function statesOnce(bodies: readonly Uint8Array[]): Promise<number> {
  await settle();
  const before = heap();
  const states: StreamState[] = [];
  hold.value = states;
  for (const body of bodies) states.push(await accumulate(body));
  for (const state of states) touch(stateText(state));
  await settle();
  const retained = heap() - before;
  hold.value = null;
  return retained;
}

async function benchConversation(
  count: number,
  runs: number,
  log: (line: string) => void,
): Promise<ConversationResult> {
  const answers = Array.from({ length: count }, (_, i) => textAnswerFixture(3000, i + 1));
  const textBytes = answers.reduce(
    (sum, answer) => sum + Buffer.byteLength(answer.expected.text, 'utf8'),
    0,
  );
  const every = Math.max(1, Math.round(count / 4));
  const samples: Awaited<ReturnType<typeof runConversation>>[] = [];
  for (let run = 0; run <= runs; run++) {
    const result = await runConversation(answers, { every });
    if (run > 0) samples.push(result);
    log(
      `    conversation run ${run === 0 ? '(warm-up)' : run}: ${mb(result.retained)} after ${count} answers`,
    );
  }
  const middle = samples.find((s) => s.retained === median(samples.map((x) => x.retained)));
  const tracked = await runConversation(answers, { batch: false, track: true, every: count });
  const states = await statesAlone(answers, runs);
  return {
    answers: count,
    textBytes,
    retained: middle?.retained ?? Number.NaN,
    checkpoints: middle?.checkpoints ?? [],
    requests: median(samples.map((s) => s.requests)),
    states,
    superseded: { published: tracked.published, alive: tracked.alive },
    problems: [...new Set([...samples.flatMap((s) => s.problems), ...tracked.problems])],
    runs,
  };
}

export async function benchMemory(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<MemoryResult> {
  if (typeof globalThis.gc !== 'function') {
    throw new Error('benchMemory needs `node --expose-gc` (the bench script passes it).');
  }
  const runs = quick ? 3 : 7;
  const fixture = textAnswerFixture(quick ? 100_000 : 1_000_000);
  log(`  ${fixture.name}`);
  const answer = await benchAnswer(fixture, runs);
  for (const row of answer.rows) {
    log(
      `    ${row.name}: ${mb(row.retained)}, read ${mb(row.afterRead)}${row.problems.length ? ` WRONG RESULT: ${row.problems.join(', ')}` : ''}`,
    );
  }
  const count = quick ? 40 : 200;
  log(`  conversation of ${count} answers`);
  const conversation = await benchConversation(count, quick ? 2 : 5, log);
  const markdown = await benchMarkdownSplit(quick ? 100_000 : 500_000, runs);
  log(
    `  markdown split of ${mb(markdown.textBytes)} (${markdown.chunks} chunks): ${mb(markdown.retained)} (the text alone ${mb(markdown.reference)})`,
  );
  return { answer, conversation, markdown };
}

/** Text deltas per split: a frame's worth at a fast model's pace over a fast network. */
const DELTAS_PER_SPLIT = 16;

/**
 * The split `StreamingMarkdown` keeps of a long answer (headings, paragraphs, lists, code,
 * tables, link definitions) once it has streamed: the text grown by 16-character deltas and
 * split again every 16 of them, each split resuming from the last. What it holds should stay a small multiple of
 * the text: a chunk cut as a slice of one frame's text kept all of that text alive, so the
 * splits of a 250 KB answer held some 150 MB.
 */
async function benchMarkdownSplit(length: number, runs: number): Promise<MarkdownSplitResult> {
  // Reference definitions at the end, as answers with links often have: the scan carries them
  // from line to line, and each kept as a slice would keep its frame's whole text alive.
  let references = '';
  for (let i = 1; i <= 24; i++) {
    references += `\n[source-${i}]: https://example.com/references/${i}/a-path-of-some-length "Source ${i}"`;
  }
  const answer = `${markdownAnswer(length, 5)}\n${references}\n`;
  const grow = (): MarkdownSplit => {
    let text = '';
    let split: MarkdownSplit | null = null;
    for (let at = 0, delta = 0; at < answer.length; at += 16, delta++) {
      text += answer.slice(at, at + 16);
      if (delta % DELTAS_PER_SPLIT === DELTAS_PER_SPLIT - 1 || at + 16 >= answer.length) {
        split = splitMarkdown(text, split);
      }
    }
    return split as MarkdownSplit;
  };
  const retained: number[] = [];
  const reference: number[] = [];
  const problems = new Set<string>();
  let chunks = 0;
  for (let run = 0; run <= runs; run++) {
    const split = await measureOnce(
      { name: 'split', make: async () => grow(), text: (value) => (value as MarkdownSplit).source },
      answer,
    );
    const flat = await measureOnce(
      { name: 'flat', make: async () => [...answer].join(''), text: (value) => value as string },
      answer,
    );
    if (!split.correct) problems.add('text');
    if (run === 0) {
      const last = grow();
      chunks = last.chunks.length;
      if (last.chunks.some((chunk) => chunk.text !== answer.slice(chunk.start, chunk.end)))
        problems.add('chunks');
      continue;
    }
    retained.push(split.retained);
    reference.push(flat.retained);
  }
  return {
    textBytes: Buffer.byteLength(answer, 'utf8'),
    chunks,
    splits: Math.ceil(answer.length / 16 / DELTAS_PER_SPLIT),
    retained: median(retained),
    reference: median(reference),
    runs,
    problems: [...problems],
  };
}

/** The split of a long answer keeps at most this many times the text's own heap. */
const MARKDOWN_SPLIT_LIMIT = 4;

export function memoryTargets({ markdown }: MemoryResult): Target[] {
  const ratio = markdown.retained / markdown.reference;
  return [
    {
      name: `Memory: the markdown split of a ${mb(markdown.textBytes)} answer as it streamed (the split \`StreamingMarkdown\` keeps) at most ${MARKDOWN_SPLIT_LIMIT}× the text as one flat string`,
      figure: `${ratio.toFixed(2)}× (${mb(markdown.retained)} vs ${mb(markdown.reference)})${markdown.problems.length ? `; **wrong: ${markdown.problems.join(', ')}**` : ''}`,
      pass: ratio <= MARKDOWN_SPLIT_LIMIT && markdown.problems.length === 0,
    },
  ];
}

const mb = (bytes: number): string =>
  Math.abs(bytes) >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} KB`;

export function memoryTable(result: MemoryResult): string {
  const { answer, conversation: c, markdown: m } = result;
  const times = (bytes: number, base: number) => `${(bytes / base).toFixed(2)}×`;
  const verdict = (problems: readonly string[]) =>
    problems.length === 0 ? 'correct' : `**wrong: ${problems.join(', ')}**`;
  const lines = [
    `### One answer: ${mb(answer.textBytes)} of text (UTF-8; ${answer.textChars} characters) in ${answer.deltas} text deltas, ${mb(answer.sseBytes)} of SSE`,
    '',
    '| what is held | retained heap | × answer bytes | after the text is read once | × answer bytes | result |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of answer.rows) {
    lines.push(
      `| ${row.name} | ${mb(row.retained)} | ${times(row.retained, answer.textBytes)} | ${mb(row.afterRead)} | ${times(row.afterRead, answer.textBytes)} | ${verdict(row.problems)} |`,
    );
  }
  const per = (bytes: number) => mb(bytes / c.answers);
  lines.push(
    '',
    `Median of ${answer.runs} runs after a warm-up. A string built by \`+=\` is a rope in V8 (a node per delta); its first read flattens it. The text has a few non-Latin-1 characters (é, 😀), as most answers do, so V8 keeps it two bytes per character.`,
    '',
    `### One conversation: ${c.answers} answers of about 3 KB in one \`createChatStore\`, sent one after another (mock fetch)`,
    '',
    '| what is held | retained heap | per answer | × answer bytes |',
    '| --- | --- | --- | --- |',
    `| the store after ${c.answers} answers (${verdict(c.problems)}) | ${mb(c.retained)} | ${per(c.retained)} | ${times(c.retained, c.textBytes)} |`,
    `| … of which the turns' \`request\` parameters (no history copies) | ${mb(c.requests)} | ${per(c.requests)} | ${times(c.requests, c.textBytes)} |`,
    `| the same answers as ${c.answers} accumulate states in an array, texts read once | ${mb(c.states)} | ${per(c.states)} | ${times(c.states, c.textBytes)} |`,
    `| the answers' text (UTF-8) | ${mb(c.textBytes)} | ${per(c.textBytes)} | 1.00× |`,
    '',
    `Median of ${c.runs} runs after a warm-up run. Along the way (one run): ${c.checkpoints.map((p) => `${p.answers} answers ${mb(p.retained)}`).join(', ')}. ` +
      `Superseded states: with \`batch: false\` (every state published) ${c.superseded.published} published \`turns\` arrays and answer states were tracked by WeakRef; ` +
      `${c.superseded.alive} of those that are no longer current survived collection.`,
    '',
    `### One markdown answer split as it streamed: ${mb(m.textBytes)} (headings, paragraphs, lists, code, tables), ${m.chunks} chunks`,
    '',
    '| what is held | retained heap | × the flat text |',
    '| --- | --- | --- |',
    `| the text as one flat string (reference) | ${mb(m.reference)} | 1.00× |`,
    `| \`splitMarkdown\`: the last of ${m.splits} splits, each resumed from the one before (${verdict(m.problems)}) | ${mb(m.retained)} | ${times(m.retained, m.reference)} |`,
    '',
    `Median of ${m.runs} runs after a warm-up. The text grows by 16-character deltas, appended as the store appends them, and is split every ${DELTAS_PER_SPLIT} of them, each split resuming from the one before, as \`StreamingMarkdown\` splits a streaming answer; it ends with 24 link reference definitions. The split holds the last text and its chunks; what a resumed split keeps (a chunk it closes, a definition line) is a copy of its own, since a slice would keep its frame's whole text alive. The split alone is measured, not the views drawn from it.`,
  );
  return lines.join('\n');
}
