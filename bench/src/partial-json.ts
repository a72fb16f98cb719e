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
import { editsInput, fileWriteInput } from './data.js';
import { recordsInput } from './json-shapes.js';
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
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
] as const;
const SHAPES = [
  ['file write', fileWriteInput],
  ['edits array', editsInput],
  ['records', recordsInput],
] as const;

export async function benchPartialJson(
  log: (line: string) => void,
  { quick = false }: { quick?: boolean } = {},
): Promise<PartialJsonRow[]> {
  const rows: PartialJsonRow[] = [];
  for (const [shape, make] of SHAPES) {
    for (const [size, bytes] of SIZES) {
      const text = make(bytes);
      const expected = JSON.parse(text);
      const parts = fragments(text, 1, 20);
      const jsonParse = await time(() => JSON.parse(text), { runs: 21, warmup: 3 });
      for (const every of [1, 16]) {
        const results: PartialJsonRow['results'][number][] = [];
        for (const contender of contenders) {
          // Re-parsers run once per case, up to 100 KB: enough to show their quadratic curve
          // without an hour-long run.
          const skip = contender.quadratic && (bytes > 100_000 || (quick && bytes > 10_000));
          if (skip) {
            results.push({
              name: contender.name,
              timing: null,
              correct: true,
              quadratic: contender.quadratic,
            });
            continue;
          }
          let value: unknown;
          // Linear contenders get warm-up runs and a median of nine, so a JIT tier-up or a
          // GC left over from the previous case does not land on one of them; re-parsers
          // run once (seconds each, and warm within their first few hundred reads).
          const runs = contender.quadratic ? 1 : quick ? 3 : 9;
          const timing = await time(
            async () => {
              value = await contender.read(parts, every);
            },
            { runs, warmup: contender.quadratic ? 0 : 3 },
          );
          const correct = JSON.stringify(value) === JSON.stringify(expected);
          results.push({ name: contender.name, timing, correct, quadratic: contender.quadratic });
          log(
            `  ${shape} ${size} every ${every}: ${contender.name} ${formatMs(timing.ms)}${correct ? '' : ' (WRONG VALUE)'}`,
          );
        }
        rows.push({
          shape,
          size,
          bytes: text.length,
          fragments: parts.length,
          every,
          jsonParse,
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
