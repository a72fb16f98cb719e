/**
 * `pnpm example:nextjs`: examples/nextjs on the packages as they are in this checkout (built
 * and packed now, installed into a scratch copy, as CI tests it), then `next dev`. With
 * ANTHROPIC_API_KEY in the environment it talks to the API; without, to the mock.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  packTarballs,
  pointAtTarballs,
  REPO,
  run,
  scratchCopy,
  userEnv,
} from '../tests/consumer/support.js';

const tarballs = packTarballs(mkdtempSync(join(tmpdir(), 'message-stream-tarballs-')));
const app = scratchCopy(join(REPO, 'examples', 'nextjs'), 'message-stream-nextjs-');
pointAtTarballs(app, tarballs);
run(app, 'pnpm install --prefer-offline');
console.log(`examples/nextjs, installed from the tarballs, in ${app}`);
const next = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev'], {
  cwd: app,
  env: userEnv(),
  stdio: 'inherit',
});
next.on('exit', (code) => process.exit(code ?? 0));
