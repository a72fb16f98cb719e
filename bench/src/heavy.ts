/**
 * Heavy content while streaming, into `<ChatStream/>` in headless Chromium (the rendering
 * bench's page): a 2,000-line code answer, and a 1 MB tool input streaming into the tool card.
 */
import { formatMs } from './measure.js';
import { type Measured, median, runOnce, withBrowser } from './render.js';
import type { Target } from './target.js';

export interface HeavyRow {
  readonly name: string;
  readonly runs: readonly Measured[];
}

const CASES = (quick: boolean): { name: string; query: Record<string, string> }[] => [
  {
    name: quick ? '200-line code answer' : '2,000-line code answer (10,000 text deltas)',
    query: {
      code: quick ? '200' : '2000',
      deltas: quick ? '1000' : '10000',
      thinking: '20',
      json: '10',
    },
  },
  {
    name: quick ? '100 KB tool input' : '1 MB tool input (65,536 input_json_delta fragments)',
    query: { deltas: '200', thinking: '20', json: quick ? '6400' : '65536' },
  },
];

export async function benchHeavy(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<HeavyRow[]> {
  return withBrowser(async (browser, url) => {
    const rows: HeavyRow[] = [];
    for (const { name, query } of CASES(quick)) {
      const runs: Measured[] = [];
      for (let i = 0; i < 1; i++) {
        const run = await runOnce(browser, url, 'ours', { ...query, seed: '3' });
        runs.push(run);
        log(
          `  ${name}, run ${i + 1}: longest task ${formatMs(run.longestTaskMs)}, final DOM after ${formatMs(run.stats.totalMs)}`,
        );
      }
      rows.push({ name, runs });
    }
    return rows;
  });
}

const of = (row: HeavyRow, pick: (m: Measured) => number) => median(row.runs.map(pick));

export function heavyTable(rows: readonly HeavyRow[]): string {
  return [
    '| stream into `<ChatStream/>` | longest task (wall / thread time) | tasks over 16 ms (wall / thread time) | main-thread task time | send → final DOM | last byte → final DOM |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${formatMs(of(row, (m) => m.longestTaskMs))} / ${formatMs(of(row, (m) => m.longestTaskCpuMs))} | ${Math.round(of(row, (m) => m.tasksOver16))} / ${Math.round(of(row, (m) => m.tasksOver16Cpu))} | ${formatMs(of(row, (m) => m.taskMs))} | ${formatMs(of(row, (m) => m.stats.totalMs))} | ${formatMs(of(row, (m) => m.stats.lastByteToDomMs))} |`,
    ),
    '',
    `${rows[0]?.runs.length ?? 0} run each (a run is tens of seconds here), the rendering bench's page and measuring. ` +
      'The code answer is one TypeScript fence streamed at full speed, highlighted as ' +
      '`<ChatStream/>` does by default (Shiki in a module Worker, lines in contained groups of 64). The ' +
      'tool input is a JSON object of about 1 MB, after a short answer; the card stays collapsed ' +
      '(its row and one-line summary render while it streams).',
  ].join('\n');
}

export function heavyTargets(rows: readonly HeavyRow[]): Target[] {
  return rows.map((row) => {
    const longest = of(row, (m) => m.longestTaskMs);
    return {
      name: `Heavy content, ${row.name}: no task over 16 ms while streaming`,
      figure: `longest ${formatMs(longest)} wall, ${formatMs(of(row, (m) => m.longestTaskCpuMs))} thread time`,
      pass: longest <= 16,
    };
  });
}
