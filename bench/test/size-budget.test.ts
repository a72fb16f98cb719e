/**
 * The size limits CI enforces (bench/src/size.ts: the issue #6 budget where a package meets
 * it, a no-growth ceiling where it does not yet): each package's min+gzip size, peers
 * excluded, measured with esbuild, minified, gzip -9. Reads the packages' built dist/, so
 * build first (`pnpm test` does).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chunkModules,
  formatKb,
  measureSizes,
  OUR_SPECS,
  SIZE_LIMITS,
  type SizeRow,
} from '../src/size.js';

let rows: SizeRow[] = [];

beforeAll(async () => {
  rows = await measureSizes({ contenders: false });
}, 60_000);

describe('size budgets (min+gzip, 1 kB = 1000 B)', () => {
  it.each(Object.entries(SIZE_LIMITS))('%s stays within its limit', (name, budget) => {
    const row = rows.find((r) => r.name === name);
    expect(row, `no size row named ${name}`).toBeDefined();
    const gzip = row?.gzip ?? Number.POSITIVE_INFINITY;
    expect(
      gzip,
      `${name} is ${formatKb(gzip)} min+gzip (${gzip} B), over its limit of ${formatKb(budget)} (${budget} B)`,
    ).toBeLessThanOrEqual(budget);
  });
});

describe("react's main entry", () => {
  // What a first paint does not need: the open tool card, the JSON view, the server tool
  // results and the thread list come in a chunk of their own (packages/react/src/components/
  // tool-parts.ts, thread-list-body.tsx), and so do the code block and its highlighting's client
  // (code-block-body.tsx) and the citations. A static import of any of them would pull it back.
  const ON_DEMAND = [
    'code-block-body.js',
    'citations-body.js',
    'json-view-body.js',
    'tool-call-panel.js',
    'server-tool-result-body.js',
    'web-search-results-body.js',
    'thread-list-body.js',
  ]
    .map((file) => `packages/react/dist/components/${file}`)
    .concat(['client.js', 'tokens.js'].map((file) => `packages/react/dist/highlight/${file}`));

  it('loads the code block, citations, tool parts and thread list on demand', async () => {
    const spec = OUR_SPECS.find((s) => s.name === '@message-stream/react');
    expect(spec, 'no size spec for @message-stream/react').toBeDefined();
    const { entry, lazy } = await chunkModules(spec as (typeof OUR_SPECS)[number]);
    expect(entry.filter((module) => ON_DEMAND.includes(module))).toEqual([]);
    for (const module of ON_DEMAND) expect(lazy).toContain(module);
    // The light halves stay in the entry: the tool row, and the wrappers that load the rest.
    expect(entry).toContain('packages/react/dist/components/tool-call-card.js');
    expect(entry).toContain('packages/react/dist/components/json-view.js');
    expect(entry).toContain('packages/react/dist/components/code-block.js');
  }, 60_000);
});
