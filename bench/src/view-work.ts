/**
 * The streaming view's work per update, early and late in a long answer: what the chat store
 * records of an update (`text-appends.ts`), the markdown split, the growing fence's code and
 * the code block's lines, run as they run for each update a view renders (in Node, without
 * React or the DOM; the rendering bench measures those in Chromium). Work per update must not
 * grow with the answer: a rope's first read copies it whole, which each of these steps did.
 *
 * Run on the react package's source modules: these steps are internal, not exports.
 */
import {
  createStreamState,
  mergeContinuation,
  reduceStream,
  type StreamEvent,
  type StreamState,
} from '@message-stream/core';
import { joinAtSeam } from '../../packages/core/src/merge.js';
import { type SplitCode, splitLines } from '../../packages/react/src/components/code-lines.js';
import { type FencedCode, fencedCode } from '../../packages/react/src/markdown/fenced-code.js';
import {
  type MarkdownChunk,
  type MarkdownSplit,
  splitMarkdown,
} from '../../packages/react/src/markdown/split.js';
import { createTextAppends } from '../../packages/react/src/store/text-appends.js';
import { appendedSince, forgetAppends } from '../../packages/react/src/text-growth.js';
import { codeAnswer, cut, markdownAnswer } from '../render/src/sse.js';
import type { Target } from './target.js';

/** Text deltas between two updates: a frame's worth at 1,000 deltas a second. */
const DELTAS_PER_UPDATE = 16;

export interface ViewWorkRow {
  readonly answer: string;
  readonly chars: number;
  readonly updates: number;
  /** How the view learns what an update added. */
  readonly mode: 'recorded' | 'compared';
  /** Median µs per update over the first and the last tenth of the answer (medians of runs). */
  readonly earlyUs: number;
  readonly lateUs: number;
  /** The last update's code (or text) equals the answer's. */
  readonly correct: boolean;
}

const START: StreamEvent = {
  type: 'message_start',
  message: {
    id: 'msg_view',
    type: 'message',
    role: 'assistant',
    model: 'claude',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
} as StreamEvent;

/**
 * One pass over `deltas`: reduced as the store reduces them, an update every
 * DELTAS_PER_UPDATE, each drawn as the view draws it. `recorded`: the store records what each
 * update added (as it does); otherwise the view compares each text with the last.
 */
function pass(
  deltas: readonly string[],
  recorded: boolean,
  check = false,
): { times: number[]; wrong: number } {
  const appends = createTextAppends();
  let state = reduceStream(createStreamState(), START);
  state = reduceStream(state, {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  } as StreamEvent);
  let shown = state;
  let split: MarkdownSplit | null = null;
  let fence: { chunk: MarkdownChunk; fence: FencedCode | null } | null = null;
  let lines: SplitCode | null = null;
  const times: number[] = [];
  let wrong = 0;
  for (let i = 0; i < deltas.length; i++) {
    const event = {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: deltas[i] },
    } as StreamEvent;
    state = reduceStream(state, event);
    if (recorded) appends.event(event, state);
    if ((i + 1) % DELTAS_PER_UPDATE !== 0 && i !== deltas.length - 1) continue;
    const started = performance.now();
    if (recorded) appends.published(shown, state);
    shown = state;
    const text = (state.message?.content[0]?.block as { text?: string } | undefined)?.text ?? '';
    split = splitMarkdown(text, split);
    const chunk = split.chunks.at(-1) as MarkdownChunk;
    const code = fencedCode(
      chunk,
      split.openFence,
      fence?.chunk.start === chunk.start ? fence : null,
    );
    if (split.openFence !== null) fence = { chunk, fence: code };
    if (code !== null) lines = splitLines(code.code, lines);
    times.push(performance.now() - started);
    // Every update against a split, fence and lines made from scratch (the warm-up run only).
    if (check && !same(text, split, chunk, code, lines)) wrong++;
  }
  return { times, wrong };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};

/**
 * Median µs per update over the first and the last tenth of `runs` passes (the first tenth
 * skips the first updates: compilation), after a warm-up pass that also checks every update.
 */
function earlyAndLate(
  runs: number,
  pass: (check: boolean) => { times: number[]; wrong: number },
): { earlyUs: number; lateUs: number; correct: boolean } {
  const early: number[] = [];
  const late: number[] = [];
  let correct = true;
  for (let run = 0; run <= runs; run++) {
    const { times, wrong } = pass(run === 0);
    if (run === 0) {
      correct = wrong === 0;
      continue;
    }
    const tenth = Math.max(1, Math.floor(times.length / 10));
    early.push(median(times.slice(tenth, 2 * tenth)));
    late.push(median(times.slice(-tenth)));
  }
  return { earlyUs: median(early) * 1000, lateUs: median(late) * 1000, correct };
}

function measure(answer: string, name: string, runs: number): ViewWorkRow[] {
  const deltas = cut(answer, Math.ceil(answer.length / 11), 7);
  return (['recorded', 'compared'] as const).map((mode) => ({
    answer: name,
    chars: answer.length,
    updates: Math.ceil(deltas.length / DELTAS_PER_UPDATE),
    mode,
    ...earlyAndLate(runs, (check) => pass(deltas, mode === 'recorded', check)),
  }));
}

/** What the update drew is what a split, a fence and lines made from scratch give. */
function same(
  text: string,
  split: MarkdownSplit,
  chunk: MarkdownChunk,
  code: FencedCode | null,
  lines: SplitCode | null,
): boolean {
  const fresh = splitMarkdown(text);
  if (JSON.stringify(fresh) !== JSON.stringify(split)) return false;
  const freshCode = fencedCode({ ...chunk }, split.openFence);
  if (freshCode?.code !== code?.code) return false;
  return (
    code === null ||
    JSON.stringify(splitLines(code.code, null).groups) === JSON.stringify(lines?.groups)
  );
}

export function benchViewWork(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): ViewWorkRow[] {
  const runs = quick ? 3 : 7;
  const code = codeAnswer(quick ? 1_000 : 5_000, 3);
  const markdown = markdownAnswer(quick ? 50_000 : 250_000, 5);
  const rows = [
    ...measure(code, `${quick ? '1,000' : '5,000'}-line code answer`, runs),
    ...measure(markdown, 'markdown answer', runs),
  ];
  for (const row of rows) {
    log(
      `  ${row.answer}, ${row.mode}: ${row.earlyUs.toFixed(1)} µs early, ${row.lateUs.toFixed(1)} µs late${row.correct ? '' : ' WRONG RESULT'}`,
    );
  }
  return rows;
}

/** Work per update late in an answer at most this many times the work early on. */
const GROWTH_LIMIT = 1.5;

export function viewWorkTargets(rows: readonly ViewWorkRow[]): Target[] {
  return rows
    .filter((row) => row.mode === 'recorded')
    .map((row) => {
      const compared = rows.find((r) => r.answer === row.answer && r.mode === 'compared');
      const growth = row.lateUs / row.earlyUs;
      return {
        name: `Streaming view, ${row.answer} (${Math.round(row.chars / 1000)} K characters): work per update over the last tenth within ${GROWTH_LIMIT}× the first tenth`,
        figure: `${growth.toFixed(2)}× (${row.lateUs.toFixed(1)} µs vs ${row.earlyUs.toFixed(1)} µs; reading each update whole: ${compared ? `${(compared.lateUs / compared.earlyUs).toFixed(1)}×, ${compared.lateUs.toFixed(0)} µs late` : '—'})${row.correct ? '' : '; **wrong result**'}`,
        pass: growth <= GROWTH_LIMIT && row.correct,
      };
    });
}

export function viewWorkTable(rows: readonly ViewWorkRow[]): string {
  const lines = [
    '| answer | updates | how an update is read | µs per update, first tenth | last tenth | late ÷ early | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.answer}, ${Math.round(row.chars / 1000)} K characters | ${row.updates} | ${row.mode === 'recorded' ? 'the append the store recorded (ours)' : 'compared with the last update (each text read whole)'} | ${row.earlyUs.toFixed(1)} | ${row.lateUs.toFixed(1)} | ${(row.lateUs / row.earlyUs).toFixed(2)}× | ${row.correct ? 'correct' : '**wrong**'} |`,
    );
  }
  lines.push(
    '',
    `The answer's text deltas (about 11 characters) are reduced as the chat store reduces them, and every ${DELTAS_PER_UPDATE} of them an update is drawn as the view draws it, without React or the DOM: the store records what the update added (\`text-appends.ts\`), then the markdown split, the growing fence's code and the code block's lines. "Compared": the same steps with nothing recorded, as each step found what grew before (a rope's first read copies the whole text). Medians of runs after a warm-up; the first tenth skips the first updates (compilation).`,
  );
  return lines.join('\n');
}

/** A continued answer's updates as the view draws them (merge, record, markdown split). */
export interface ContinuationRow {
  readonly chars: number;
  readonly updates: number;
  /** Median µs per update, first and last tenth: ours (seam decided once, updates recorded). */
  readonly earlyUs: number;
  readonly lateUs: number;
  /** As two rounds ago: the seam searched at every update, and the merged text compared. */
  readonly beforeEarlyUs: number;
  readonly beforeLateUs: number;
  /** Every update's split equals a split of the merged text from scratch. */
  readonly correct: boolean;
}

/**
 * An answer interrupted halfway and continued by a user-message continuation that restates
 * its last words (what a model told to continue often does), each update recorded as the
 * chat store records it, merged as it shows it (`mergeContinuation`, reading the records) and
 * split as the view splits it. Two rounds ago the seam was searched again at each update (a
 * prefix function over up to 20,000 characters), and the merged text, recorded nowhere, was
 * compared whole with the last one by the split: the second measure.
 */
export function benchContinuation(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): ContinuationRow {
  const answer = markdownAnswer(quick ? 50_000 : 250_000, 5);
  const cutAt = answer.lastIndexOf(' ', answer.length / 2);
  const head = answer.slice(0, cutAt);
  const tail = head.slice(head.lastIndexOf(' ', head.length - 24)) + answer.slice(cutAt);
  const interrupted = [
    START,
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: head } },
  ].reduce((state, event) => reduceStream(state, event as StreamEvent), createStreamState());
  const deltas = cut(tail, Math.ceil(tail.length / 11), 7);
  const pass = (before: boolean, check: boolean) => {
    const appends = createTextAppends();
    let state = reduceStream(createStreamState(), START);
    const opened = {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    } as StreamEvent;
    state = reduceStream(state, opened);
    appends.event(opened, state);
    let shown: StreamState | null = null;
    let split: MarkdownSplit | null = null;
    const times: number[] = [];
    let wrong = 0;
    let sent = '';
    for (let i = 0; i < deltas.length; i++) {
      const piece = deltas[i] as string;
      sent += piece;
      const event = {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      } as StreamEvent;
      state = reduceStream(state, event);
      if (!before) appends.event(event, state);
      if ((i + 1) % DELTAS_PER_UPDATE !== 0 && i !== deltas.length - 1) continue;
      const started = performance.now();
      let text: string;
      if (before) {
        text = joinAtSeam(head, sent, true);
      } else {
        // As the chat store does: the appends recorded first, which the merge then reads.
        appends.made();
        const merged = mergeContinuation(interrupted, state, {
          strategy: 'user-message',
          appendedSince,
        });
        appends.published(shown, merged);
        shown = merged;
        text = (merged.message?.content[0]?.block as { text?: string } | undefined)?.text ?? '';
      }
      split = splitMarkdown(text, split);
      times.push(performance.now() - started);
      if (check && JSON.stringify(splitMarkdown(text)) !== JSON.stringify(split)) wrong++;
    }
    forgetAppends();
    return { times, wrong };
  };
  const runs = quick ? 3 : 7;
  const ours = earlyAndLate(runs, (check) => pass(false, check));
  const before = earlyAndLate(runs, (check) => pass(true, check));
  const row: ContinuationRow = {
    chars: head.length + tail.length,
    updates: Math.ceil(deltas.length / DELTAS_PER_UPDATE),
    earlyUs: ours.earlyUs,
    lateUs: ours.lateUs,
    beforeEarlyUs: before.earlyUs,
    beforeLateUs: before.lateUs,
    correct: ours.correct && before.correct,
  };
  log(
    `  continued answer: ${row.earlyUs.toFixed(1)} µs early, ${row.lateUs.toFixed(1)} µs late; as before: ${row.beforeEarlyUs.toFixed(1)} / ${row.beforeLateUs.toFixed(1)} µs${row.correct ? '' : ' WRONG RESULT'}`,
  );
  return row;
}

/** A continued answer's work per update, late against early: the same limit as above. */
export function continuationTargets(row: ContinuationRow): Target[] {
  const growth = row.lateUs / row.earlyUs;
  return [
    {
      name: `Continued answer (${Math.round(row.chars / 1000)} K characters, half of it the continuation): work per update over the last tenth within ${GROWTH_LIMIT}× the first tenth`,
      figure: `${growth.toFixed(2)}× (${row.lateUs.toFixed(1)} µs vs ${row.earlyUs.toFixed(1)} µs; the seam searched at every update: ${row.beforeLateUs.toFixed(0)} µs late)${row.correct ? '' : '; **wrong result**'}`,
      pass: growth <= GROWTH_LIMIT && row.correct,
    },
  ];
}

export function continuationTable(row: ContinuationRow): string {
  return [
    '| continued answer | updates | how an update is read | µs per update, first tenth | last tenth | late ÷ early | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${Math.round(row.chars / 1000)} K characters, half of it the continuation | ${row.updates} | seam kept, the append recorded (ours) | ${row.earlyUs.toFixed(1)} | ${row.lateUs.toFixed(1)} | ${(row.lateUs / row.earlyUs).toFixed(2)}× | ${row.correct ? 'correct' : '**wrong**'} |`,
    `| the same | ${row.updates} | seam searched, the text compared (two rounds ago) | ${row.beforeEarlyUs.toFixed(1)} | ${row.beforeLateUs.toFixed(1)} | ${(row.beforeLateUs / row.beforeEarlyUs).toFixed(2)}× | |`,
    '',
    "The markdown answer above, interrupted halfway; a user-message continuation restates its last words and goes on. Each update (as above) has its appends recorded (`text-appends.ts`), is merged (`mergeContinuation(interrupted, continuation, { appendedSince })`: once the seam is decided, the joined text grows by the recorded append, and neither text is read) and split, as the chat store and the view do. The second row is the merge of two rounds ago: the seam searched again at each update (a prefix function over up to 20,000 characters) and the merged text, recorded nowhere, compared whole with the last one. Until this round the merge also read the continuation's own text at every update (V8 copies a text built by appending on its first read): 11 µs early, 20 µs late.",
  ].join('\n');
}
