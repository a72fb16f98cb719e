/**
 * Playwright helpers for the demo: Debian's Chromium, headless, and the page's controls by
 * their accessible roles and names.
 */
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright';
import { chromiumArgs, chromiumExecutablePath } from '../../../../scripts/chromium.js';

/** Debian's Chromium: Playwright downloads no browser of its own here. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutablePath,
    headless: true,
    args: [...chromiumArgs],
  });
}

/** How long one UI step may take (a request, a rendering); tests stay well under their timeout. */
export const STEP_MS = 15_000;

export interface DemoPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught page errors and console errors, for the assertion messages. */
  readonly errors: string[];
}

/** A fresh context (no service worker, no storage from another test) with the demo loaded. */
export async function openDemo(
  browser: Browser,
  url: string,
  options: {
    readonly beforeLoad?: (page: Page) => void | Promise<void>;
    /** Default 1100 × 800; a phone is 390 × 844. */
    readonly viewport?: { readonly width: number; readonly height: number };
  } = {},
): Promise<DemoPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 800 },
  });
  context.setDefaultTimeout(STEP_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await options.beforeLoad?.(page);
  await page.goto(url);
  // The app renders only once the mock (or, live, nothing) is ready.
  await composerField(page).waitFor({ state: 'visible' });
  return { context, page, errors };
}

/** Reloads the page and waits until the app shows again (its saved conversations read back). */
export async function reload(page: Page): Promise<void> {
  await page.reload();
  await composerField(page).waitFor({ state: 'visible' });
}

export interface Scenario {
  readonly fixture?: string;
  /** A label of the Fault select, e.g. `Drop the connection after 5 events`. */
  readonly fault?: string;
  readonly speed?: 'fast' | 'realistic' | 'slow';
}

/** Sets the scenario picker (mock mode only). */
export async function pickScenario(page: Page, scenario: Scenario): Promise<void> {
  const picker = page.getByRole('group', { name: 'Scenario' });
  if (scenario.fixture !== undefined) {
    await picker.getByRole('combobox', { name: /^Fixture/ }).selectOption(scenario.fixture);
  }
  if (scenario.fault !== undefined) {
    await picker.getByRole('combobox', { name: /^Fault/ }).selectOption({ label: scenario.fault });
  }
  if (scenario.speed !== undefined) {
    await picker.getByRole('combobox', { name: /^Speed/ }).selectOption(scenario.speed);
  }
}

export const composerField = (page: Page): Locator =>
  page.getByRole('textbox', { name: 'Message' });

export const conversation = (page: Page): Locator =>
  page.getByRole('log', { name: 'Demo conversation' });

/** The newest answer of the assistant. */
export const lastAnswer = (page: Page): Locator =>
  conversation(page).getByRole('article', { name: 'Assistant' }).last();

export const button = (page: Page, name: string): Locator =>
  page.getByRole('button', { name, exact: true });

/** Types a message and sends it with the Send button; resolves once the Stop button shows. */
export async function send(page: Page, text: string): Promise<void> {
  const answers = await conversation(page).getByRole('article', { name: 'Assistant' }).count();
  await composerField(page).fill(text);
  await button(page, 'Send').click();
  // The answer's article is there at once (status idle, then streaming).
  await conversation(page)
    .getByRole('article', { name: 'Assistant' })
    .nth(answers)
    .waitFor({ state: 'attached' });
}

/** The answer's `data-status` (the stream's status: streaming, complete, interrupted, …). */
export const statusOf = (answer: Locator): Promise<string | null> =>
  answer.getAttribute('data-status');

/**
 * Waits until the answer's stream status is one of `statuses`, and returns it. After Resume,
 * wait for the outcome itself (`complete`): until the continuation's first state is shown,
 * the answer still has its previous status.
 */
export async function waitForStatus(
  answer: Locator,
  statuses: readonly string[],
  timeout = STEP_MS,
): Promise<string> {
  const handle = await answer.elementHandle({ timeout });
  if (handle === null) throw new Error('The answer is not in the page.');
  try {
    await answer
      .page()
      .waitForFunction(
        ([element, wanted]) => wanted.includes(element.getAttribute('data-status') ?? ''),
        [handle, statuses] as const,
        { timeout },
      );
  } catch (error) {
    const status = await handle.getAttribute('data-status').catch(() => 'gone');
    throw new Error(
      `The answer's status stayed "${status}", not ${statuses.join(' | ')}: ${String(error)}`,
    );
  }
  return (await handle.getAttribute('data-status')) ?? '';
}

/** Visible text with whitespace runs collapsed: what a reader sees, independent of layout. */
export const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The answer's text blocks only (thinking, tool cards and their buttons left out), normalized:
 * all of it, as a reader scrolling through sees it. A long answer's groups of blocks (and of
 * code lines) out of view are skipped (`content-visibility: auto`), and `innerText` leaves
 * skipped text out, so they are drawn for the read and skipped again after it.
 */
export async function answerText(answer: Locator): Promise<string> {
  const texts = answer.locator('.ms-text');
  const parts = await texts.evaluateAll((elements) => {
    const skippable = elements.flatMap((element) => [
      ...element.querySelectorAll<HTMLElement>('.ms-markdown__group, .ms-code__group'),
    ]);
    for (const group of skippable) group.style.contentVisibility = 'visible';
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point (a line break between blocks, none for what CSS hides).
    const read = elements.map((element) => (element as HTMLElement).innerText);
    for (const group of skippable) group.style.removeProperty('content-visibility');
    return read;
  });
  return normalize(parts.join('\n'));
}
