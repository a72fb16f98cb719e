/**
 * The size limits CI enforces (bench/src/size.ts: the issue #6 budget where a package meets
 * it, a no-growth ceiling where it does not yet): each package's min+gzip size, peers
 * excluded, measured with esbuild, minified, gzip -9. Reads the packages' built dist/, so
 * build first (`pnpm test` does).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { formatKb, measureSizes, SIZE_LIMITS, type SizeRow } from '../src/size.js';

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
