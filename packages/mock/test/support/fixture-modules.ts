// Vitest globalSetup of the mock project: the fixture modules follow any edit of a .sse file.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/fixture-modules.mjs', import.meta.url));
  execFileSync(process.execPath, [script]);
}
