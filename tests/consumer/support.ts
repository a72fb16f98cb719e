/**
 * What the consumer tests share: the packed tarballs (made once by the global setup), a
 * scratch copy of an app template outside the workspace, the READMEs' own install steps run
 * against the tarballs, child servers on free ports, and Debian's Chromium.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright';
import { chromiumArgs, chromiumExecutablePath } from '../../scripts/chromium.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGES = ['core', 'react', 'mock'] as const;
export type PackageDir = (typeof PACKAGES)[number];

/** `@message-stream/core` → the absolute path of its tarball. */
export type Tarballs = Readonly<Record<string, string>>;

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
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

/**
 * `pnpm pack` of the three packages into `outDir` (building first when a source file is
 * newer than its dist), each renamed `<name>.tgz` so the apps' overrides never change.
 */
export function packTarballs(outDir: string): Tarballs {
  if (PACKAGES.some((name) => isStale(join(REPO, 'packages', name)))) {
    run(REPO, 'pnpm run build', process.env);
  }
  const tarballs: Record<string, string> = {};
  for (const name of PACKAGES) {
    run(join(REPO, 'packages', name), `pnpm pack --pack-destination ${outDir}`, process.env);
    const [file] = readdirSync(outDir).filter((f) => f.startsWith(`message-stream-${name}-`));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}.`);
    const stable = join(outDir, `${name}.tgz`);
    renameSync(join(outDir, file), stable);
    tarballs[`@message-stream/${name}`] = stable;
  }
  return tarballs;
}

const readJson = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * The exact version of every third-party package the workspace is tested with (the root's
 * and each package's dev dependencies): a README line `pnpm add react` installs the react
 * the kit's own tests ran on, from the pnpm store when it is there.
 */
export function workspacePins(): Record<string, string> {
  const pins: Record<string, string> = {};
  const manifests = [join(REPO, 'package.json'), ...PACKAGES.map((p) => manifestPath(p))];
  for (const file of manifests) {
    const manifest = readJson(file);
    for (const field of ['devDependencies', 'dependencies'] as const) {
      for (const [name, version] of Object.entries(
        (manifest[field] ?? {}) as Record<string, string>,
      )) {
        if (/^\d+\.\d+\.\d+/.test(version)) pins[name] ??= version;
      }
    }
  }
  return pins;
}

export const manifestPath = (dir: PackageDir): string =>
  join(REPO, 'packages', dir, 'package.json');

/** The body of the `## <heading>` section of a README (up to the next `## `). */
export function readmeSection(readme: string, heading: string): string {
  const text = readFileSync(join(REPO, readme), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`${readme} has no "## ${heading}" section.`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

const codeBlocks = (section: string, languages: readonly string[]): string[] =>
  // The info string may go on after the language (```tsx no-run: an example run here, in Chromium).
  [...section.matchAll(/```(\w+)[^\n]*\n([\s\S]*?)```/g)]
    .filter((match) => languages.includes(match[1] as string))
    .map((match) => match[2] as string);

/** The shell lines of a section's `sh` blocks, comments dropped. */
export function shellSteps(section: string): string[] {
  return codeBlocks(section, ['sh', 'bash'])
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A section's code blocks that open with `// <path>`: the files the README tells you to write. */
export function fileBlocks(section: string): Array<{ path: string; text: string }> {
  return codeBlocks(section, ['ts', 'tsx', 'js', 'jsx']).flatMap((block) => {
    const match = /^\/\/ ([\w./-]+\.[jt]sx?)\n/.exec(block);
    return match ? [{ path: match[1] as string, text: block.slice(match[0].length) }] : [];
  });
}

/** A copy of a template directory in a fresh temporary directory (outside the workspace). */
export function scratchCopy(template: string, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(template, dir, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|\.next|dist)([\\/]|$)/.test(source),
  });
  return dir;
}

/**
 * Points `@message-stream/*` at the tarballs wherever they are depended on (the stand-in for
 * the registry, which does not have them): a direct `0.1.0` and react's own dependency on core.
 */
export function pointAtTarballs(appDir: string, tarballs: Tarballs): void {
  const file = join(appDir, 'package.json');
  const manifest = readJson(file) as { pnpm?: Record<string, unknown> };
  const overrides = Object.fromEntries(
    Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`]),
  );
  manifest.pnpm = { ...manifest.pnpm, overrides };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The environment of a user's shell: no pnpm/npm variables from the `pnpm test` that runs us
 * and no workspace `node_modules/.bin` on the PATH, so a README command finds only what the
 * scratch app installed.
 */
export function userEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|INIT_CWD$|VITEST|NODE_OPTIONS$|NODE_ENV$)/i.test(key)) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((entry) => !entry.includes('node_modules'))
    .join(':');
  env.NEXT_TELEMETRY_DISABLED = '1';
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs a command to completion; a failure throws with its output. */
export function run(cwd: string, command: string, env = userEnv()): string {
  const result = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(`\`${command}\` failed (exit ${result.status}) in ${cwd}:\n${output}`);
  }
  return output;
}

/** Whether a pinned version is in a README's `^N` range (the only form the READMEs use). */
function inMajorRange(pin: string, range: string): boolean {
  const major = /^\^(\d+)$/.exec(range)?.[1];
  if (major === undefined) throw new Error(`The README's range ${range} is not of the form ^N.`);
  return pin.replace(/^[^\d]*/, '').split('.')[0] === major;
}

/**
 * A README shell line as it runs here: `pnpm add` gets each `@message-stream/*` as its
 * tarball and every other package at the workspace's pinned version (no pin: an error, so a
 * README naming an untested package fails the test), and prefers the pnpm store.
 */
export function asTested(line: string, tarballs: Tarballs, pins: Record<string, string>): string {
  const words = line.split(/\s+/);
  if (words[0] !== 'pnpm' || words[1] !== 'add') return line;
  const rewritten = words.map((word, index) => {
    if (index < 2 || word.startsWith('-')) return word;
    // `msw@^2`: the README names the major a user must take; the workspace's pin must be in it.
    const at = word.indexOf('@', 1);
    const name = at === -1 ? word : word.slice(0, at);
    const range = at === -1 ? undefined : word.slice(at + 1);
    const tarball = tarballs[name];
    if (tarball !== undefined) return `file:${tarball}`;
    const pin = pins[name];
    if (pin === undefined) throw new Error(`The README installs ${name}, which nothing pins.`);
    if (range !== undefined && !inMajorRange(pin, range)) {
      throw new Error(`The README installs ${word}, but the tested pin is ${pin}.`);
    }
    return `${name}@${pin}`;
  });
  return [...rewritten, '--prefer-offline'].join(' ');
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(address),
      );
    });
  });
}

export interface ChildServer {
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts a server process (`node <script> …args`) and waits until `url` answers. The process
 * is ours alone: stopped by its pid, never by name.
 */
export async function startServer(
  cwd: string,
  args: readonly string[],
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd, env, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${url} did not answer within 60 s:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 200));
  }
  return { url, output: () => output, stop };
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumExecutablePath, args: [...chromiumArgs] });

/** What a page looked like once its answer was in. */
export interface AskResult {
  readonly answer: string;
  readonly composerBottom: number;
  readonly viewportHeight: number;
  readonly viewportWidth: number;
  /** The page's scrollable size (the viewport's when nothing scrolls). */
  readonly pageSize: { readonly width: number; readonly height: number };
  /** The `.ms-chat` root's box in the viewport, or null when there is none. */
  readonly chatBox: { x: number; y: number; width: number; height: number } | null;
}

/**
 * Sends a question in `<ChatStream/>` and waits for a finished answer; returns its text. The
 * composer must be on screen (the README's layout keeps it above the fold).
 */
export async function askInChromium(
  browser: Browser,
  url: string,
  question: string,
): Promise<AskResult> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(url);
    const composer = page.getByRole('textbox');
    await composer.waitFor({ timeout: 30_000 });
    const box = await composer.boundingBox();
    await composer.fill(question);
    await composer.press('Enter');
    const answer = page.locator('[role="log"] [aria-label="Assistant"][data-status="complete"]');
    await answer.first().waitFor({ timeout: 30_000 });
    if (errors.length > 0) throw new Error(`Page errors: ${errors.join('; ')}`);
    const pageSize = await page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      height: document.documentElement.scrollHeight,
    }));
    return {
      answer: (await answer.first().textContent()) ?? '',
      composerBottom: box ? box.y + box.height : Number.POSITIVE_INFINITY,
      viewportHeight: 800,
      viewportWidth: 1280,
      pageSize,
      chatBox: await page.locator('.ms-chat').first().boundingBox(),
    };
  } finally {
    await page.close();
  }
}
