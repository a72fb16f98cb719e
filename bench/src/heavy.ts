/**
 * Heavy content while streaming, into `<ChatStream/>` in headless Chromium (the rendering
 * bench's page): a 2,000-line code answer, and a 1 MB tool input streaming into the tool card.
 */
import { formatMs } from './measure.js';
import { type Measured, median, runOnce, withBrowser } from './render.js';
import type { Target } from './target.js';

export interface HeavyRow {
  readonly name: string;
  /** `<ChatStream/>` on the in-page mock: one chunk per SSE event, each read in a task. */
  readonly runs: readonly Measured[];
  /** The same, the bytes read by the bare page (`network`: nothing rendered). */
  readonly floor: Measured;
  /** `<ChatStream/>` with the bytes over a real loopback HTTP connection (`net=http`). */
  readonly http: Measured;
  /** The bare read over HTTP. */
  readonly httpFloor: Measured;
  /** A target of its own (the rendering bench's answer has its target in that bench). */
  readonly targeted: boolean;
}

const CASES = (
  quick: boolean,
): { name: string; query: Record<string, string>; targeted?: false }[] => [
  {
    name: quick ? '200-line code answer' : '2,000-line code answer (10,000 text deltas)',
    query: {
      code: quick ? '200' : '2000',
      deltas: quick ? '1000' : '10000',
      thinking: '20',
      json: '10',
    },
  },
  // For information, no target of its own: the 5,000-line block, which grows what a
  // long block keeps (lines, highlighted runs) two and a half times over the row above.
  ...(quick
    ? []
    : [
        {
          name: '5,000-line code answer (25,000 text deltas), for information',
          query: { code: '5000', deltas: '25000', thinking: '20', json: '10' },
          targeted: false as const,
        },
      ]),
  {
    name: quick ? '100 KB tool input' : '1 MB tool input (65,536 input_json_delta fragments)',
    query: { deltas: '200', thinking: '20', json: quick ? '6400' : '65536' },
  },
  {
    name: "the rendering bench's answer (5,000 text deltas)",
    query: {},
    targeted: false,
  },
];

/**
 * The chat UI issue's 5,000-line block as a fast model would send it: over loopback HTTP, the
 * deltas written as they fall due at 1,000 a second (about 10,000 characters a second, over
 * ten times a fast model's output; 25 s). At full speed (the rows above) even the bare read of the same bytes has
 * tasks over 16 ms, so no page could show there whether the block ever holds a frame.
 */
export interface PacedRow {
  readonly name: string;
  readonly run: Measured;
  /** The bare read of the same paced response. */
  readonly floor: Measured;
}

export interface HeavyResult {
  readonly rows: readonly HeavyRow[];
  readonly paced: readonly PacedRow[];
}

const PACE_PER_SECOND = 1000;

/**
 * Deltas a second in the long markdown and long thinking rows: some 12,000-16,000 characters a
 * second, over ten times a fast model.
 */
const LONG_PACE_PER_SECOND = 2000;

const pacedCases = (quick: boolean): { name: string; query: Record<string, string> }[] => [
  {
    name: quick
      ? `500-line code answer at ${PACE_PER_SECOND} text deltas a second over HTTP`
      : `5,000-line code answer (25,000 text deltas) at ${PACE_PER_SECOND.toLocaleString('en-US')} a second over HTTP`,
    query: {
      code: quick ? '500' : '5000',
      deltas: quick ? '2500' : '25000',
      thinking: '20',
      json: '10',
      seed: '3',
      net: 'http',
      pace: String(PACE_PER_SECOND),
    },
  },
  // A long markdown answer (headings, lists, tables, code, quotes), as most answers are.
  {
    name: quick
      ? `long markdown answer (4,000 text deltas) at ${LONG_PACE_PER_SECOND} a second over HTTP`
      : `long markdown answer (40,000 text deltas, 240 K characters) at ${LONG_PACE_PER_SECOND.toLocaleString('en-US')} a second over HTTP`,
    query: {
      deltas: quick ? '4000' : '40000',
      thinking: '20',
      json: '10',
      seed: '3',
      net: 'http',
      pace: String(LONG_PACE_PER_SECOND),
    },
  },
  // A long reasoning before a short answer: the thinking block stays open, tailing, while it
  // streams (some 8 characters a delta).
  {
    name: quick
      ? `long thinking (2,000 thinking deltas) at ${LONG_PACE_PER_SECOND} a second over HTTP`
      : `long thinking (20,000 thinking deltas, 160 K characters) at ${LONG_PACE_PER_SECOND.toLocaleString('en-US')} a second over HTTP`,
    query: {
      deltas: '200',
      thinking: quick ? '2000' : '20000',
      json: '10',
      seed: '3',
      net: 'http',
      pace: String(LONG_PACE_PER_SECOND),
    },
  },
];

export async function benchHeavy(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<HeavyResult> {
  return withBrowser(async (browser, url) => {
    const rows: HeavyRow[] = [];
    for (const { name, query, targeted = true } of CASES(quick)) {
      const page = { ...query, seed: '3' };
      const http = { ...page, net: 'http' };
      const run = await runOnce(browser, url, 'ours', page);
      const floor = await runOnce(browser, url, 'network', page);
      const overHttp = await runOnce(browser, url, 'ours', http);
      const httpFloor = await runOnce(browser, url, 'network', http);
      log(
        `  ${name}: longest task ${formatMs(run.longestTaskMs)} (bare read ${formatMs(floor.longestTaskMs)}); over HTTP ${formatMs(overHttp.longestTaskMs)} in ${overHttp.stats.chunks} reads (bare read ${formatMs(httpFloor.longestTaskMs)})`,
      );
      rows.push({ name, runs: [run], floor, http: overHttp, httpFloor, targeted });
    }
    const paced: PacedRow[] = [];
    for (const { name, query } of pacedCases(quick)) {
      const run = await runOnce(browser, url, 'ours', query);
      const floor = await runOnce(browser, url, 'network', query);
      log(
        `  ${name}: longest task ${longest(run)} (bare read ${longest(floor)}), over 16 ms ${run.tasksOver16} / ${run.tasksOver16Cpu}`,
      );
      paced.push({ name, run, floor });
    }
    return { rows, paced };
  });
}

const of = (row: HeavyRow, pick: (m: Measured) => number) => median(row.runs.map(pick));

/**
 * A paced stream's main-thread time in its last quarter over its second. Its updates come at a
 * steady pace, so work per update that grew with the answer would make the later quarters cost
 * more. Here they cost less (0.6-0.85 in this machine's runs: the early quarters also hold the
 * page's first compilations and its first layouts of each kind of block), so the limit is 1:
 * growth of a third over the answer would show. The network's read is in both and does not
 * grow, which hides some growth; the streaming view rows measure the work per update alone.
 */
export const lateOverEarly = (m: Pick<Measured, 'taskMsByQuarter'>): number =>
  m.taskMsByQuarter[3] / Math.max(1e-9, m.taskMsByQuarter[1]);

/** The most the last quarter may cost over the second. */
export const LATE_OVER_EARLY_LIMIT = 1;
const longest = (m: Measured) => `${formatMs(m.longestTaskMs)} / ${formatMs(m.longestTaskCpuMs)}`;

export function heavyTable({ rows, paced }: HeavyResult): string {
  return [
    '| stream into `<ChatStream/>` | longest task (wall / thread time) | the bare read: longest task | tasks over 16 ms (wall / thread time) | main-thread task time | send → final DOM | last byte → final DOM | over HTTP: longest task (reads) | over HTTP, the bare read: longest task |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${formatMs(of(row, (m) => m.longestTaskMs))} / ${formatMs(of(row, (m) => m.longestTaskCpuMs))} | ${longest(row.floor)} | ${Math.round(of(row, (m) => m.tasksOver16))} / ${Math.round(of(row, (m) => m.tasksOver16Cpu))} | ${formatMs(of(row, (m) => m.taskMs))} | ${formatMs(of(row, (m) => m.stats.totalMs))} | ${formatMs(of(row, (m) => m.stats.lastByteToDomMs))} | ${longest(row.http)} (${row.http.stats.chunks}) | ${longest(row.httpFloor)} |`,
    ),
    '',
    `${rows[0]?.runs.length ?? 0} run each (a run is tens of seconds here), the rendering bench's page and measuring. ` +
      'The code answer is one TypeScript fence streamed at full speed, highlighted as ' +
      '`<ChatStream/>` does by default (Shiki in a module Worker, lines in contained groups of 64). The ' +
      'tool input is a JSON object of about 1 MB, after a short answer; the card stays collapsed ' +
      '(its row and one-line summary render while it streams). "The bare read": the same page ' +
      'reading the same response to its end and rendering nothing (the `network` contender): ' +
      'what the network alone costs. "Over HTTP": the bench\'s server writes the same bytes to a ' +
      'real loopback connection, one write per event at full speed, and Chromium hands them to ' +
      'the page as a network does (a read returns what arrived since the last one: the reads ' +
      'column); the in-page mock instead hands over one event per read. The server shares the ' +
      "machine's two cores with the browser, so wall times over HTTP include its writing.",
    '',
    '| paced stream into `<ChatStream/>` | longest task (wall / thread time) | tasks over 16 ms (wall / thread time) | the bare read: longest task | main-thread task time | by quarter of the run | last quarter ÷ second | send → final DOM | reads |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...paced.map(
      (row) =>
        `| ${row.name} | ${longest(row.run)} | ${row.run.tasksOver16} / ${row.run.tasksOver16Cpu} | ${longest(row.floor)} | ${formatMs(row.run.taskMs)} | ${row.run.taskMsByQuarter.map(formatMs).join(' / ')} | ${lateOverEarly(row.run).toFixed(2)}× | ${formatMs(row.run.stats.totalMs)} | ${row.run.stats.chunks} |`,
    ),
    '',
    `1 run each. The same code answer as the 5,000-line row, written by the bench's server to a ` +
      `real loopback connection as its deltas fall due, ${PACE_PER_SECOND.toLocaleString('en-US')} a second ` +
      '(a few to a write, every 10 ms): about 10,000 characters a second, over ten times what ' +
      'a fast model streams. ' +
      "The page keeps up with it, so this is the block's own cost per frame, which at full " +
      'speed is hidden under what the network alone costs. A task "blocks a frame" by its ' +
      'thread time: on two cores shared with the tokenizing Worker, the compositor, the GPU ' +
      "process and the bench's server, the renderer is preempted mid-task (the wall column). " +
      "The long thinking: the rendering bench's answer with a thinking block of 20,000 " +
      `thinking deltas (about 160,000 characters in sentences, no line break) before it, ` +
      `written ${LONG_PACE_PER_SECOND.toLocaleString('en-US')} deltas a second; the block ` +
      'stays open, its panel tailing the newest lines, until the answer starts. "By quarter ' +
      'of the run": main-thread task time in each quarter of the run, a task counted where it ' +
      'starts; at a steady pace, work per update that grew with the answer would make the last ' +
      "quarter cost more than the second (the first also holds the page's first compilations).",
  ].join('\n');
}

export function heavyTargets({ rows, paced }: HeavyResult): Target[] {
  const pacedTargets = paced.map(
    (row): Target => ({
      name: `Heavy content, ${row.name}: no task over 16 ms of main-thread time while streaming`,
      figure: `longest ${formatMs(row.run.longestTaskCpuMs)} thread time (${formatMs(row.run.longestTaskMs)} wall); ${row.run.tasksOver16Cpu} tasks over 16 ms by thread time, ${row.run.tasksOver16} by wall; the bare read ${longest(row.floor)}`,
      pass: row.run.longestTaskCpuMs <= 16,
    }),
  );
  const growthTargets = paced.map(
    (row): Target => ({
      name: `Heavy content, ${row.name}: the last quarter of the run costs no more than its second (work per update does not grow with the answer)`,
      figure: `${lateOverEarly(row.run).toFixed(2)}× (${row.run.taskMsByQuarter.map(formatMs).join(' / ')} by quarter)`,
      pass: lateOverEarly(row.run) <= LATE_OVER_EARLY_LIMIT,
    }),
  );
  return rows
    .filter((row) => row.targeted)
    .map((row) => {
      const longest = of(row, (m) => m.longestTaskMs);
      return {
        name: `Heavy content, ${row.name}: no task over 16 ms while streaming`,
        figure: `longest ${formatMs(longest)} wall, ${formatMs(of(row, (m) => m.longestTaskCpuMs))} thread time; the bare read of the same stream ${formatMs(row.floor.longestTaskMs)}; over HTTP ${formatMs(row.http.longestTaskMs)} wall, ${formatMs(row.http.longestTaskCpuMs)} thread time`,
        pass: longest <= 16,
      };
    })
    .concat(pacedTargets, growthTargets);
}
