/**
 * Vitest globalSetup of the consumer project: packs the three packages once (building first
 * when a source file is newer than its dist) into a temporary directory; the tests get the
 * tarballs with `inject('tarballs')`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packTarballs, type Tarballs } from './support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `@message-stream/<name>` → the absolute path of its packed tarball. */
    tarballs: Tarballs;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'message-stream-tarballs-'));
  const tarballs = packTarballs(outDir);
  project.provide('tarballs', tarballs);
  return () => rm(outDir, { recursive: true, force: true });
}
