/**
 * examples/nextjs from the packed tarballs: installed outside the workspace, `next build`,
 * then `next start` twice. Without a key the route handler answers from the mock; with one it
 * proxies to the "API" (here the mock's replay server, standing in for api.anthropic.com), the
 * key reaching the upstream and never the page.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createReplayServer, type ReplayServer } from '@message-stream/mock/node';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  askInChromium,
  type ChildServer,
  freePort,
  launchChromium,
  pointAtTarballs,
  REPO,
  run,
  scratchCopy,
  startServer,
  userEnv,
} from './support.js';

const NEXT = ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port'];
const SECRET = 'sk-ant-consumer-test-not-a-real-key';

describe('examples/nextjs', () => {
  const tarballs = inject('tarballs');
  let app = '';
  let browser: Browser | undefined;
  const servers: Array<{ stop(): Promise<void> }> = [];

  beforeAll(() => {
    app = scratchCopy(join(REPO, 'examples', 'nextjs'), 'message-stream-nextjs-');
    pointAtTarballs(app, tarballs);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled(servers.map((server) => server.stop()));
    if (app !== '') rmSync(app, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string | undefined>): Promise<ChildServer> => {
    const port = await freePort();
    const server = await startServer(
      app,
      [...NEXT, `${port}`],
      `http://127.0.0.1:${port}/`,
      userEnv(env),
    );
    servers.push(server);
    return server;
  };

  it('installs from the tarballs and passes next build (types included)', () => {
    run(app, 'pnpm install --prefer-offline');
    const output = run(
      app,
      'node node_modules/next/dist/bin/next build',
      userEnv({ ANTHROPIC_API_KEY: undefined }),
    );
    // The page is static (a server component rendering the client ChatStream); the API is not.
    expect(output).toMatch(/○ \/\s/);
    expect(output).toMatch(/ƒ \/api\/messages/);
  });

  it('streams an answer from the mock when no key is set', async () => {
    const server = await start({ ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined });
    browser ??= await launchChromium();
    const result = await askInChromium(
      browser,
      server.url,
      'What is the difference between const and let?',
    );
    expect(result.answer).toContain('block-scoped');
    expect(result.composerBottom).toBeLessThanOrEqual(result.viewportHeight);
  });

  it('proxies to the API with the key from the environment, never sending it to the page', async () => {
    const upstream: ReplayServer = await createReplayServer();
    servers.push({ stop: () => upstream.close() });
    const server = await start({ ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: upstream.url });
    browser ??= await launchChromium();
    const result = await askInChromium(browser, server.url, 'Hello');
    expect(result.answer).toContain('Hello!');
    const posts = upstream.requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers['x-api-key']).toBe(SECRET);
    const html = await (await fetch(server.url)).text();
    expect(html).toContain('<textarea');
    expect(html.includes(SECRET)).toBe(false);
  });
});
