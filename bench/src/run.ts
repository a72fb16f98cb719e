/**
 * `pnpm bench`: measures the core beside what a user would pick instead, in one run, and
 * writes BENCHMARKS.md. `--quick` runs a small smoke version and writes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { benchConversations, conversationsTable, conversationTargets } from './conversations.js';
import { benchMemory, memoryTable } from './memory.js';
import {
  benchPartialJson,
  growthLines,
  type PartialJsonRow,
  partialJsonGrowthTable,
  partialJsonTable,
} from './partial-json.js';
import { benchPipeline, pipelineTable, pipelineTargets } from './pipeline.js';
import { benchRender, renderTable, renderTargets } from './render.js';
import { formatKb, measureSizes, SIZE_LIMITS, sizeTable, sizeTargets } from './size.js';
import type { Target } from './target.js';

const quick = process.argv.includes('--quick');
const log = (line: string) => console.log(line);
const version = (name: string): string => {
  // Read from node_modules: some packages' export maps do not expose package.json.
  try {
    const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

/**
 * Partial JSON targets (issue #13): linear at a UI cadence (a read every 16 fragments), for
 * the parser and through the reducer, fitted from 10 KB to 1 MB. Reading after every
 * fragment, and the re-parsing libraries' curves, are in the tables for information.
 */
function partialJsonTargets(rows: readonly PartialJsonRow[]): Target[] {
  return growthLines(rows)
    .filter((line) => line.every === 16 && line.name.startsWith('@message-stream/core'))
    .map((line) => {
      const correct = rows
        .filter((r) => r.shape === line.shape && r.every === 16)
        .every((r) => r.results.find((x) => x.name === line.name)?.correct !== false);
      return {
        name: `Partial JSON, ${line.shape}, read every 16 fragments: ${line.name} linear (fitted exponent ≤ 1.15, 10 KB–1 MB)`,
        figure: `${line.exponentTo1Mb.toFixed(2)}${correct ? '' : ' (wrong value)'}`,
        pass: line.exponentTo1Mb <= 1.15 && correct,
      };
    });
}

// `BENCH_ONLY=render` (comma-separated: partial-json, pipeline, render, memory, size) runs only
// those sections and prints their tables, writing nothing: for a look while working.
const only = process.env.BENCH_ONLY?.split(',');
if (only !== undefined) {
  if (only.includes('partial-json')) {
    const rows = await benchPartialJson(log, { quick });
    log(partialJsonGrowthTable(rows));
    for (const t of partialJsonTargets(rows))
      log(`${t.pass ? 'PASS' : 'MISS'} ${t.name}: ${t.figure}`);
  }
  if (only.includes('pipeline')) log(pipelineTable(await benchPipeline(log, { quick })));
  if (only.includes('render')) {
    const result = await benchRender(log, { quick });
    log(renderTable(result));
    for (const t of renderTargets(result))
      log(`${t.pass ? 'PASS' : 'MISS'} ${t.name}: ${t.figure}`);
  }
  if (only.includes('conversations')) {
    const rows = await benchConversations(log, { quick });
    log(conversationsTable(rows));
    for (const t of conversationTargets(rows))
      log(`${t.pass ? 'PASS' : 'MISS'} ${t.name}: ${t.figure}`);
  }
  if (only.includes('memory')) log(memoryTable(await benchMemory(log, { quick })));
  if (only.includes('size')) log(sizeTable(await measureSizes()));
  process.exit(0);
}

log('Partial JSON');
const partial = await benchPartialJson(log, { quick });
log('Stream pipeline');
const pipeline = await benchPipeline(log, { quick });
log('Rendering');
const render = await benchRender(log, { quick });
log('Memory');
const memory = await benchMemory(log, { quick });
log('Size');
const sizes = await measureSizes();
const targets = [
  ...partialJsonTargets(partial),
  ...pipelineTargets(pipeline),
  ...renderTargets(render),
  ...sizeTargets(sizes),
];
for (const t of targets) log(`${t.pass ? 'PASS' : 'MISS'} ${t.name}: ${t.figure}`);

if (!quick) {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const report = `# Benchmarks

Written by \`pnpm bench\` (bench/src/run.ts); do not edit by hand. Every figure is the median
of several runs (re-parsing libraries: one run, they take seconds each) and is shown as a ratio
to the anchor measured in the same run, so a slower or faster machine moves both sides.

- Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}
- Versions: @message-stream/core ${version('@message-stream/core')}, partial-json ${version('partial-json')},
  @anthropic-ai/sdk ${version('@anthropic-ai/sdk')}, ai ${version('ai')}, best-effort-json-parser ${version('best-effort-json-parser')},
  @streamparser/json ${version('@streamparser/json')}, @ai-sdk/anthropic ${version('@ai-sdk/anthropic')},
  esbuild ${version('esbuild')}
- Date: ${new Date().toISOString().slice(0, 10)}

## Targets

| target | figure | result |
| --- | --- | --- |
${targets.map((t) => `| ${t.name} | ${t.figure} | ${t.pass ? 'pass' : '**miss**'} |`).join('\n')}

## Partial JSON: tool input in 1–20-character fragments, value read after every (or every 16th) fragment

Re-parsing libraries parse the whole text again at every read, so their time grows with the
square of the input; they are run up to 100 KB. \`@streamparser/json\` only emits
finished values (no partial snapshot to read) and is shown as the floor of a streaming tokenizer.
Three shapes: a **file write** (a few keys and one long string), an **edits array** (an array
of ~1 KB records) and **records** (many ~70-byte rows of short keys, numbers and literals:
the token-dense shape behind the design's anchors, where the SDK's parser takes ~19 s here
too). Each measurement runs in a fresh Node process, so no contender inherits another's
garbage or JIT state.

${partialJsonTable(partial)}

## Notes on the misses

- **Partial JSON, 1,000× faster than every re-parsing library at 100 KB.** It holds on the
  records input (the design's anchors), and against \`ai\` and \`best-effort-json-parser\` on
  every input. Where it misses, the library hands long strings to native code: on the file
  write the SDK's parser takes ~0.6 s, so 1,000× would leave us ~60 ns per fragment *with* a
  fresh snapshot read after it; we take ~140 ns (~50 ns of it the read).
- **Partial JSON, linear and within 40× JSON.parse at 1 MB, reading after every fragment.**
  A read returns an immutable snapshot, so that React (or any identity-comparing renderer)
  can skip what did not change. Where the value is an array that is still open, each read
  copies it: a plain JavaScript array cannot share storage with the previous snapshot. With
  thousands of finished records in the array that copy is the cost, and it grows with the
  input, so the array shapes are far from linear when read after every fragment. The file
  write has no open array; its 1 MB / 100 KB ratio sits near 12× because the 100 KB run
  lasts about a millisecond, so a single extra young-generation GC in it shifts the ratio
  by several points. Read once per 16 fragments, every shape is far lower (see the table), and
  a UI reads at most once per animation frame. Meeting the targets for arrays would mean
  giving up immutable snapshots (a mutable live value, as \`@streamparser/json\` keeps),
  which the design's identity contract rules out: that is a decision for the issue.
- **Pipeline, tool input within 1.3× the bare loop.** The bare loop only concatenates the
  \`partial_json\` strings and parses once at the end. \`accumulate\` parses every fragment as
  it arrives and keeps an immutable state per event (so a UI can show the input filling in);
  that is ~1.6–1.8× the loop, and still faster than the SDK.
- **Size, core within 8 kB.** Core is ~14.1 kB min+gzip (13.2 kB of it our own code; about
  5 kB of that is the text of diagnostics and error descriptions). Even with every message
  removed it would be ~8.8 kB with fetch-event-source, so the budget needs a decision on
  what core contains (for example moving error descriptions into the React layer, or the
  transport into its own entry). Until then CI holds core to a ceiling of
  ${formatKb(SIZE_LIMITS['@message-stream/core'] ?? 0)}, its size when the limit was set, so it does not grow.

## Stream pipeline: decode + reduce a whole stream delivered in 16 KB chunks

${pipelineTable(pipeline)}

## Rendering in headless Chromium: the same stream into \`<ChatStream/>\` and into a naive baseline

${renderTable(render)}

## Memory: heap retained (after a full GC) by what each contender keeps

${memoryTable(memory)}

## Size: min+gzip of everything a package exports, peers left external

CI (\`bench/test/size-budget.test.ts\`) enforces react's budget, and holds core to a
ceiling of ${formatKb(SIZE_LIMITS['@message-stream/core'] ?? 0)} (its size when the limit was set) until it meets its 8 kB budget.

${sizeTable(sizes)}
`;
  writeFileSync(new URL('../../BENCHMARKS.md', import.meta.url), report);
  log('Wrote BENCHMARKS.md');
}
