/** Timing helpers: medians of several runs, so one noisy run cannot flatter or sink a figure. */

import { seededRandom } from './random.js';

export interface Timing {
  /** Median wall time in milliseconds. */
  readonly ms: number;
  readonly runs: number;
}

export async function time(
  run: () => unknown | Promise<unknown>,
  {
    runs = 5,
    warmup = 1,
    collect = true,
  }: {
    runs?: number;
    warmup?: number;
    /**
     * A full GC before each run, so one run's garbage is not collected during the next.
     * Off where each measurement has a process of its own: there the forced GC shrinks the
     * young generation, and a millisecond-long run then spends most of its time regrowing it.
     */
    collect?: boolean;
  } = {},
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (collect) globalThis.gc?.();
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)] as number, runs };
}

export const formatMs = (ms: number): string =>
  ms >= 1000
    ? `${(ms / 1000).toFixed(2)} s`
    : ms >= 10
      ? `${ms.toFixed(0)} ms`
      : `${ms.toFixed(2)} ms`;

export const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}×`;

/** Cuts text into fragments of min..max characters, like input_json_delta does. */
export function fragments(text: string, min: number, max: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = min + Math.floor(random() * (max - min + 1));
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}
