/**
 * The trace figures the heavy bench's growth targets read: main-thread task time by quarter
 * of the run, from a trace written the way Chromium writes one (an event per line).
 */
import { describe, expect, it } from 'vitest';
import { LATE_OVER_EARLY_LIMIT, lateOverEarly } from '../src/heavy.js';
import { analyzeTrace } from '../src/render.js';

const MAIN = { pid: 1, tid: 2 };

/** A trace of one renderer main thread whose tasks start at `starts` (µs) and last `durs` (µs). */
function trace(tasks: readonly (readonly [number, number])[]): Buffer {
  const lines = [
    { ...MAIN, ph: 'M', name: 'thread_name', args: { name: 'CrRendererMain' } },
    ...tasks.map(([ts, dur]) => ({
      ...MAIN,
      ph: 'X',
      name: 'ThreadControllerImpl::RunTask',
      ts,
      dur,
      tdur: dur,
    })),
  ];
  return Buffer.from(
    `{"traceEvents":[\n${lines.map((l) => `${JSON.stringify(l)},`).join('\n')}\n]}`,
  );
}

describe('analyzeTrace by quarter', () => {
  it('counts each task in the quarter of the run it starts in', () => {
    // A run from 0 to 4,000 µs: tasks of 100, 200, 300 and 400 µs, one a quarter, and one more
    // of 50 µs in the third.
    const figures = analyzeTrace(
      trace([
        [0, 100],
        [1000, 200],
        [2000, 300],
        [2500, 50],
        [3600, 400],
      ]),
    );
    expect(figures.taskMsByQuarter).toEqual([0.1, 0.2, 0.35, 0.4]);
    expect(figures.taskCount).toBe(5);
  });

  it('reads a run whose late updates cost more as over the limit, and a steady one as not', () => {
    const steady = analyzeTrace(
      trace(Array.from({ length: 40 }, (_, i) => [i * 100, 50] as const)),
    );
    expect(lateOverEarly(steady)).toBeCloseTo(1, 5);
    expect(lateOverEarly(steady)).toBeLessThanOrEqual(LATE_OVER_EARLY_LIMIT + 1e-9);
    const growing = analyzeTrace(
      trace(Array.from({ length: 40 }, (_, i) => [i * 100, 20 + i] as const)),
    );
    expect(lateOverEarly(growing)).toBeGreaterThan(LATE_OVER_EARLY_LIMIT);
  });
});
