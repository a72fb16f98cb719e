// Browser tests run in Debian's Chromium (no test tool may download a browser). On a fresh
// machine the README's test command installs it when it can (root on Debian), and
// otherwise says exactly what is missing instead of failing deep inside a test run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    `Browser tests need Chromium at ${path}. Install it (Debian: sudo apt-get install -y chromium)` +
      ' or point CHROMIUM_PATH at a Chromium binary.',
  );
  process.exit(1);
}
console.log(`Chromium not found at ${path}: installing Debian's chromium package…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
