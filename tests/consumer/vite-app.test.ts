/**
 * A stranger's first five minutes, from the packed tarballs: a fresh Vite + React 19 +
 * TypeScript app, set up by running the react README's "Getting started" as written, then
 * typechecked, built and served; Chromium streams an answer from the MSW worker.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  askInChromium,
  asTested,
  type ChildServer,
  fileBlocks,
  freePort,
  launchChromium,
  pointAtTarballs,
  readmeSection,
  run,
  scratchCopy,
  shellSteps,
  startServer,
  userEnv,
  workspacePins,
} from './support.js';

const TEMPLATE = join(import.meta.dirname, 'vite-app');
const gettingStarted = readmeSection('packages/react/README.md', 'Getting started');

describe('a new Vite app, following the react README', () => {
  const tarballs = inject('tarballs');
  let app = '';
  let server: ChildServer | undefined;
  let browser: Browser | undefined;

  beforeAll(() => {
    app = scratchCopy(TEMPLATE, 'message-stream-vite-app-');
    pointAtTarballs(app, tarballs);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (app !== '') rmSync(app, { recursive: true, force: true });
  });

  it('installs the tarballs with the README commands (types and the worker script included)', () => {
    const steps = shellSteps(gettingStarted);
    expect(steps.some((step) => step.includes('@types/react'))).toBe(true);
    expect(steps).toContain('npx msw init public --save');
    const pins = workspacePins();
    run(app, 'pnpm install --prefer-offline');
    for (const step of steps) run(app, asTested(step, tarballs, pins));
    expect(existsSync(join(app, 'public', 'mockServiceWorker.js'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@message-stream/core',
      '@message-stream/react',
      'react',
      'react-dom',
    ]);
    // msw is the app's own (the mock's peer), so the app decides which msw 2.x it runs.
    expect(manifest.devDependencies.msw).toBe(pins.msw);
    const installed = readdirSync(join(app, 'node_modules', '.pnpm')).filter((d) =>
      /^msw@/.test(d),
    );
    expect(installed.length).toBeGreaterThan(0);
    // One msw version in the whole tree (peer-resolution suffixes aside).
    expect(installed.filter((d) => !d.startsWith(`msw@${pins.msw}`))).toEqual([]);
  });

  it('ships what a package on npm should: LICENSE, metadata, the client boundary', () => {
    for (const name of ['core', 'react', 'mock']) {
      const dir = join(app, 'node_modules', '@message-stream', name);
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(manifest).toMatchObject({ license: 'MIT', repository: { type: 'git' } });
      expect(manifest.homepage).toMatch(/^https:\/\//);
      expect(manifest.keywords).toContain('anthropic');
    }
    const mock = JSON.parse(
      readFileSync(join(app, 'node_modules/@message-stream/mock/package.json'), 'utf8'),
    );
    expect(mock.peerDependencies).toEqual({ msw: '^2.0.0' });
    expect(mock.dependencies?.msw).toBeUndefined();
    const entry = readFileSync(
      join(app, 'node_modules/@message-stream/react/dist/index.js'),
      'utf8',
    );
    // The first statement, after comments: a directive Next.js reads.
    expect(entry.replace(/^(\s*\/\/[^\n]*\n|\s*\/\*[\s\S]*?\*\/)*/, '').trimStart()).toMatch(
      /^'use client';/,
    );
  });

  it('typechecks the README code', () => {
    const files = fileBlocks(gettingStarted);
    // The app, and Going live's vite.config.ts (its proxy plugin mounts nothing without a key).
    expect(files.map((file) => file.path)).toEqual(['src/main.tsx', 'vite.config.ts']);
    for (const file of files) {
      mkdirSync(dirname(join(app, file.path)), { recursive: true });
      writeFileSync(join(app, file.path), file.text);
    }
    run(app, 'pnpm run typecheck');
  });

  it('builds, with the fixtures only in lazy chunks of their own', () => {
    run(app, 'pnpm run build');
    const assets = readdirSync(join(app, 'dist', 'assets'));
    const html = readFileSync(join(app, 'dist', 'index.html'), 'utf8');
    const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const entryCode = readFileSync(join(app, 'dist', 'assets', entry as string), 'utf8');
    // Every fixture opens with its header comments; none may sit in the entry chunk.
    expect(/: description: /.test(entryCode)).toBe(false);
    expect(assets.filter((file) => file.endsWith('.sse'))).toEqual([]);
    expect(assets.some((file) => file.startsWith('large-tool-input.sse-'))).toBe(true);
    expect(existsSync(join(app, 'dist', 'mockServiceWorker.js'))).toBe(true);
  });

  it('streams an answer in Chromium on the MSW worker, the composer in view', async () => {
    const port = await freePort();
    server = await startServer(
      app,
      ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', `${port}`],
      `http://127.0.0.1:${port}/`,
      userEnv(),
    );
    browser = await launchChromium();
    const result = await askInChromium(
      browser,
      server.url,
      'What is the difference between const and let?',
    );
    expect(result.answer).toContain('block-scoped');
    expect(result.composerBottom).toBeLessThanOrEqual(result.viewportHeight);
    // With index.css deleted the body keeps its 8 px margin: the README's wrapper still fills
    // the window exactly, so nothing scrolls and no margin shows around the chat.
    expect(result.pageSize).toEqual({ width: result.viewportWidth, height: result.viewportHeight });
    expect(result.chatBox).toEqual({
      x: 0,
      y: 0,
      width: result.viewportWidth,
      height: result.viewportHeight,
    });
  });
});
