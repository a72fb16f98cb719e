/**
 * Rendering, in headless Chromium: a long markdown answer with thinking and a tool call,
 * streamed through the mock at full speed into <ChatStream/> and into a naive baseline
 * (bench/render/src/naive.tsx: the whole message re-rendered with react-markdown on every
 * delta). The page is bench/render, built with Vite into bench/render/dist (ignored by git),
 * served by a throwaway static server; every run is a fresh browser context.
 */
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Browser, chromium, type Page } from 'playwright';
import { build } from 'vite';
import { chromiumArgs, chromiumExecutablePath } from '../../scripts/chromium.js';
import { answerOptions, answerStream, sseEvents } from '../render/src/sse.js';
import {
  type BlockRenders,
  CONTENDERS,
  type Contender,
  PACING,
  type RunStats,
} from '../render/src/stats.js';
import { formatMs } from './measure.js';
import type { Target } from './target.js';

const PAGE_ROOT = fileURLToPath(new URL('../render/', import.meta.url));
const OUT_DIR = join(PAGE_ROOT, 'dist');

export type { Contender, RenderReport, RunStats } from '../render/src/stats.js';

/** One run: the page's figures and the browser's (trace, CDP metrics), send to settled. */
export interface Measured extends TraceFigures {
  readonly stats: RunStats;
  /** CDP Performance.getMetrics ScriptDuration (it leaves most promise jobs out). */
  readonly cdpScriptMs: number;
  /** CDP TaskDuration. */
  readonly cdpTaskMs: number;
  /** JS heap in use after the run and a full GC (CDP Runtime.getHeapUsage), bytes. */
  readonly heapAfter: number;
  /** Navigation to the mounted page painted (the composer takes input), ms. */
  readonly interactiveMs: number;
  /** With `typing`: keys typed into the composer after the answer, and those whose event
   * (input delay + handlers + the next paint, Event Timing) took 16 ms or more. */
  readonly typing?: TypingResult;
  /** With `scroll`: the log scrolled top to bottom after the answer. */
  readonly scroll?: { readonly frames: number; readonly dropped: number };
}

export interface ContenderResult {
  readonly contender: Contender;
  readonly runs: readonly Measured[];
}

export interface RenderResult {
  readonly textDeltas: number;
  readonly thinkingDeltas: number;
  readonly jsonDeltas: number;
  readonly events: number;
  readonly bytes: number;
  readonly markdownChars: number;
  /**
   * Every contender measured; `network` is the same response read to its end with no
   * rendering: the mock's own share of the figures.
   */
  readonly results: Readonly<Record<Contender, ContenderResult>>;
  /** A run of ChatStream on react-dom's profiling build: `<Profiler onRender>` calls vs commits. */
  readonly profilerCheck: { readonly commits: number; readonly profilerCommits: number };
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** `minify: false` keeps function names, for reading a profile of the page. */
export async function buildPage({ minify = true }: { minify?: boolean } = {}): Promise<void> {
  await build({
    configFile: false,
    root: PAGE_ROOT,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    resolve: { dedupe: ['react', 'react-dom'] },
    build: {
      outDir: OUT_DIR,
      emptyOutDir: true,
      target: 'es2022',
      minify,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 100_000,
    },
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/**
 * Writes the answer a query asks for to a real connection, one write per event, yielding to
 * the event loop between writes so that each leaves as its own packet at full speed. The
 * request body (the conversation) is read first, as a server would.
 */
function writeAnswer(request: IncomingMessage, response: ServerResponse, query: URLSearchParams) {
  request.resume();
  request.on('end', () => {
    const events = sseEvents(answerStream(answerOptions(query)).sse);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let next = 0;
    // `pace`: events a second, written as they fall due (a few to a write, as a model's
    // tokens come); without it, as fast as the socket takes them.
    const pace = Number(query.get('pace') ?? 0);
    if (pace > 0) {
      const began = performance.now();
      const tick = () => {
        if (response.destroyed) return;
        const due = Math.min(
          events.length,
          Math.floor(((performance.now() - began) * pace) / 1000) + 1,
        );
        while (next < due) response.write(events[next++]);
        if (next === events.length) response.end();
        else setTimeout(tick, 10);
      };
      tick();
      return;
    }
    const write = () => {
      if (response.destroyed) return;
      if (next === events.length) {
        response.end();
        return;
      }
      response.write(events[next++]);
      setImmediate(write);
    };
    write();
  });
}

/** Serves the built page, and the answer over HTTP for pages with `net=http`. */
export async function serve(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const address = new URL(request.url ?? '/', 'http://localhost');
    if (address.pathname === '/bench-answer' && request.method === 'POST') {
      writeAnswer(request, response, address.searchParams);
      return;
    }
    const path = address.pathname;
    const file = normalize(join(OUT_DIR, path === '/' ? 'index.html' : path));
    if (!file.startsWith(OUT_DIR + sep)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  /** Thread (CPU) time of the event: what the task cost without the time it was preempted. */
  readonly tdur?: number;
  readonly args?: { readonly name?: string };
}

/** Trace categories: tasks (toplevel), JS and rendering (devtools.timeline), promise jobs (v8.execute). */
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute'];
/** JavaScript on the main thread: callbacks, promise jobs (microtasks), scripts, and GC. */
const SCRIPT_EVENTS: ReadonlySet<string> = new Set([
  'FunctionCall',
  'RunMicrotasks',
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.compile',
  'v8.compileModule',
  'MinorGC',
  'MajorGC',
]);
/** Rendering work, taken out of the script time when script forces it (reading layout). */
const RENDER_EVENTS: ReadonlySet<string> = new Set([
  'Layout',
  'UpdateLayoutTree',
  'RecalculateStyles',
  'Paint',
  'PrePaint',
  'Layerize',
  'HitTest',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'UpdateLayer',
  'UpdateLayerTree',
  'CompositeLayers',
]);
const TASK_EVENT = 'ThreadControllerImpl::RunTask';
let keptTraces = 0;
/** What the long-conversation rows call "layout + pre-paint + paint" (style recalculation too). */
const LAYOUT_PAINT_EVENTS: ReadonlySet<string> = new Set([
  'Layout',
  'UpdateLayoutTree',
  'PrePaint',
  'Paint',
]);

type Interval = [number, number];

function merge(intervals: Interval[]): Interval[] {
  intervals.sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [from, to] of intervals) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** Total length of `a` not covered by `b` (both merged). */
function minus(a: readonly Interval[], b: readonly Interval[]): number {
  let total = 0;
  let j = 0;
  for (const [from, to] of a) {
    let covered = 0;
    while (j < b.length && (b[j] as Interval)[1] <= from) j++;
    for (let k = j; k < b.length && (b[k] as Interval)[0] < to; k++) {
      const [bFrom, bTo] = b[k] as Interval;
      covered += Math.max(0, Math.min(to, bTo) - Math.max(from, bFrom));
    }
    total += to - from - covered;
  }
  return total;
}

export interface TraceFigures {
  /** JS on the renderer main thread (promise jobs and GC included, forced layout excluded), ms. */
  readonly scriptingMs: number;
  /** All main-thread tasks, ms. */
  readonly taskMs: number;
  /** How many main-thread tasks the trace holds. */
  readonly taskCount: number;
  readonly longestTaskMs: number;
  /** The longest task by thread time (CPU): on a loaded machine, wall time includes preemption. */
  readonly longestTaskCpuMs: number;
  /** Tasks longer than 16 ms (wall), and by thread time. */
  readonly tasksOver16: number;
  readonly tasksOver16Cpu: number;
  /** Tasks that painted a frame (they hold a PrePaint or Paint): their wall durations, ms. */
  readonly frameTasksMs: readonly number[];
  /** Style, layout, pre-paint and paint on the main thread, ms. */
  readonly layoutPaintMs: number;
  /**
   * Main-thread task time in each quarter of the run (from its first task's start to its
   * last's), a task counted in the quarter it starts in, ms: a paced stream that costs the
   * same per update late as early takes about the same time in each.
   */
  readonly taskMsByQuarter: readonly [number, number, number, number];
}

/**
 * Scripting time and the longest task from a Chromium trace: the renderer main thread with
 * the most tasks, JS events unioned, the rendering nested in them taken out. The trace has
 * one event per line, so only lines naming an event of interest are parsed.
 */
export function analyzeTrace(trace: Buffer): TraceFigures {
  const threads: TraceEvent[] = [];
  const events: TraceEvent[] = [];
  for (const line of trace.toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const isThread = line.includes('"thread_name"');
    if (!isThread && !line.includes('"ph":"X"')) continue;
    const name = /"name":"([^"]*)"/.exec(line.slice(line.indexOf('"name":')))?.[1] ?? '';
    if (!isThread && name !== TASK_EVENT && !SCRIPT_EVENTS.has(name) && !RENDER_EVENTS.has(name)) {
      continue;
    }
    const event = JSON.parse(line.replace(/,\s*$/, '')) as TraceEvent;
    if (isThread && event.ph === 'M' && event.name === 'thread_name') threads.push(event);
    else if (event.ph === 'X') events.push(event);
  }
  const mains = new Set(
    threads.filter((t) => t.args?.name === 'CrRendererMain').map((t) => `${t.pid}:${t.tid}`),
  );
  const tasksBy = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.name === TASK_EVENT && mains.has(thread))
      tasksBy.set(thread, (tasksBy.get(thread) ?? 0) + 1);
  }
  const main = [...tasksBy].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (main === undefined) throw new Error('The trace has no renderer main thread');
  const script: Interval[] = [];
  const render: Interval[] = [];
  const tasks: TraceEvent[] = [];
  const paints: number[] = [];
  let layoutPaintUs = 0;
  let taskUs = 0;
  let longestUs = 0;
  let longestCpuUs = 0;
  let over16 = 0;
  let over16Cpu = 0;
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main) continue;
    const dur = e.dur ?? 0;
    if (e.name === TASK_EVENT) {
      tasks.push(e);
      taskUs += dur;
      longestUs = Math.max(longestUs, dur);
      const cpu = Math.min(e.tdur ?? dur, dur);
      longestCpuUs = Math.max(longestCpuUs, cpu);
      if (dur > 16_000) over16++;
      if (cpu > 16_000) over16Cpu++;
    } else if (SCRIPT_EVENTS.has(e.name)) script.push([e.ts, e.ts + dur]);
    else {
      render.push([e.ts, e.ts + dur]);
      if (LAYOUT_PAINT_EVENTS.has(e.name)) layoutPaintUs += dur;
      if (e.name === 'Paint' || e.name === 'PrePaint') paints.push(e.ts);
    }
  }
  tasks.sort((a, b) => a.ts - b.ts);
  paints.sort((a, b) => a - b);
  const taskMsByQuarter: [number, number, number, number] = [0, 0, 0, 0];
  const start = tasks[0]?.ts ?? 0;
  const end = tasks.reduce((last, task) => Math.max(last, task.ts + (task.dur ?? 0)), start);
  for (const task of tasks) {
    const quarter = Math.min(3, Math.floor(((task.ts - start) * 4) / Math.max(1, end - start)));
    taskMsByQuarter[quarter] = (taskMsByQuarter[quarter] as number) + (task.dur ?? 0) / 1000;
  }
  const frameTasksMs: number[] = [];
  let p = 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    while (p < paints.length && (paints[p] as number) < task.ts) p++;
    if (p < paints.length && (paints[p] as number) <= end)
      frameTasksMs.push((task.dur ?? 0) / 1000);
  }
  return {
    scriptingMs: minus(merge(script), merge(render)) / 1000,
    taskMs: taskUs / 1000,
    taskCount: tasks.length,
    longestTaskMs: longestUs / 1000,
    longestTaskCpuMs: longestCpuUs / 1000,
    tasksOver16: over16,
    tasksOver16Cpu: over16Cpu,
    frameTasksMs,
    layoutPaintMs: layoutPaintUs / 1000,
    taskMsByQuarter,
  };
}

const TYPED = 'the quick brown fox jumps over the lazy dog';

export interface TypingResult {
  readonly keys: number;
  /** Keys whose next paint missed the next frame: Event Timing's duration (8 ms steps) over 16 ms. */
  readonly slow: number;
  readonly maxMs: number;
}

/** The same typing into a bare `<textarea>` on a blank page: the floor of the measure here. */
export async function typeIntoBareTextarea(browser: Browser): Promise<TypingResult> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  try {
    const page = await context.newPage();
    await page.setContent('<textarea aria-label="Message"></textarea>');
    return await typeIntoComposer(page);
  } finally {
    await context.close();
  }
}

/** Types into the composer as a user would, and reads how long each key took to paint. */
async function typeIntoComposer(page: Page): Promise<TypingResult> {
  await page.evaluate(() => {
    // By key press (Event Timing's interaction: its keydown, input and keyup), its slowest
    // event: a key is one interaction however many events it fires.
    const slow = new Map<number, number>();
    (window as unknown as { __slowKeys: Map<number, number> }).__slowKeys = slow;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number })[]) {
        const id = entry.interactionId ?? 0;
        if (id === 0) continue;
        slow.set(id, Math.max(slow.get(id) ?? 0, entry.duration));
      }
      // 16 is the lowest threshold Event Timing allows: only slower events are reported.
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  });
  await page.locator('textarea').first().focus();
  await page.keyboard.type(TYPED, { delay: 40 });
  await page.waitForTimeout(300);
  const slow = await page.evaluate(() => [
    ...(window as unknown as { __slowKeys: Map<number, number> }).__slowKeys.values(),
  ]);
  return {
    keys: TYPED.length,
    slow: slow.filter((ms) => ms > 16).length,
    maxMs: Math.max(0, ...slow),
  };
}

/** Serves the built page and opens Chromium for `use`; closes both after. */
export async function withBrowser<T>(
  use: (browser: Browser, url: string) => Promise<T>,
): Promise<T> {
  const { url, server } = await serve();
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath,
    headless: true,
    args: [...chromiumArgs],
  });
  try {
    return await use(browser, url);
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** One run in a fresh context: load, send, wait for the final DOM, read the figures. */
export async function runOnce(
  browser: Browser,
  url: string,
  contender: Contender,
  query: Record<string, string>,
  { typing = false, scroll = false }: { typing?: boolean; scroll?: boolean } = {},
): Promise<Measured> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const search = new URLSearchParams({ contender, ...query });
    await page.goto(`${url}?${search}`);
    await page.waitForFunction(
      () => {
        const w = window as unknown as { __bench?: unknown; __benchError?: string };
        return w.__bench !== undefined || w.__benchError !== undefined;
      },
      undefined,
      { timeout: 30_000 },
    );
    const failed = await page.evaluate(
      () => (window as unknown as { __benchError?: string }).__benchError,
    );
    if (failed) throw new Error(`The page failed to load: ${failed}`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => {
      const { metrics: list } = await cdp.send('Performance.getMetrics');
      const get = (name: string) => list.find((m) => m.name === name)?.value ?? 0;
      return { script: get('ScriptDuration'), task: get('TaskDuration') };
    };
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const before = await metrics();
    const stats = (await page.evaluate(() =>
      (window as unknown as { __bench: { run(): Promise<unknown> } }).__bench.run(),
    )) as RunStats;
    const after = await metrics();
    const trace = await browser.stopTracing();
    // For tracing a miss: `BENCH_KEEP_TRACE=/tmp/trace` keeps each run's trace as
    // /tmp/trace-1.json, -2, … (load one in DevTools' Performance panel).
    if (process.env.BENCH_KEEP_TRACE) {
      keptTraces++;
      writeFileSync(`${process.env.BENCH_KEEP_TRACE}-${keptTraces}.json`, trace);
    }
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize: heapAfter } = await cdp.send('Runtime.getHeapUsage');
    const interactiveMs = await page.evaluate(
      () => (window as unknown as { __bench: { interactiveMs: number } }).__bench.interactiveMs,
    );
    const typed = typing ? await typeIntoComposer(page) : undefined;
    const scrolled = scroll
      ? await page.evaluate(() =>
          (
            window as unknown as {
              __bench: { scrollThrough(): Promise<{ frames: number; dropped: number }> };
            }
          ).__bench.scrollThrough(),
        )
      : undefined;
    if (errors.length > 0) throw new Error(`Page errors: ${errors.join('; ')}`);
    const verified = await page.evaluate(() =>
      (window as unknown as { __bench: { verify(): boolean } }).__bench.verify(),
    );
    if (!verified) throw new Error(`${contender}: the final DOM lacks the end of the answer`);
    const figures = analyzeTrace(trace);
    const cdpTaskMs = (after.task - before.task) * 1000;
    // A trace buffer that filled up would drop events and flatter the longer run. CDP also
    // counts the scheduler's own time around each task (some 16 µs), which a paced read of
    // tens of thousands of small tasks adds up to a share of its whole.
    const allowed = 0.2 * cdpTaskMs + 20 + 0.02 * figures.taskCount;
    if (Math.abs(figures.taskMs - cdpTaskMs) > allowed) {
      throw new Error(
        `${contender}: the trace holds ${formatMs(figures.taskMs)} of tasks, CDP counts ${formatMs(cdpTaskMs)}`,
      );
    }
    return {
      ...figures,
      stats,
      cdpScriptMs: (after.script - before.script) * 1000,
      cdpTaskMs,
      heapAfter,
      interactiveMs,
      ...(typed ? { typing: typed } : {}),
      ...(scrolled ? { scroll: scrolled } : {}),
    };
  } finally {
    await context.close();
  }
}

/** Runs per contender: the slow ones take a minute or more each, and report totals. */
const RUNS: Readonly<Record<Contender, number>> = {
  ours: 5,
  'ai-sdk': 2,
  'assistant-ui': 1,
  naive: 1,
  network: 3,
};

/**
 * Runs the contenders on the same answer, each run in a fresh page, after one warm-up each on
 * a short answer, interleaved so a change in the machine's load falls on every contender.
 * `network` (the response read with no rendering) tells the mock's own share; a last
 * ChatStream run on react-dom's profiling build checks `<Profiler onRender>` against the commit
 * count. `BENCH_RENDER=ours,ai-sdk` measures only those (for a look while working).
 */
export async function benchRender(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<RenderResult> {
  const only = process.env.BENCH_RENDER?.split(',');
  const contenders = CONTENDERS.filter((c) => only === undefined || only.includes(c));
  const runs = (c: Contender) => (quick ? 1 : RUNS[c]);
  const query = {
    // 2,000 text deltas, not 5,000: the contenders that re-render the whole answer per delta
    // grow with its square, and assistant-ui's one run at 5,000 took over ten minutes here.
    deltas: String(quick ? 1000 : 2000),
    thinking: String(quick ? 100 : 300),
    json: String(quick ? 50 : 200),
    seed: '1',
  };
  log('  building bench/render');
  await buildPage();
  return withBrowser(async (browser, url) => {
    const measured = Object.fromEntries(CONTENDERS.map((c) => [c, [] as Measured[]])) as Record<
      Contender,
      Measured[]
    >;
    // Warm-up on a short answer (browser, server, disk cache); its figures are not kept.
    for (const contender of contenders) {
      await runOnce(browser, url, contender, { deltas: '200', thinking: '20', json: '10' });
    }
    for (let i = 0; i < Math.max(...contenders.map(runs)); i++) {
      for (const contender of contenders) {
        if (i >= runs(contender)) continue;
        const run = await runOnce(browser, url, contender, query);
        measured[contender].push(run);
        log(
          `  ${contender} run ${i + 1}/${runs(contender)}: scripting ${formatMs(run.scriptingMs)}, ` +
            `${run.stats.commits} commits, longest task ${formatMs(run.longestTaskMs)}, ` +
            `final DOM after ${formatMs(run.stats.totalMs)}`,
        );
      }
    }
    const profiled = await runOnce(browser, url, 'ours', { ...query, profiling: '1' });
    // The commit counts behind the per-frame target come from the DevTools hook; React's
    // own Profiler must agree, or those counts cannot be trusted.
    if (profiled.stats.profilerCommits !== profiled.stats.commits) {
      throw new Error(
        `The DevTools hook counted ${profiled.stats.commits} commits, React's Profiler ${profiled.stats.profilerCommits}`,
      );
    }
    const first = measured.ours[0]?.stats;
    if (!first) throw new Error('No runs');
    return {
      textDeltas: Number(query.deltas),
      thinkingDeltas: Number(query.thinking),
      jsonDeltas: Number(query.json),
      events: first.events,
      bytes: first.bytes,
      markdownChars: first.markdownChars,
      results: Object.fromEntries(
        CONTENDERS.map((c): [Contender, ContenderResult] => [
          c,
          { contender: c, runs: measured[c] },
        ]),
      ) as Record<Contender, ContenderResult>,
      profilerCheck: {
        commits: profiled.stats.commits,
        profilerCommits: profiled.stats.profilerCommits,
      },
    };
  });
}

/** The one prop change that re-renders a finished block by design: the answer started. */
const COLLAPSE = 'answerStarted';
/** Unchanged-data renders by design: a thinking block collapsing, markdown catching up. */
const byDesign = (reason: string) => reason === COLLAPSE || reason === PACING;

const unchanged = (m: Measured, keep: (reason: string) => boolean): number =>
  m.stats.renders.blocks.reduce(
    (sum, b) =>
      sum +
      Object.entries(b.unchangedBecause)
        .filter(([reason]) => keep(reason))
        .reduce((n, [, count]) => n + count, 0),
    0,
  );

/** The figures of one contender: medians over its runs; worst run for the frame and re-render counts. */
function figures(result: ContenderResult) {
  const runs = result.runs;
  const of = (pick: (m: Measured) => number) => median(runs.map(pick));
  const worst = (pick: (m: Measured) => number) => Math.max(...runs.map(pick));
  const block = (type: string, pick: (b: BlockRenders) => number) =>
    of((m) => {
      const found = m.stats.renders.blocks.filter((b) => b.type === type);
      return found.reduce((sum, b) => sum + pick(b), 0);
    });
  return {
    runs: runs.length,
    scriptingMs: of((m) => m.scriptingMs),
    taskMs: of((m) => m.taskMs),
    cdpScriptMs: of((m) => m.cdpScriptMs),
    commits: of((m) => m.stats.commits),
    maxCommitsPerFrame: worst((m) => m.stats.maxCommitsPerFrame),
    framesOverOneCommit: of((m) => m.stats.framesOverOneCommit),
    frames: of((m) => m.stats.frames),
    crowdedFrames: runs.flatMap((m) =>
      m.stats.crowdedFrames.map((frame) => ({ frame, commits: m.stats.commits })),
    ),
    longestTaskMs: of((m) => m.longestTaskMs),
    longestTaskCpuMs: of((m) => m.longestTaskCpuMs),
    tasksOver16: of((m) => m.tasksOver16),
    tasksOver16Cpu: of((m) => m.tasksOver16Cpu),
    heapAfter: of((m) => m.heapAfter),
    longTasks: of((m) => m.stats.longTasks),
    longestFrameGapMs: of((m) => m.stats.longestFrameGapMs),
    totalMs: of((m) => m.stats.totalMs),
    lastByteToDomMs: of((m) => m.stats.lastByteToDomMs),
    blockRenders: (type: string) => block(type, (b) => b.renders),
    rendersAfterComplete: worst((m) =>
      m.stats.renders.blocks.reduce((sum, b) => sum + b.rendersAfterComplete, 0),
    ),
    unchangedRenders: worst((m) => unchanged(m, () => true)),
    /** Unchanged-data renders other than a thinking block collapsing as the answer starts. */
    unexplainedRenders: worst((m) => unchanged(m, (reason) => !byDesign(reason))),
    collapseRenders: worst((m) => unchanged(m, (reason) => reason === COLLAPSE)),
    pacingRenders: worst((m) => unchanged(m, (reason) => reason === PACING)),
    markdownBlocks: of((m) => m.stats.renders.markdown.blocks),
    meanMarkdownRenders: of((m) => m.stats.renders.markdown.meanRenders),
    maxMarkdownRenders: worst((m) => m.stats.renders.markdown.maxRenders),
    finishedRerenders: worst((m) => m.stats.renders.markdown.rendersAfterFinish),
    finishedBlocksRerendered: worst((m) => m.stats.renders.markdown.blocksRenderedAfterFinish),
  };
}

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The contenders that render, in table order, with their column names. */
const RENDERED: readonly {
  readonly id: Contender;
  readonly name: string;
  readonly short: string;
}[] = [
  { id: 'ours', name: '`<ChatStream/>`', short: 'ours' },
  { id: 'ai-sdk', name: 'AI SDK `useChat` + streamdown', short: 'AI SDK' },
  { id: 'assistant-ui', name: 'assistant-ui + react-markdown', short: 'assistant-ui' },
  { id: 'naive', name: 'naive baseline', short: 'naive' },
];

const ratio = (a: number, b: number): string => {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return '–';
  if (b === 0) return a === 0 ? '–' : '∞';
  const r = a / b;
  return `${r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}×`;
};

const formatMb = (bytes: number): string =>
  Number.isFinite(bytes) ? `${(bytes / 2 ** 20).toFixed(1)} MB` : '–';

export function renderTable(result: RenderResult): string {
  const all = RENDERED.map((c) => ({ ...c, f: figures(result.results[c.id]) }));
  const ours = all[0]?.f as ReturnType<typeof figures>;
  const naive = figures(result.results.naive);
  const peers = all.slice(1);
  const network = median(result.results.network.runs.map((m) => m.scriptingMs));
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const ms = (n: number) => (Number.isFinite(n) ? formatMs(n) : '–');
  const num = (n: number) => (Number.isFinite(n) ? count(n) : '–');
  /** A row of one figure per contender, then ours as a ratio to each of the others. */
  const row = (name: string, pick: (f: ReturnType<typeof figures>) => number, show = ms) =>
    `| ${name} | ${all.map((c) => show(pick(c.f))).join(' | ')} | ${peers
      .map((c) => ratio(pick(ours), pick(c.f)))
      .join(' | ')} |`;
  const text = (name: string, cell: (f: ReturnType<typeof figures>) => string) =>
    `| ${name} | ${all.map((c) => (c.f.runs > 0 ? cell(c.f) : '–')).join(' | ')} |${peers.map(() => ' |').join('')}`;
  const perBlock = (f: ReturnType<typeof figures>) =>
    ['thinking', 'text', 'tool_use'].map((t) => count(f.blockRenders(t))).join(' / ');
  const lines = [
    `| metric | ${all.map((c) => c.name).join(' | ')} | ${peers.map((c) => `ours ÷ ${c.short}`).join(' | ')} |`,
    `| --- |${all.map(() => ' --- |').join('')}${peers.map(() => ' --- |').join('')}`,
    row('main-thread task time (scripting, style, layout, paint, …)', (f) => f.taskMs),
    row('scripting time', (f) => f.scriptingMs),
    row('CDP ScriptDuration (for reference)', (f) => f.cdpScriptMs),
    row('React commits', (f) => f.commits, num),
    row('most commits painted in one frame (worst run)', (f) => f.maxCommitsPerFrame, num),
    text(
      'frames painting more than one commit / frames',
      (f) => `${count(f.framesOverOneCommit)} / ${count(f.frames)}`,
    ),
    row('longest main-thread task (wall)', (f) => f.longestTaskMs),
    row('longest main-thread task (thread time)', (f) => f.longestTaskCpuMs),
    row('tasks over 16 ms (wall)', (f) => f.tasksOver16, num),
    row('tasks over 16 ms (thread time)', (f) => f.tasksOver16Cpu, num),
    row('long tasks (≥ 50 ms, PerformanceObserver)', (f) => f.longTasks, num),
    row('longest gap between two frames', (f) => f.longestFrameGapMs),
    row('last byte → final DOM', (f) => f.lastByteToDomMs),
    row('send → final DOM', (f) => f.totalMs),
    row('JS heap after the run (full GC)', (f) => f.heapAfter, formatMb),
    text('renders per content block (thinking / text / tool)', perBlock),
    text(
      'top-level markdown blocks: mean renders per block (max)',
      (f) => `${f.meanMarkdownRenders.toFixed(1)} (${count(f.maxMarkdownRenders)})`,
    ),
    text(
      'renders of finished markdown blocks (blocks affected)',
      (f) =>
        `${count(f.finishedRerenders)} (${count(f.finishedBlocksRerendered)} of ${count(f.markdownBlocks)})`,
    ),
    text('renders of content blocks after they completed (worst run)', (f) =>
      count(f.rendersAfterComplete),
    ),
    '',
    `The answer: ${count(result.textDeltas)} text_delta events (${count(result.markdownChars)} characters ` +
      `of GFM: headings, paragraphs with inline code, emphasis and links, lists, code fences, tables, ` +
      `quotes), after a thinking block of ${count(result.thinkingDeltas)} thinking_delta events and a ` +
      `signature_delta, and before a tool_use block of ${count(result.jsonDeltas)} input_json_delta ` +
      `fragments: ${count(result.events)} events, ${(result.bytes / 1024).toFixed(0)} KB of SSE, ` +
      'generated from a fixed seed (bench/render/src/sse.ts); 2,000 deltas rather than the 5,000 of ' +
      'the long-conversation rows, because the contenders that re-render the whole answer on every ' +
      "delta grow with its square (assistant-ui's single run took over ten minutes at 5,000 here). " +
      'Every contender gets these bytes from ' +
      "the mock's `createMockFetch` at full speed (no pacing, one chunk per event), each read " +
      'handed over in a task of its own as a network read would be, and the request read by ' +
      'the mock in a task after the one that sent it, as a server would (bench/render/src/net.ts), ' +
      'half a second after the page became interactive, with its idle periods (a user does ' +
      'not send within a moment of load; ChatStream warms its markdown parser and the fonts ' +
      'an answer uses up there). Each contender is built the way ' +
      'its docs show (bench/render/src/peers): **AI SDK**: `useChat` with a client-side `ChatTransport` whose ' +
      '`sendMessages` runs `streamText` on `@ai-sdk/anthropic` (its `fetch`: the mock) and returns ' +
      '`toUIMessageStream()`; text parts in a memoized `<Streamdown isAnimating>` (what AI ' +
      "Elements' `MessageResponse` is), reasoning and the tool call as plain text. " +
      '**assistant-ui**: `useLocalRuntime` with a `ChatModelAdapter` whose `run` streams through ' +
      "`@anthropic-ai/sdk`'s `MessageStream` (its `fetch`: the mock) and yields the message so far " +
      'after every event; `ThreadPrimitive.Root/Viewport/Messages`, `MessagePrimitive.Parts`, text ' +
      "parts in `@assistant-ui/react-markdown`'s `MarkdownTextPrimitive` with remark-gfm. " +
      'Neither peer gets its (Tailwind) styles, which would only add style and layout work. ' +
      'The naive baseline (bench/render/src/naive.tsx) keeps the message in `useState`, appends ' +
      'every delta, and renders the whole text with `<ReactMarkdown remarkPlugins={[remarkGfm]}>`. ' +
      'Production builds (Vite), headless Chromium, a fresh page per run, contenders interleaved; ' +
      `runs: ${all.map((c) => `${c.name} ${plural(c.f.runs, 'run')}`).join(', ')} ` +
      '(medians; the slow contenders take a minute or more per run and their figures are totals ' +
      'over thousands of renders).',
    '',
    '- **Task time and scripting**: from a Chromium trace of the run (send to 100 ms after the final ' +
      "DOM; categories toplevel, devtools.timeline, v8.execute): on the renderer's main thread, " +
      'all tasks (checked against CDP TaskDuration), and the time covered by JavaScript ' +
      '(FunctionCall, RunMicrotasks, EvaluateScript, compile, GC) less the style, layout and ' +
      'paint it forced. CDP `Performance.getMetrics` ScriptDuration is shown for reference only: ' +
      'it leaves out most promise jobs, where the stream is read and reduced. Every contender ' +
      'includes the in-page mock and the per-read task hop: read to its end with no rendering, ' +
      `the same response costs ${ms(network)} of scripting (median of ` +
      `${plural(result.results.network.runs.length, 'run')}), so the ratios understate the ` +
      'difference in rendering alone.',
    '- **Longest task**: the longest `ThreadControllerImpl::RunTask` on the renderer main ' +
      "thread in the run's trace, by wall time and by thread time (the trace's `tdur`: CPU " +
      'time of the thread, which leaves out the time the thread was preempted: on a shared, ' +
      'loaded machine wall time measures the neighbours too). Long tasks: PerformanceObserver ' +
      "'longtask' entries.",
    '- **Commits**: React DevTools global hook `onCommitFiberRoot`, one call per commit. On ' +
      "react-dom's profiling build, a `<Profiler onRender>` around the app fired " +
      `${count(result.profilerCheck.profilerCommits)} times for ${count(result.profilerCheck.commits)} ` +
      'commits of ChatStream (the timed runs use the production build, where `onRender` never fires). ' +
      'Commits per frame: each commit is given to the frame that paints it: a commit made ' +
      'inside an animation-frame callback (or the microtasks it queues) belongs to that frame, any ' +
      'other to the next one (every `requestAnimationFrame` callback is wrapped to know).',
    '- **Renders per block**: the hook walks every committed fiber tree as React DevTools does ' +
      '(only subtrees React cloned; a component rendered if flagged `PerformedWork`, a host ' +
      'element if it got new props). A content block is a `ContentBlockView` subtree (the ' +
      'others: their thinking / markdown / tool element) and counts one render per commit in which ' +
      'anything in it rendered. A markdown block is a top-level element of the rendered ' +
      'markdown (`.ms-markdown__group > *`, ours in groups of 32; `.naive-markdown > *`; the peers wrap their markdown in ' +
      'their own elements, so they have no figure), by DOM node; it is finished once a later ' +
      'block exists, and any render after that re-rendered a block that did not change. ' +
      `ChatStream re-rendered finished markdown blocks ${count(ours.finishedRerenders)} times and ` +
      `content blocks whose data had not changed ${count(ours.unchangedRenders)} times (of which ` +
      `${count(ours.collapseRenders)} the thinking block collapsing as the answer began and ` +
      `${count(ours.pacingRenders)} putting more of a block's markdown on the page after a burst, ` +
      'by design: a render with the same data that mounted a new markdown block); ' +
      `the naive baseline ${count(naive.finishedRerenders)} and ${count(naive.unchangedRenders)}.`,
    '- **Last byte → final DOM**: from the moment the last chunk is handed to the reader to the ' +
      "MutationObserver callback seeing the answer's `data-status` become `complete` (the final " +
      'state committed; the page then checks the end of the thinking, the text and the tool ' +
      'input are in the DOM). Heap: CDP `Runtime.getHeapUsage` after `HeapProfiler.collectGarbage`, ' +
      'the whole page (framework, libraries and the answer).',
  ];
  return lines.join('\n');
}

export function renderTargets(result: RenderResult): Target[] {
  const ours = figures(result.results.ours);
  const naive = figures(result.results.naive);
  const aiSdk = figures(result.results['ai-sdk']);
  const assistantUi = figures(result.results['assistant-ui']);
  const crowded = ours.crowdedFrames
    .slice(0, 4)
    .map(({ frame, commits }) => `${frame.join('+')} of ${commits}`)
    .join(', ');
  const speedup = naive.scriptingMs / ours.scriptingMs;
  const better = aiSdk.taskMs <= assistantUi.taskMs ? aiSdk : assistantUi;
  const betterName = better === aiSdk ? 'AI SDK + streamdown' : 'assistant-ui';
  const overPeer = better.taskMs / ours.taskMs;
  return [
    {
      name: 'Rendering: at least 3× less main-thread task time than the better of AI SDK + streamdown and assistant-ui',
      figure: `${overPeer.toFixed(1)}× (${formatMs(ours.taskMs)} vs ${formatMs(better.taskMs)}, ${betterName})`,
      pass: overPeer >= 3,
    },
    {
      name: 'Rendering: no main-thread task over 16 ms while streaming (ChatStream)',
      figure:
        `longest ${formatMs(ours.longestTaskMs)} wall, ${formatMs(ours.longestTaskCpuMs)} thread time; ` +
        `${count(ours.tasksOver16)} tasks over 16 ms wall, ${count(ours.tasksOver16Cpu)} by thread time`,
      pass: ours.longestTaskMs <= 16,
    },
    {
      name: 'Rendering: at most one React commit per animation frame (ChatStream)',
      figure:
        ours.maxCommitsPerFrame <= 1
          ? `${count(ours.maxCommitsPerFrame)} at most (${count(ours.commits)} commits)`
          : `${count(ours.maxCommitsPerFrame)} in a frame; frames with more than one: ${crowded}`,
      pass: ours.maxCommitsPerFrame <= 1,
    },
    {
      name: 'Rendering: unchanged blocks never re-render (ChatStream)',
      figure:
        (ours.blockRenders('text') > 0 ? '' : 'the probe saw no text block render; ') +
        `${count(ours.finishedRerenders)} renders of finished markdown blocks, ` +
        `${count(ours.unexplainedRenders)} of content blocks whose data had not changed` +
        (ours.collapseRenders + ours.pacingRenders > 0
          ? ` (besides ${[
              ours.collapseRenders > 0
                ? `${count(ours.collapseRenders)} of the finished thinking block collapsing when the answer started`
                : '',
              ours.pacingRenders > 0
                ? `${count(ours.pacingRenders)} putting more of a burst's markdown on the page`
                : '',
            ]
              .filter(Boolean)
              .join(', ')})`
          : ''),
      // Not vacuous: the probe must have seen the answer's text block render at all.
      pass:
        ours.finishedRerenders === 0 &&
        ours.unexplainedRenders === 0 &&
        ours.blockRenders('text') > 0,
    },
    {
      name: 'Rendering: at least 5× less scripting time than the naive baseline',
      figure: `${speedup.toFixed(1)}× (${formatMs(ours.scriptingMs)} vs ${formatMs(naive.scriptingMs)})`,
      pass: speedup >= 5,
    },
  ];
}
