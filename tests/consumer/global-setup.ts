/**
 * Vitest globalSetup of the consumer project: packs the three packages once (building first
 * when a source file is newer than its dist) into a temporary directory; the tests get the
 * tarballs with `inject('tarballs')`.
 */
import { readdirSync, renameSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PACKAGES, REPO, run, type Tarballs } from './support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `@message-stream/<name>` → the absolute path of its packed tarball. */
    tarballs: Tarballs;
  }
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

function isStale(dir: string): boolean {
  try {
    return newest(join(dir, 'src')) > statSync(join(dir, 'dist', 'index.js')).mtimeMs;
  } catch {
    return true;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (PACKAGES.some((name) => isStale(join(REPO, 'packages', name)))) {
    run(REPO, 'pnpm run build', process.env);
  }
  const outDir = await mkdtemp(join(tmpdir(), 'message-stream-tarballs-'));
  const tarballs: Record<string, string> = {};
  for (const name of PACKAGES) {
    run(join(REPO, 'packages', name), `pnpm pack --pack-destination ${outDir}`, process.env);
    const [file] = readdirSync(outDir).filter((f) => f.startsWith(`message-stream-${name}-`));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}.`);
    // A stable name, so the apps' overrides do not change with the version.
    const stable = join(outDir, `${name}.tgz`);
    renameSync(join(outDir, file), stable);
    tarballs[`@message-stream/${name}`] = stable;
  }
  project.provide('tarballs', tarballs);
  return () => rm(outDir, { recursive: true, force: true });
}
