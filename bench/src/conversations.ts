/**
 * Long conversations, in headless Chromium: `<ChatStream/>` opened on N earlier turns
 * (`initialMessages` of mixed markdown, code and tables), then one 5,000-delta answer at full
 * speed through the mock, then the composer typed into and the whole log scrolled. The page
 * and the measuring are the rendering bench's (bench/render, bench/src/render.ts).
 */
import { formatMs } from './measure.js';
import {
  buildPage,
  type Measured,
  median,
  runOnce,
  type TypingResult,
  typeIntoBareTextarea,
  withBrowser,
} from './render.js';
import type { Target } from './target.js';

export interface ConversationRow {
  readonly turns: number;
  readonly runs: readonly Measured[];
  /** The same typing into a bare `<textarea>`, once a round (the same list on every row). */
  readonly bareTyping: readonly TypingResult[];
}

export const HISTORY_SIZES = [1, 100, 1000] as const;

/** `rounds` runs per size, sizes interleaved so a change in load falls on each. */
export async function benchConversations(
  log: (line: string) => void,
  { quick = false, build = true }: { quick?: boolean; build?: boolean } = {},
): Promise<ConversationRow[]> {
  const sizes = quick ? [1, 100] : [...HISTORY_SIZES];
  // Three rounds, not the issue's five: the bench must finish within 20 minutes here.
  const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
  if (build) {
    log('  building bench/render');
    await buildPage();
  }
  return withBrowser(async (browser, url) => {
    const runs = new Map<number, Measured[]>(sizes.map((n) => [n, []]));
    await runOnce(browser, url, 'ours', {
      deltas: '200',
      thinking: '20',
      json: '10',
      history: '10',
    });
    const bareTyping: TypingResult[] = [];
    for (let round = 0; round < rounds; round++) {
      bareTyping.push(await typeIntoBareTextarea(browser));
      for (const turns of sizes) {
        const run = await runOnce(
          browser,
          url,
          'ours',
          {
            deltas: quick ? '1000' : '5000',
            thinking: '300',
            json: '200',
            seed: '1',
            history: String(turns),
          },
          { typing: true, scroll: true },
        );
        runs.get(turns)?.push(run);
        log(
          `  ${turns} turns, round ${round + 1}/${rounds}: interactive ${formatMs(run.interactiveMs)}, ` +
            `final DOM after ${formatMs(run.stats.totalMs)}, longest task ${formatMs(run.longestTaskMs)}`,
        );
      }
    }
    return sizes.map((turns) => ({ turns, runs: runs.get(turns) ?? [], bareTyping }));
  });
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

function figures(row: ConversationRow) {
  const of = (pick: (m: Measured) => number) => median(row.runs.map(pick));
  return {
    interactiveMs: of((m) => m.interactiveMs),
    totalMs: of((m) => m.stats.totalMs),
    frameMedianMs: of((m) => quantile(m.frameTasksMs, 0.5)),
    frameP95Ms: of((m) => quantile(m.frameTasksMs, 0.95)),
    layoutPaintMs: of((m) => m.layoutPaintMs),
    scriptingMs: of((m) => m.scriptingMs),
    longestTaskMs: of((m) => m.longestTaskMs),
    longestTaskCpuMs: of((m) => m.longestTaskCpuMs),
    framesOver16: of((m) => m.frameTasksMs.filter((t) => t > 16.7).length),
    slowKeys: Math.max(...row.runs.map((m) => m.typing?.slow ?? 0)),
    keys: row.runs[0]?.typing?.keys ?? 0,
    maxKeyMs: Math.max(...row.runs.map((m) => m.typing?.maxMs ?? 0)),
    droppedScrolling: of((m) => m.scroll?.dropped ?? 0),
    scrollFrames: of((m) => m.scroll?.frames ?? 0),
  };
}

/** The bare textarea's worst round. */
function bareTypingOf(row: ConversationRow | undefined): TypingResult {
  const runs = row?.bareTyping ?? [];
  return {
    keys: runs[0]?.keys ?? 0,
    slow: Math.max(0, ...runs.map((r) => r.slow)),
    maxMs: Math.max(0, ...runs.map((r) => r.maxMs)),
  };
}

const keysCell = (slow: number, keys: number, maxMs: number) =>
  `${slow} of ${keys}${maxMs > 0 ? ` (${formatMs(maxMs)})` : ''}`;

const x = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');

export function conversationsTable(rows: readonly ConversationRow[]): string {
  const f = rows.map((row) => ({ turns: row.turns, f: figures(row) }));
  const first = f[0]?.f;
  const bare = bareTypingOf(rows[0]);
  const last = f.at(-1);
  const head = `| | ${f.map((c) => `N = ${c.turns.toLocaleString('en-US')}`).join(' | ')} | N = ${last?.turns.toLocaleString('en-US')} ÷ N = ${f[0]?.turns} |`;
  const row = (
    name: string,
    cell: (v: ReturnType<typeof figures>) => string,
    pick?: (v: ReturnType<typeof figures>) => number,
  ) =>
    `| ${name} | ${f.map((c) => cell(c.f)).join(' | ')} | ${
      pick && first && last ? x(pick(last.f), pick(first)) : ''
    } |`;
  return [
    head,
    `| --- |${f.map(() => ' --- |').join('')} --- |`,
    row(
      'navigation → composer interactive',
      (v) => formatMs(v.interactiveMs),
      (v) => v.interactiveMs,
    ),
    row(
      'send → final DOM',
      (v) => formatMs(v.totalMs),
      (v) => v.totalMs,
    ),
    row(
      'frame task, median / p95',
      (v) => `${formatMs(v.frameMedianMs)} / ${formatMs(v.frameP95Ms)}`,
      (v) => v.frameMedianMs,
    ),
    row(
      'layout + style + pre-paint + paint, whole stream',
      (v) => formatMs(v.layoutPaintMs),
      (v) => v.layoutPaintMs,
    ),
    row(
      'scripting, whole stream',
      (v) => formatMs(v.scriptingMs),
      (v) => v.scriptingMs,
    ),
    row(
      'longest task (wall / thread time) / frames over 16.7 ms',
      (v) =>
        `${formatMs(v.longestTaskMs)} / ${formatMs(v.longestTaskCpuMs)} / ${Math.round(v.framesOver16)}`,
      (v) => v.longestTaskMs,
    ),
    `| typing: keys whose next paint missed the frame (worst run; slowest) | ${f
      .map(({ f: v }) => keysCell(v.slowKeys, v.keys, v.maxKeyMs))
      .join(' | ')} | a bare \`<textarea>\`: ${keysCell(bare.slow, bare.keys, bare.maxMs)} |`,
    row(
      'scrolling the whole log, 1,000 px per frame: dropped frames / frames',
      (v) => `${Math.round(v.droppedScrolling)} / ${Math.round(v.scrollFrames)}`,
    ),
    '',
    `Each N: ${rows[0]?.runs.length ?? 0} rounds (medians), the sizes interleaved, a fresh page each. ` +
      'The page opens `<ChatStream/>` on a store created with `initialMessages` of N earlier ' +
      'question-and-answer turns (each answer about 900 characters of the same mixed markdown as ' +
      'the rendering bench: headings, code fences, tables, lists, quotes), then sends; the answer ' +
      'is the rendering bench\'s 5,000-delta stream at full speed. "Composer interactive": the ' +
      'mounted page has painted twice (ms since navigation, less the time the page spends making ' +
      "the bench's own data: the answer's bytes and the saved thread as JSON, which the store gets " +
      'through JSON.parse, as an app restoring a saved thread would). Frame task: a main-thread task that ' +
      'ran a pre-paint or paint. After the answer, the composer is typed into (Playwright, 40 ms ' +
      "between keys) and Event Timing reports each key's input-to-next-paint (in 8 ms steps): over " +
      '16 ms, the next frame was missed. The same typing into a bare `<textarea>` on a blank page, ' +
      'once a round, is the floor of this measure here. Then the log is scrolled from top to ' +
      'bottom. The log is windowed ' +
      '(packages/react/src/chat/turn-group.tsx): groups of 8 turns more than two screens from ' +
      "the viewport are their turns' text, not mounted, so scrolling the whole log mounts and " +
      'unmounts every group on the way.',
  ].join('\n');
}

export function conversationTargets(rows: readonly ConversationRow[]): Target[] {
  const small = rows.find((r) => r.turns === 1);
  const large = rows.find((r) => r.turns === 1000);
  const hundred = rows.find((r) => r.turns === 100);
  if (!small || !large || !hundred) return [];
  const s = figures(small);
  const l = figures(large);
  const h = figures(hundred);
  const sendRatio = l.totalMs / s.totalMs;
  return [
    {
      name: 'Long conversation: send → final DOM at N = 1,000 within 1.3× N = 1',
      figure: `${sendRatio.toFixed(2)}× (${formatMs(l.totalMs)} vs ${formatMs(s.totalMs)})`,
      pass: sendRatio <= 1.3,
    },
    {
      name: 'Long conversation: frame task median at N = 1,000 ≤ 10 ms',
      figure: formatMs(l.frameMedianMs),
      pass: l.frameMedianMs <= 10,
    },
    {
      name: 'Long conversation: no task over 16 ms while streaming at N = 1,000',
      figure: `longest ${formatMs(l.longestTaskMs)} wall, ${formatMs(l.longestTaskCpuMs)} thread time`,
      pass: l.longestTaskMs <= 16,
    },
    {
      name: 'Long conversation: composer interactive within 600 ms of navigation at N = 1,000',
      figure: formatMs(l.interactiveMs),
      pass: l.interactiveMs <= 600,
    },
    {
      name: 'Long conversation: typing paints the next frame within 16 ms at N = 1,000',
      figure: `${l.slowKeys} of ${l.keys} keys missed the next frame${l.maxKeyMs > 0 ? ` (slowest ${formatMs(l.maxKeyMs)})` : ''}; a bare \`<textarea>\`: ${bareTypingOf(large).slow}`,
      pass: l.slowKeys === 0,
    },
    {
      name: 'Long conversation: scrolling the whole log at N = 1,000 drops no more frames than at N = 100',
      figure: `${Math.round(l.droppedScrolling)} vs ${Math.round(h.droppedScrolling)} dropped`,
      pass: l.droppedScrolling <= h.droppedScrolling,
    },
  ];
}
