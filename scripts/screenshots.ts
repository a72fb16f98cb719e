/**
 * `pnpm screenshots`: PNGs of the demo's main states and the key stories in light and dark, at
 * 1280 px and 390 px, into ./screenshots (not committed). Serves the demo from source with Vite on a free port,
 * drives Debian's Chromium with Playwright, and stops both at the end.
 *
 *   pnpm screenshots                # every state
 *   pnpm screenshots -- error max   # only the states whose name contains one of the words
 */

import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright';
import { createServer, preview } from 'vite';
import { chromiumArgs, chromiumExecutablePath } from './chromium.js';

const ROOT = resolve(import.meta.dirname, '..');
const DEMO = join(ROOT, 'apps/demo');
const OUT = join(ROOT, 'screenshots');

interface Shot {
  readonly name: string;
  /** Query of the demo: fixture, fault, speed. */
  readonly query?: Record<string, string>;
  /** What to type; nothing for the empty state. */
  readonly prompt?: string;
  /** Statuses of the last answer to wait for before the picture. */
  readonly until?: readonly string[];
  /** Extra steps before the picture (open a popover, scroll). */
  readonly before?: (page: Page) => Promise<void>;
}

const ENDED = ['complete', 'interrupted', 'error', 'aborted'];

const SHOTS: readonly Shot[] = [
  { name: 'empty' },
  {
    name: 'markdown-answer',
    query: { fixture: 'long-markdown', speed: 'fast' },
    prompt: 'Write a long answer in markdown',
    until: ENDED,
  },
  {
    name: 'streaming',
    query: { fixture: 'long-markdown', speed: 'slow' },
    prompt: 'Write a long answer in markdown',
    until: ['streaming'],
    before: (page) => page.waitForTimeout(1500),
  },
  {
    name: 'tool-call',
    query: { fixture: 'spec-tool-use', speed: 'fast' },
    prompt: 'What is the weather in San Francisco?',
    until: ['complete'],
  },
  {
    name: 'thinking',
    query: { fixture: 'spec-thinking', speed: 'fast' },
    prompt: 'Think it through',
    until: ENDED,
  },
  {
    name: 'web-search',
    query: { fixture: 'spec-web-search', speed: 'fast' },
    prompt: 'Search the web',
    until: ENDED,
  },
  {
    name: 'max-tokens',
    query: { fixture: 'max-tokens', speed: 'fast' },
    prompt: 'Tell me everything',
    until: ENDED,
  },
  {
    name: 'refusal',
    query: { fixture: 'refusal', speed: 'fast' },
    prompt: 'Something it declines',
    until: ENDED,
  },
  {
    name: 'interrupted',
    query: { fixture: 'long-markdown', speed: 'fast', fault: 'drop-after-events:5' },
    prompt: 'Write a long answer',
    until: ENDED,
  },
  {
    name: 'error-429',
    query: { fixture: 'spec-basic-text', speed: 'fast', fault: 'http:429' },
    prompt: 'Hello',
    until: ENDED,
  },
  {
    name: 'error-401',
    query: { fixture: 'spec-basic-text', speed: 'fast', fault: 'http:401' },
    prompt: 'Hello',
    until: ENDED,
  },
  {
    name: 'auto-fixture-weather',
    query: { speed: 'fast' },
    prompt: 'What is the weather in San Francisco?',
    until: ['complete'],
  },
  {
    name: 'continue-after-max-tokens',
    query: { speed: 'fast' },
    prompt: 'Summarize the French Revolution',
    until: ['complete'],
    before: async (page) => {
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.locator('[role="log"][aria-busy="false"]').waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'branches',
    query: { fixture: 'spec-basic-text', speed: 'fast' },
    prompt: 'Hello',
    until: ['complete'],
    before: async (page) => {
      await page.getByRole('button', { name: 'Regenerate' }).last().click();
      await page.locator('[role="log"][aria-busy="false"]').waitFor({ timeout: 30_000 });
      await page.getByRole('textbox', { name: 'Message' }).focus();
    },
  },
  {
    name: 'edit-with-files',
    query: { fixture: 'spec-basic-text', speed: 'fast' },
    before: async (page) => {
      // A 1×1 PNG and a text file, attached through the composer's file input.
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      await page.locator('input[type="file"]').setInputFiles([
        { name: 'screenshot.png', mimeType: 'image/png', buffer: png },
        { name: 'meeting-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes.') },
      ]);
      await page.getByRole('button', { name: 'Remove meeting-notes.txt' }).waitFor();
      const field = page.getByRole('textbox', { name: 'Message' });
      await field.fill('What do these say?');
      await field.press('Enter');
      await page.locator('[role="log"][aria-busy="false"]').waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('button', { name: 'Remove screenshot.png' }).click();
    },
  },
  {
    name: 'details-popover',
    query: { fixture: 'spec-basic-text', speed: 'fast' },
    prompt: 'Hello',
    until: ['complete'],
    before: async (page) => {
      await page.getByRole('button', { name: 'Stream details' }).last().click();
      await page.getByText('Time to first token').last().waitFor();
    },
  },
];

/** The key stories (Storybook ids): the parts a demo state does not show on its own. */
const STORIES: readonly string[] = [
  'components-codeblock--highlighted',
  'components-toolcallcard--awaiting-approval',
  'components-toolcallcard--stopped',
  'components-citationlist--answer-with-markers',
  'components-thinkingblockview--streaming',
  'components-textblockview--plain',
  'components-textblockview--long-answer',
  'components-overflowing-content--wide-table',
  'conversation-branchpicker--three-versions',
  'conversation-threadlist--by-date',
  'conversation-threadlist--answering',
  'conversation-attachmentlist--in-composer',
  'conversation-attachmentlist--on-sent-message',
  'components-resumecontrol--interrupted',
  'components-resumecontrol--non-retryable-error',
];

const VIEWPORTS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createNetServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

async function take(browser: Browser, base: string, shot: Shot): Promise<string[]> {
  const written: string[] = [];
  for (const viewport of VIEWPORTS) {
    for (const theme of THEMES) {
      const context = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        colorScheme: theme,
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      const query = new URLSearchParams({ ...shot.query, theme });
      await page.goto(`${base}?${query}`);
      const field = page.getByRole('textbox', { name: 'Message' });
      await field.waitFor({ state: 'visible', timeout: 30_000 });
      if (shot.prompt) {
        await field.fill(shot.prompt);
        await field.press('Enter');
        const answer = page.getByRole('article', { name: 'Assistant' }).last();
        await answer.waitFor({ state: 'attached' });
        await page.waitForFunction(
          ([wanted]) => {
            const articles = document.querySelectorAll('article[aria-label="Assistant"]');
            const last = articles[articles.length - 1];
            return wanted.includes(last?.getAttribute('data-status') ?? '');
          },
          [shot.until ?? ENDED] as const,
          { timeout: 30_000 },
        );
        // Tool round trips and paused turns go on by themselves: wait until the chat is idle.
        if (shot.until !== undefined && shot.until !== ENDED && !shot.until.includes('streaming'))
          await page.locator('[role="log"][aria-busy="false"]').waitFor({ timeout: 30_000 });
      }
      await shot.before?.(page);
      // Let the last frame and fonts settle.
      await page.waitForTimeout(300);
      const wide = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      if (wide)
        console.warn(`  ! ${shot.name} ${viewport.name} ${theme}: the page scrolls sideways`);
      const file = join(OUT, `${shot.name}-${viewport.name}-${theme}.png`);
      await page.screenshot({ path: file });
      written.push(file);
      await context.close();
    }
  }
  return written;
}

/** Builds Storybook once, serves it, and writes each key story in both themes and widths. */
async function takeStories(browser: Browser, ids: readonly string[]): Promise<void> {
  const outDir = join(tmpdir(), 'message-stream-screenshots-storybook');
  execFileSync('pnpm', ['exec', 'storybook', 'build', '-o', outDir, '--quiet'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const server = await preview({
    root: ROOT,
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: await freePort(), strictPort: true },
  });
  const base = server.resolvedUrls?.local[0] ?? '';
  try {
    for (const id of ids) {
      for (const viewport of VIEWPORTS) {
        for (const theme of THEMES) {
          const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
          const page = await context.newPage();
          await page.goto(`${base}iframe.html?id=${id}&viewMode=story&globals=theme:${theme}`);
          await page.locator('#storybook-root > *').first().waitFor({ timeout: 30_000 });
          // Highlighting and lazy chunks arrive after the first render.
          await page.waitForTimeout(1500);
          await page.screenshot({ path: join(OUT, `story-${id}-${viewport.name}-${theme}.png`) });
          await context.close();
        }
      }
      console.log(`story ${id}: 4 PNGs`);
    }
  } finally {
    await server.close();
  }
}

async function main() {
  const filters = process.argv.slice(2).filter((arg) => arg !== '--');
  const shots = filters.length
    ? SHOTS.filter((shot) => filters.some((word) => shot.name.includes(word)))
    : SHOTS;
  await mkdir(OUT, { recursive: true });
  const port = await freePort();
  // No key: the demo answers from its mock.
  delete process.env.ANTHROPIC_API_KEY;
  const server = await createServer({
    root: DEMO,
    configFile: join(DEMO, 'vite.config.ts'),
    logLevel: 'warn',
    server: { host: '127.0.0.1', port, strictPort: true },
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath,
    headless: true,
    args: [...chromiumArgs],
  });
  try {
    for (const shot of shots) {
      const files = await take(browser, `http://127.0.0.1:${port}/`, shot);
      console.log(`${shot.name}: ${files.length} PNGs`);
    }
    const stories = filters.length
      ? STORIES.filter((id) => filters.some((word) => id.includes(word)))
      : STORIES;
    if (stories.length > 0) await takeStories(browser, stories);
    console.log(`Written to ${OUT}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
