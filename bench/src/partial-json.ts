import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { partialParse as sdkPartialParse } from '@anthropic-ai/sdk/_vendor/partial-json-parser/parser';
import {
  createStreamState,
  PartialJsonParser,
  reduceStream,
  type StreamEvent,
} from '@message-stream/core';
import { JSONParser as StreamParser } from '@streamparser/json';
import { parsePartialJson as aiParsePartialJson } from 'ai';
import { parse as bestEffortParse } from 'best-effort-json-parser';
import { Allow, parse as partialJsonParse } from 'partial-json';
import { editsInput, fileWriteInput, recordsInput } from './data.js';
import { formatMs, fragments, ratio, type Timing, time } from './measure.js';

bestEffortParse.onExtraToken = () => {};

type Reader = (parts: readonly string[], every: number) => unknown | Promise<unknown>;

/** Each contender gets the fragments one by one and is asked for its value every `every`. */
const ours: Reader = (parts, every) => {
  const parser = new PartialJsonParser();
  let value: unknown;
  for (let i = 0; i < parts.length; i++) {
    parser.write(parts[i] as string);
    if (i % every === 0 || i === parts.length - 1) value = parser.value();
  }
  return value;
};

/** The same through the reducer, reading `block.input` as a UI would. */
const oursThroughReducer: Reader = (parts, every) => {
  let state = reduceStream(createStreamState(), {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id: 't', name: 'write_file', input: {} },
  });
  let value: unknown;
  for (let i = 0; i < parts.length; i++) {
    const event: StreamEvent = {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: parts[i] as string },
    };
    state = reduceStream(state, event);
    if (i % every === 0 || i === parts.length - 1) {
      value = (state.message?.content[0]?.block as { input?: unknown } | undefined)?.input;
    }
  }
  return value;
};

/** Re-parsing libraries: the text so far is parsed again at every read. */
const reparsing =
  (parse: (text: string) => unknown): Reader =>
  (parts, every) => {
    let text = '';
    let value: unknown;
    for (let i = 0; i < parts.length; i++) {
      text += parts[i];
      if (i % every === 0 || i === parts.length - 1) {
        try {
          value = parse(text);
        } catch {
          // Some libraries throw on prefixes they cannot complete; the value stays.
        }
      }
    }
    return value;
  };

const aiReader: Reader = async (parts, every) => {
  let text = '';
  let value: unknown;
  for (let i = 0; i < parts.length; i++) {
    text += parts[i];
    if (i % every === 0 || i === parts.length - 1) value = (await aiParsePartialJson(text)).value;
  }
  return value;
};

/** @streamparser/json emits finished values only; it has no partial snapshot to read. */
const streamParserReader: Reader = (parts) => {
  const parser = new StreamParser({ paths: ['$'], keepStack: false });
  let value: unknown;
  parser.onValue = ({ value: v }) => {
    value = v;
  };
  for (const part of parts) parser.write(part);
  return value;
};

export interface Contender {
  readonly name: string;
  readonly read: Reader;
  /** Re-parsers are quadratic: running them on 1 MB would take hours. */
  readonly quadratic: boolean;
}

export const contenders: readonly Contender[] = [
  { name: '@message-stream/core PartialJsonParser', read: ours, quadratic: false },
  {
    name: '@message-stream/core reduceStream (block.input)',
    read: oursThroughReducer,
    quadratic: false,
  },
  { name: '@streamparser/json (no partial values)', read: streamParserReader, quadratic: false },
  { name: 'partial-json', read: reparsing((t) => partialJsonParse(t, Allow.ALL)), quadratic: true },
  {
    name: '@anthropic-ai/sdk vendored partialParse',
    read: reparsing(sdkPartialParse),
    quadratic: true,
  },
  { name: 'ai parsePartialJson', read: aiReader, quadratic: true },
  { name: 'best-effort-json-parser', read: reparsing(bestEffortParse), quadratic: true },
];

export interface PartialJsonRow {
  readonly shape: string;
  readonly size: string;
  readonly bytes: number;
  readonly fragments: number;
  readonly every: number;
  readonly jsonParse: Timing;
  readonly results: ReadonlyArray<{
    name: string;
    timing: Timing | null;
    correct: boolean;
    quadratic: boolean;
  }>;
}

const SIZES = [
  ['10 KB', 10_000],
  ['30 KB', 30_000],
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
] as const;
const SHAPES = {
  'file write': fileWriteInput,
  'edits array': editsInput,
  records: recordsInput,
} as const;
export type Shape = keyof typeof SHAPES;
export const SHAPE_NAMES = Object.keys(SHAPES) as Shape[];

/** One measurement: a contender (by index; -1 is one JSON.parse) on one input. */
export interface CaseSpec {
  readonly shape: Shape;
  readonly bytes: number;
  readonly every: number;
  readonly contender: number;
  readonly runs: number;
  readonly warmup: number;
}

export async function measureCase(
  spec: CaseSpec,
): Promise<{ timing: Timing; correct: boolean; fragments: number; length: number }> {
  const text = SHAPES[spec.shape](spec.bytes);
  const parts = fragments(text, 1, 20);
  const options = { runs: spec.runs, warmup: spec.warmup, collect: false };
  const base = { fragments: parts.length, length: text.length };
  if (spec.contender < 0) {
    return { ...base, timing: await time(() => JSON.parse(text), options), correct: true };
  }
  const contender = contenders[spec.contender] as Contender;
  let value: unknown;
  const timing = await time(async () => {
    value = await contender.read(parts, spec.every);
  }, options);
  return { ...base, timing, correct: JSON.stringify(value) === JSON.stringify(JSON.parse(text)) };
}

/**
 * Runs one measurement in a fresh Node process. In one process the re-parsers' gigabytes
 * of garbage and the JIT state other inputs leave behind landed on whoever ran next (our
 * parser measured 3× slower there than alone); a process per measurement gives every
 * contender the same clean start.
 */
function inChild(spec: CaseSpec): Promise<Awaited<ReturnType<typeof measureCase>>> {
  const entry = fileURLToPath(new URL('./partial-json-case.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...process.execArgv, entry, JSON.stringify(spec)],
      { maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}

export async function benchPartialJson(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<PartialJsonRow[]> {
  const rows: PartialJsonRow[] = [];
  for (const shape of quick ? SHAPE_NAMES.slice(0, 1) : SHAPE_NAMES) {
    for (const [size, bytes] of quick ? SIZES.slice(0, 2) : SIZES) {
      const parse = await inChild({ shape, bytes, every: 1, contender: -1, runs: 21, warmup: 3 });
      for (const every of [1, 16]) {
        const results: PartialJsonRow['results'][number][] = [];
        for (const [index, contender] of contenders.entries()) {
          // Re-parsers run once per case, up to 100 KB: enough to show their quadratic curve
          // without an hour-long run.
          // Read after every fragment they stop at 30 KB: at 100 KB one run of one library took
          // minutes on a loaded machine, and that cadence is in the table for information only.
          const limit = every === 1 ? 30_000 : 100_000;
          const skip = contender.quadratic && (bytes > limit || (quick && bytes > 10_000));
          if (skip) {
            results.push({
              name: contender.name,
              timing: null,
              correct: true,
              quadratic: contender.quadratic,
            });
            continue;
          }
          // Linear contenders get warm-up runs and a median of fifteen; re-parsers run once
          // (seconds each, and warm within their first few hundred reads).
          const { timing, correct } = await inChild({
            shape,
            bytes,
            every,
            contender: index,
            runs: contender.quadratic ? 1 : quick ? 3 : 9,
            warmup: contender.quadratic ? 0 : 5,
          });
          results.push({ name: contender.name, timing, correct, quadratic: contender.quadratic });
          log(
            `  ${shape} ${size} every ${every}: ${contender.name} ${formatMs(timing.ms)}${correct ? '' : ' (WRONG VALUE)'}`,
          );
        }
        rows.push({
          shape,
          size,
          bytes: parse.length,
          fragments: parse.fragments,
          every,
          jsonParse: parse.timing,
          results,
        });
      }
    }
  }
  return rows;
}

export function partialJsonTable(rows: readonly PartialJsonRow[]): string {
  const lines = [
    '| input | read every | JSON.parse once | contender | time | × JSON.parse | × ours |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const oursMs = row.results[0]?.timing?.ms ?? Number.NaN;
    for (const result of row.results) {
      if (result.timing === null) continue;
      lines.push(
        `| ${row.shape}, ${row.size} (${row.fragments} fragments) | ${row.every} | ${formatMs(row.jsonParse.ms)} | ${result.name}${result.correct ? '' : ' **wrong final value**'} | ${formatMs(result.timing.ms)} | ${ratio(result.timing.ms, row.jsonParse.ms)} | ${ratio(result.timing.ms, oursMs)} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The exponent k of time ∝ size^k, fitted by least squares on log time against log size:
 * ~1 is linear, ~2 quadratic.
 */
export function growthExponent(points: readonly { bytes: number; ms: number }[]): number {
  const usable = points.filter((p) => p.ms > 0 && p.bytes > 0);
  if (usable.length < 2) return Number.NaN;
  const xs = usable.map((p) => Math.log(p.bytes));
  const ys = usable.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  return num / den;
}

/** Per shape and cadence, one contender's time at each size and its fitted exponent. */
export interface GrowthLine {
  readonly shape: string;
  readonly every: number;
  readonly name: string;
  readonly points: readonly { size: string; bytes: number; ms: number }[];
  /** Fitted on 10–100 KB (10–30 KB for the re-parsers read after every fragment). */
  readonly exponent: number;
  /** Fitted on 10 KB–1 MB, for the contenders that run it. */
  readonly exponentTo1Mb: number;
}

export function growthLines(rows: readonly PartialJsonRow[]): GrowthLine[] {
  const out: GrowthLine[] = [];
  for (const shape of SHAPE_NAMES) {
    for (const every of [1, 16]) {
      const ofShape = rows.filter((r) => r.shape === shape && r.every === every);
      for (const { name } of contenders) {
        const points = ofShape.flatMap((row) => {
          const timing = row.results.find((r) => r.name === name)?.timing;
          return timing ? [{ size: row.size, bytes: row.bytes, ms: timing.ms }] : [];
        });
        if (points.length === 0) continue;
        out.push({
          shape,
          every,
          name,
          points,
          exponent: growthExponent(points.filter((p) => p.bytes <= 150_000)),
          exponentTo1Mb: growthExponent(points),
        });
      }
    }
  }
  return out;
}

export function partialJsonGrowthTable(rows: readonly PartialJsonRow[]): string {
  const sizes = SIZES.map(([size]) => size);
  const lines = [
    `| input | read every | contender | ${sizes.join(' | ')} | exponent, up to 100 KB | exponent, 10 KB–1 MB |`,
    `| --- | --- | --- |${sizes.map(() => ' --- |').join('')} --- | --- |`,
  ];
  for (const line of growthLines(rows)) {
    const cells = sizes.map((size) => {
      const point = line.points.find((p) => p.size === size);
      return point ? formatMs(point.ms) : '–';
    });
    const to1Mb = line.points.some((p) => p.bytes > 150_000) ? line.exponentTo1Mb.toFixed(2) : '–';
    lines.push(
      `| ${line.shape} | ${line.every} | ${line.name} | ${cells.join(' | ')} | ${line.exponent.toFixed(2)} | ${to1Mb} |`,
    );
  }
  return lines.join('\n');
}
