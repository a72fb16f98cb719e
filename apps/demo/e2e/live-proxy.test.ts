/**
 * The demo in live mode: its Vite dev server, started with an API key, proxies /v1/messages
 * through the core's `createMessagesProxy` to an upstream, here the mock's Node replay server
 * over real HTTP on 127.0.0.1. The page has no service worker and never holds the key.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReplayServer, type ReplayServer } from '@message-stream/mock/node';
import type { Browser, Page } from 'playwright';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerText,
  button,
  type DemoPage,
  lastAnswer,
  launchChromium,
  openDemo,
  send,
  waitForStatus,
} from './support/browser.js';
import { DEMO_ROOT, freePort, withEnv } from './support/env.js';

const API_KEY = 'test-key';
const ENDED = ['complete', 'interrupted', 'error', 'aborted'];

let replay: ReplayServer;
let vite: ViteDevServer;
let cacheDir: string;
let browser: Browser;
let demo: DemoPage;
let devUrl: string;

/** Everything the browser sent and received, to look for the key in. */
const seenByBrowser: {
  url: string;
  where: string;
  headers: Record<string, string>;
  text: string;
}[] = [];

function watchTraffic(page: Page): void {
  page.on('request', (request) => {
    void request.allHeaders().then((headers) => {
      seenByBrowser.push({
        url: request.url(),
        where: 'request',
        headers,
        text: `${JSON.stringify(headers)}\n${request.postData() ?? ''}`,
      });
    });
  });
  page.on('response', (response) => {
    void (async () => {
      const headers = await response.allHeaders();
      let body = '';
      try {
        body = (await response.body()).toString('utf8');
      } catch {
        // A redirect or a body the browser dropped: nothing was received to look into.
      }
      seenByBrowser.push({
        url: response.url(),
        where: 'response',
        headers,
        text: `${JSON.stringify(headers)}\n${body}`,
      });
    })();
  });
}

beforeAll(async () => {
  // The upstream: every request answers with long-markdown; the first one (`times=1`) stops
  // for 200 ms after 40 events, then its connection is reset. The page sends no scenario in
  // live mode, so the server's default scenario decides. The pause matters: Chromium can
  // discard bytes that arrive together with the reset (some 1 in 12 here), and the answer
  // would then fail with nothing rather than be interrupted with a partial. Network-sized
  // chunks that split lines and characters, with no pacing, so the answer takes a moment.
  replay = await createReplayServer({
    scenario: 'long-markdown;fault=stall-after-events:40:200,drop-after-events:40;times=1',
    speed: { firstByteDelayMs: 100, chunking: { minBytes: 16, maxBytes: 256 } },
  });
  cacheDir = await mkdtemp(join(tmpdir(), 'message-stream-demo-vite-'));
  const port = await freePort();
  // The demo's vite.config.ts reads the key and the upstream while the server is created.
  vite = await withEnv({ ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: replay.url }, async () => {
    const server = await createServer({
      root: DEMO_ROOT,
      configFile: join(DEMO_ROOT, 'vite.config.ts'),
      cacheDir,
      logLevel: 'error',
      clearScreen: false,
      server: { host: '127.0.0.1', port, strictPort: true, watch: null, open: false },
    });
    await server.listen();
    return server;
  });
  devUrl = `http://127.0.0.1:${port}/`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await demo?.context.close();
  await browser?.close();
  await vite?.close();
  await replay?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

describe('the demo through its dev server proxy, over real HTTP', () => {
  it('resumes a dropped answer in full, with the key kept on the server', {
    timeout: 90_000,
  }, async () => {
    // Watched from the first request on: the page, its modules, the Messages streams.
    demo = await openDemo(browser, devUrl, { beforeLoad: watchTraffic });
    const { page } = demo;

    // Live mode: no scenario picker, no mock service worker.
    await expect(page.getByText('Live API through the dev server proxy').isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole('group', { name: 'Scenario' }).count()).resolves.toBe(0);
    await expect(page.evaluate(() => navigator.serviceWorker.controller === null)).resolves.toBe(
      true,
    );

    await send(page, 'Explain how to build a streaming chat UI.');
    const status = await waitForStatus(lastAnswer(page), ENDED);
    const alert = await page.getByRole('alert').textContent();
    expect(status, `alert: ${alert}`).toBe('interrupted');
    expect(alert).toMatch(/network connection failed/i);
    const partial = await answerText(lastAnswer(page));
    expect(partial.length).toBeGreaterThan(0);

    await button(page, 'Resume').click();
    await waitForStatus(lastAnswer(page), ['complete'], 30_000);
    const resumed = await answerText(lastAnswer(page));
    await expect(page.getByRole('alert').count()).resolves.toBe(0);

    // The same answer uninterrupted (the fault hit the first request only), for comparison.
    await send(page, 'Explain how to build a streaming chat UI.');
    await expect(waitForStatus(lastAnswer(page), ENDED, 30_000)).resolves.toBe('complete');
    const whole = await answerText(lastAnswer(page));
    expect(whole.length).toBeGreaterThan(30_000);
    expect(resumed).toBe(whole);
    expect(resumed.startsWith(partial.slice(0, 100))).toBe(true);

    // Upstream: three Messages requests (the dropped one, its continuation, the second
    // message), each with the key the dev server holds, and the model the page asked for.
    const upstream = replay.requests.filter((request) => request.method === 'POST');
    expect(upstream).toHaveLength(3);
    for (const request of upstream) {
      expect(request.url).toBe('/v1/messages');
      expect(request.headers['x-api-key']).toBe(API_KEY);
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      // Sent by the dev server, not by the page: no browser origin on it.
      expect(request.headers.origin).toBeUndefined();
      expect(request.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
    }
    // The first request is the user's message alone; the continuation carries the partial answer.
    const turns = upstream.map((request) => (request.body as { messages: unknown[] }).messages);
    expect(turns[0]).toHaveLength(1);
    expect(turns[1]?.length).toBeGreaterThan(1);
    expect(JSON.stringify(turns[1])).toContain('# Building a Streaming Chat UI');
    expect(turns[2]?.length).toBeGreaterThan(2);

    // Browser side: its Messages requests went to the dev server, and the key appears nowhere
    // in what it sent or received (headers, bodies, the page's scripts).
    await expect
      .poll(() => seenByBrowser.filter((s) => s.url.endsWith('/v1/messages')).length)
      .toBeGreaterThanOrEqual(6);
    const messages = seenByBrowser.filter((s) => s.url.endsWith('/v1/messages'));
    expect(messages.every((s) => s.url === `${devUrl}v1/messages`)).toBe(true);
    expect(seenByBrowser.length).toBeGreaterThan(10);
    const leaks = seenByBrowser.filter((s) => s.text.includes(API_KEY)).map((s) => s.url);
    expect(leaks).toEqual([]);
    const sent = messages.filter((s) => s.where === 'request');
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.some((s) => 'x-api-key' in s.headers || 'authorization' in s.headers)).toBe(false);
    await expect(page.content()).resolves.not.toContain(API_KEY);
  });

  it("refuses what another site's page or a hand-made request may not spend the key on", async () => {
    const before = replay.requests.filter((request) => request.method === 'POST').length;
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const endpoint = `${devUrl}v1/messages`;
    // A form-like cross-site POST: no preflight, so only the proxy can refuse it.
    const crossSite = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body,
    });
    expect(crossSite.status).toBe(403);
    const notJson = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(notJson.status).toBe(415);
    const smuggled = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...JSON.parse(body), service_tier: 'priority' }),
    });
    expect(smuggled.status).toBe(400);
    expect((await smuggled.json()).error.message).toMatch(/^service_tier: /);
    expect(replay.requests.filter((request) => request.method === 'POST')).toHaveLength(before);
  });
});
