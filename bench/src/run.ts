/**
 * `pnpm bench`: measures the core beside what a user would pick instead, in one run, and
 * writes BENCHMARKS.md. `--quick` runs a small smoke version and writes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { benchMemory, memoryTable } from './memory.js';
import { benchPartialJson, type PartialJsonRow, partialJsonTable } from './partial-json.js';
import { benchPipeline, pipelineTable, pipelineTargets } from './pipeline.js';
import { benchRender, renderTable, renderTargets } from './render.js';
import { measureSizes, sizeTable, sizeTargets } from './size.js';
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

function partialJsonTargets(rows: readonly PartialJsonRow[]): Target[] {
  const targets: Target[] = [];
  const find = (shape: string, size: string) =>
    rows.find((r) => r.shape === shape && r.size === size && r.every === 1);
  for (const shape of ['file write', 'edits array', 'records']) {
    const small = find(shape, '100 KB');
    const large = find(shape, '1 MB');
    const smallMs = small?.results[0]?.timing?.ms;
    const largeMs = large?.results[0]?.timing?.ms;
    if (!small || !large || smallMs === undefined || largeMs === undefined) continue;
    const scale = largeMs / smallMs;
    targets.push({
      name: `Partial JSON, ${shape}: 1 MB within 12× the 100 KB time (linear)`,
      figure: `${scale.toFixed(1)}×`,
      pass: scale <= 12,
    });
    const overParse = largeMs / large.jsonParse.ms;
    targets.push({
      name: `Partial JSON, ${shape}: 1 MB within 40× one JSON.parse of the final text`,
      figure: `${overParse.toFixed(1)}×`,
      pass: overParse <= 40,
    });
  }
  for (const shape of ['file write', 'edits array', 'records']) {
    const row = find(shape, '100 KB');
    const oursMs = row?.results[0]?.timing?.ms;
    for (const result of row?.results ?? []) {
      if (oursMs === undefined || result.timing === null || !result.quadratic) continue;
      const speedup = result.timing.ms / oursMs;
      targets.push({
        name: `Partial JSON, ${shape}, 100 KB: at least 1,000× faster than ${result.name}`,
        figure: `${speedup.toFixed(0)}×`,
        pass: speedup >= 1000,
      });
    }
  }
  return targets;
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
The "edits array" shape is an object holding an array of ~1 KB records: reading a snapshot
copies the open array, so its cost grows with the number of finished records (see the notes).

${partialJsonTable(partial)}

## Notes on the misses

- **1,000× faster than the re-parsing libraries at 100 KB.** The design's anchors (18.8 s for
  the SDK's parser, 19.0 s for \`ai\`, 22.3 s for \`partial-json\` at 100 KB) are not what these
  libraries take on these inputs here: they hand long strings to native code and finish in
  0.6–5.5 s, so 1,000× would need our parser to do each fragment *and* build a fresh
  snapshot in about 60–200 ns; it takes about three times that. The target is missed against
  three of the four libraries; the gap is reported, not hidden.
- **The edits array at 1 MB.** Each read returns an immutable snapshot, so the open array
  (about a thousand records at 1 MB) is copied at every read: reading after every one of
  ~95,000 fragments makes that quadratic. Read once per 16 fragments it is within target
  (see the table), and a UI reads at most once per animation frame. Keeping snapshots immutable (so React can skip
  unchanged parts) is the reason; a persistent array would lift it.

## Stream pipeline: decode + reduce a whole stream delivered in 16 KB chunks

${pipelineTable(pipeline)}

## Rendering in headless Chromium: the same stream into \`<ChatStream/>\` and into a naive baseline

${renderTable(render)}

## Memory: heap retained (after a full GC) by what each contender keeps

${memoryTable(memory)}

## Size: min+gzip of everything a package exports, peers left external

CI (\`bench/test/size-budget.test.ts\`) enforces react's budget, and holds core to a
ceiling at its current size (14 kB) until it meets its 8 kB budget, so it can only shrink.

${sizeTable(sizes)}
`;
  writeFileSync(new URL('../../BENCHMARKS.md', import.meta.url), report);
  log('Wrote BENCHMARKS.md');
}
