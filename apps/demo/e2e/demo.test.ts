/**
 * The built demo in headless Chromium, answering from the mock in its service worker: what a
 * user sees of a streamed answer, its thinking, a tool call, a dropped connection, Stop and a
 * revoked key.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  answerText,
  button,
  composerField,
  conversation,
  type DemoPage,
  lastAnswer,
  launchChromium,
  openDemo,
  pickScenario,
  STEP_MS,
  send,
  statusOf,
  waitForStatus,
} from './support/browser.js';
import { PNG } from './support/files.js';
import {
  fixtureText,
  fixtureToolInput,
  inlineMarkdownAsText,
  isPartialOf,
} from './support/fixtures.js';
import { snapshots, startRecording } from './support/recorder.js';

const ENDED = ['complete', 'interrupted', 'error', 'aborted'];

/** How much of the last answer's text the page shows now. */
const snapshotLength = async (page: Page) => (await answerText(lastAnswer(page))).length;

let browser: Browser;
let demo: DemoPage;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  demo = await openDemo(browser, inject('demoUrl'));
});
afterEach(async () => {
  await demo?.context.close();
});

describe('the built demo', () => {
  it('serves the mock service worker and answers from it', async () => {
    const { page } = demo;
    const controlled = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.scriptURL ?? '';
    });
    expect(controlled).toMatch(/\/mockServiceWorker\.js$/);
    await expect(page.getByText('Built-in mock (no key, no network)').isVisible()).resolves.toBe(
      true,
    );
  });

  it('shows the answer arriving in several steps at realistic speed', async () => {
    const { page } = demo;
    await pickScenario(page, { fixture: 'text-pings', speed: 'realistic' });
    await startRecording(page);
    await send(page, 'What is the difference between let and const?');
    await expect(waitForStatus(lastAnswer(page), ENDED)).resolves.toBe('complete');

    const expected = inlineMarkdownAsText(await fixtureText('text-pings'));
    await expect(answerText(lastAnswer(page))).resolves.toBe(expected);

    // Every length the reader saw before the end: partial answers that only grow.
    const seen = await snapshots(page);
    const lengths = seen
      .filter((s) => s.status === 'streaming' && s.text !== '' && s.text !== expected)
      .map((s) => s.text.length);
    const distinct = [...new Set(lengths)];
    expect(distinct.length, `lengths seen: ${lengths.join(', ')}`).toBeGreaterThanOrEqual(3);
    expect(distinct.every((length) => length < expected.length)).toBe(true);
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
    // Paced like a network, not dumped at once: the partial states span real time.
    const partial = seen.filter((s) => s.status === 'streaming' && s.text !== '');
    const span = (partial.at(-1)?.at ?? 0) - (partial[0]?.at ?? 0);
    expect(span).toBeGreaterThan(50);
  });

  it('collapses the thinking when the answer starts, and toggles it by keyboard', async () => {
    const { page } = demo;
    // Thinking, then a redacted block, then an answer in several deltas: paced slowly enough
    // (8 deltas a second) that each phase spans many frames.
    await pickScenario(page, { fixture: 'redacted-thinking', speed: 'slow' });
    await startRecording(page);
    await send(page, 'Are there an infinite number of prime numbers such that n mod 4 == 3?');
    await expect(waitForStatus(lastAnswer(page), ENDED, 20_000)).resolves.toBe('complete');

    const seen = await snapshots(page);
    const trace = JSON.stringify(seen.map((s) => [s.status, s.text.length, s.thinkingExpanded]));
    // Open while the thinking streams and no answer text is there yet…
    const beforeAnswer = seen.filter((s) => s.thinkingExpanded !== null && s.text === '');
    expect(beforeAnswer.length, trace).toBeGreaterThan(0);
    expect(
      beforeAnswer.every((s) => s.thinkingExpanded === 'true'),
      trace,
    ).toBe(true);
    // …and closed by itself from the first state with answer text on, while the answer streams.
    const withAnswer = seen.filter((s) => s.text !== '');
    expect(
      withAnswer.some((s) => s.status === 'streaming'),
      trace,
    ).toBe(true);
    expect(
      withAnswer.every((s) => s.thinkingExpanded === 'false'),
      trace,
    ).toBe(true);
    await expect(
      lastAnswer(page).getByText('Some reasoning was redacted').isVisible(),
    ).resolves.toBe(true);

    const toggle = lastAnswer(page).getByRole('button', { name: /^Thought/ });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    const reasoning = lastAnswer(page).getByRole('group', { name: /^Thought/ });
    await expect(reasoning.isVisible()).resolves.toBe(false);

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => reasoning.isVisible()).toBe(true);
    await expect(reasoning.textContent()).resolves.toMatch(/\S/);

    await page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => reasoning.isVisible()).toBe(false);

    await page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    // The focus stayed on the disclosure button throughout.
    await expect(toggle.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
  });

  it('fills the tool card while its JSON input streams', async () => {
    const { page } = demo;
    const input = await fixtureToolInput('spec-tool-use');
    const final = JSON.stringify(input, null, 2);
    await pickScenario(page, { fixture: 'spec-tool-use', speed: 'slow' });
    await startRecording(page);
    // The call shows as a compact row: open it to watch the input arrive, the moment it shows.
    // Clicked from here, on a loaded machine the click came as the input ended and the card
    // opened for approval by itself, and closed it.
    await page.evaluate(() => {
      const log = document.querySelector('[role="log"]');
      if (!log) throw new Error('No conversation log in the page.');
      const observer = new MutationObserver(() => {
        const row = log.querySelector<HTMLButtonElement>('.ms-tool__row[aria-expanded="false"]');
        if (row === null) return;
        observer.disconnect();
        row.click();
      });
      observer.observe(log, { subtree: true, childList: true });
    });
    await send(page, "What's the weather like in San Francisco?");

    const card = lastAnswer(page).getByRole('group', { name: /^Tool get_weather/ });
    await card.waitFor({ state: 'visible', timeout: 20_000 });
    // The whole input, formatted, once the block is complete.
    await expect
      .poll(() => card.locator('pre code').textContent(), { timeout: 20_000 })
      .toBe(final);

    const shown = (await snapshots(page))
      .map((s) => s.toolInput)
      .filter((text): text is string => text !== null && text !== '');
    const partial = [...new Set(shown)].filter((text) => text !== final);
    expect(partial.length, `inputs seen: ${JSON.stringify(shown)}`).toBeGreaterThanOrEqual(2);
    for (const text of partial) {
      // Valid, formatted JSON at every step, consistent with the final input…
      const value = JSON.parse(text) as unknown;
      expect(text).toBe(JSON.stringify(value, null, 2));
      expect(isPartialOf(value, input), text).toBe(true);
    }
    // …that only grows.
    const lengths = partial.map((text) => text.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(lengths.every((length) => length < final.length)).toBe(true);
  });

  it('asks before it runs the weather tool, and answers with its result once approved', async () => {
    const { page } = demo;
    await pickScenario(page, { fixture: 'spec-tool-use', speed: 'fast' });
    await send(page, 'What is the weather in San Francisco?');
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor({ state: 'visible', timeout: 20_000 });
    await approve.click();
    // The result goes back, and the mock's follow-up answer quotes it.
    await expect
      .poll(() => page.getByText('18 °C, light wind, clear sky').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
  });

  it('keeps each conversation in its own thread', async () => {
    const { page } = demo;
    await pickScenario(page, { fixture: 'spec-basic-text', speed: 'fast' });
    await send(page, 'Hello there');
    await waitForStatus(lastAnswer(page), ['complete']);
    const threads = page.getByRole('navigation', { name: 'Conversations' });
    await threads.getByRole('button', { name: 'New conversation' }).click();
    // The new thread is empty: its welcome shows, the first thread is listed by its title.
    await page.getByText('What shall we try?').waitFor({ state: 'visible' });
    // Pressed again, it stays on that empty thread rather than piling up empty ones, listed
    // as "Untitled" (never the button's own words).
    const again = threads.getByRole('button', { name: 'New conversation' });
    await expect(
      threads.getByRole('button', { name: 'Untitled', exact: true }).count(),
    ).resolves.toBe(1);
    await again.click();
    await again.click();
    await expect(threads.getByRole('listitem').count()).resolves.toBe(2);
    await threads.getByRole('button', { name: /^Hello there/ }).click();
    await page.getByText('Hello there').first().waitFor({ state: 'visible' });
    await expect(page.getByText('What shall we try?').count()).resolves.toBe(0);
  });

  it('on a phone, puts the menu away with Escape, focus back on Menu', async () => {
    const phone = await openDemo(browser, inject('demoUrl'), {
      viewport: { width: 390, height: 844 },
    });
    try {
      const { page } = phone;
      const menu = page.getByRole('button', { name: 'Menu' });
      await menu.click();
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
      await page.getByRole('combobox', { name: 'Fixture' }).focus();
      await page.keyboard.press('Escape');
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
      await expect(page.locator('#demo-settings').isHidden()).resolves.toBe(true);
      await expect(menu.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      // Opened again from the keyboard, with focus still on Menu: Escape there puts it away.
      await page.keyboard.press('Enter');
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
      await expect(
        page.getByRole('complementary', { name: 'Conversations and settings' }).isVisible(),
      ).resolves.toBe(true);
      await page.keyboard.press('Escape');
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
      await expect(menu.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    } finally {
      await phone.context.close();
    }
  });

  it('on a phone, opens the menu over the chat and puts it away when a conversation is picked', async () => {
    const phone = await openDemo(browser, inject('demoUrl'), {
      viewport: { width: 390, height: 844 },
    });
    try {
      const { page } = phone;
      const menu = page.getByRole('button', { name: 'Menu' });
      const composer = page.getByRole('textbox', { name: 'Message' });
      const composerTop = async () => (await composer.boundingBox())?.y ?? Number.NaN;
      const before = await composerTop();
      await menu.click();
      // Over the chat, not pushing it down: the composer stays where it was, out of reach.
      await expect(composerTop()).resolves.toBe(before);
      await expect(
        page.locator('main').evaluate((main) => (main as HTMLElement).inert),
      ).resolves.toBe(true);
      const threads = page.getByRole('navigation', { name: 'Conversations' });
      await threads.getByRole('button', { name: 'New conversation' }).click();
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
      await expect(page.locator('#demo-settings').isHidden()).resolves.toBe(true);
      // Focus is not left on the page: it is back on Menu, as after Escape.
      await expect(menu.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await expect(
        page.locator('main').evaluate((main) => (main as HTMLElement).inert),
      ).resolves.toBe(false);
      // A tap beside the open menu puts it away too.
      await menu.click();
      await page.mouse.click(200, 800);
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    } finally {
      await phone.context.close();
    }
  });

  it('keeps streaming an answer in a thread switched away from', async () => {
    const { page } = demo;
    await pickScenario(page, { fixture: 'long-markdown', speed: 'realistic' });
    await send(page, 'Explain how to build a streaming chat UI.');
    await expect
      .poll(async () => (await answerText(lastAnswer(page))).length, { timeout: STEP_MS })
      .toBeGreaterThan(0);
    const threads = page.getByRole('navigation', { name: 'Conversations' });
    const left = await snapshotLength(page);
    await threads.getByRole('button', { name: 'New conversation' }).click();
    await page.getByText('What shall we try?').waitFor({ state: 'visible' });
    // Away from it for a moment, then back: it went on (no Stop), and goes on still.
    await page.waitForTimeout(1_000);
    await threads.getByRole('button', { name: /^Explain how to build/ }).click();
    await expect(statusOf(lastAnswer(page))).resolves.toBe('streaming');
    expect(await snapshotLength(page)).toBeGreaterThan(left);
    await expect(lastAnswer(page).getByText('Stopped', { exact: true }).count()).resolves.toBe(0);
  });

  it('takes a pasted image and dropped files in the composer, refusing others by name', async () => {
    const { page } = demo;
    await pickScenario(page, { fixture: 'spec-basic-text', speed: 'fast' });
    // Real clipboard and drag events with files, as Chromium dispatches them.
    await composerField(page).evaluate((field, png) => {
      const data = new DataTransfer();
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
      field.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, PNG);
    await button(page, 'Remove shot.png').waitFor();
    const dropped = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['Buy milk.'], 'notes.txt', { type: 'text/plain' }));
      data.items.add(new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }));
      return data;
    });
    const composer = page.locator('form.ms-composer');
    await composer.dispatchEvent('dragover', { dataTransfer: dropped });
    await composer.dispatchEvent('drop', { dataTransfer: dropped });
    await button(page, 'Remove notes.txt').waitFor();
    await expect(composer.getByRole('alert').textContent()).resolves.toContain(
      'tool.exe cannot be attached',
    );
    await expect(button(page, 'Remove tool.exe').count()).resolves.toBe(0);

    const request = page.waitForRequest((r) => r.url().endsWith('/v1/messages'));
    await send(page, 'What are these?');
    const body = JSON.parse((await request).postData() ?? '{}') as {
      messages: { content: { type: string }[] }[];
    };
    expect(body.messages[0]?.content.map((block) => block.type)).toEqual([
      'image',
      'document',
      'text',
    ]);
    await waitForStatus(lastAnswer(page), ['complete']);
    const sent = conversation(page).getByRole('list', { name: 'Attached files' });
    // Each file by its name, an image's too (its block has no title: the turn keeps the names).
    await expect(sent.locator('.ms-attachment__name').allTextContents()).resolves.toEqual([
      'shot.png',
      'notes.txt',
    ]);
    // The composer is empty again.
    await expect(button(page, 'Remove shot.png').count()).resolves.toBe(0);
  });

  it('resumes a dropped connection to the full answer, without duplicated text', async () => {
    const { page } = demo;
    // The uninterrupted answer first, as this page renders it.
    await pickScenario(page, { fixture: 'long-markdown', fault: 'none', speed: 'fast' });
    // The big fixtures are chunks of the build (a lazy module, or the raw .sse), fetched by
    // the page when first asked for.
    const asset = page.waitForResponse((response) =>
      /\/assets\/long-markdown[\w.-]*\.(sse|js)$/.test(response.url()),
    );
    await send(page, 'Explain how to build a streaming chat UI.');
    await expect(asset.then((response) => response.status())).resolves.toBe(200);
    await expect(waitForStatus(lastAnswer(page), ENDED)).resolves.toBe('complete');
    const whole = await answerText(lastAnswer(page));
    expect(whole.length).toBeGreaterThan(30_000);

    // The same answer, paced like a network and cut after 5 events.
    await pickScenario(page, { fault: 'Drop the connection after 5 events', speed: 'realistic' });
    await send(page, 'Explain how to build a streaming chat UI.');
    await expect(waitForStatus(lastAnswer(page), ENDED)).resolves.toBe('interrupted');
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/network connection failed/i);
    const partial = await answerText(lastAnswer(page));
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(whole.length / 10);

    // The rest, quickly.
    await pickScenario(page, { speed: 'fast' });
    await button(page, 'Resume').click();
    await waitForStatus(lastAnswer(page), ['complete']);
    await expect(answerText(lastAnswer(page))).resolves.toBe(whole);
    await expect(alert.count()).resolves.toBe(0);
    await expect(button(page, 'Resume').count()).resolves.toBe(0);
  });

  it('keeps the partial answer on Stop and offers to resume it', async () => {
    const { page } = demo;
    await pickScenario(page, { fixture: 'long-markdown', fault: 'none', speed: 'realistic' });
    await send(page, 'Explain how to build a streaming chat UI.');
    await expect
      .poll(async () => (await answerText(lastAnswer(page))).length, { timeout: 15_000 })
      .toBeGreaterThan(200);

    await button(page, 'Stop').click();
    await expect(waitForStatus(lastAnswer(page), ENDED)).resolves.toBe('aborted');
    const kept = await answerText(lastAnswer(page));
    expect(kept.length).toBeGreaterThan(200);
    // At 50 deltas a second, half a second would add some 25 deltas if anything still arrived.
    await page.waitForTimeout(500);
    await expect(answerText(lastAnswer(page))).resolves.toBe(kept);
    await expect(lastAnswer(page).getAttribute('data-status')).resolves.toBe('aborted');

    // Something arrived, so Resume (not Retry) is the one way on; the answer keeps its mark.
    await expect(button(page, 'Resume').isEnabled()).resolves.toBe(true);
    await expect(button(page, 'Retry').count()).resolves.toBe(0);
    await expect(lastAnswer(page).getByText('Stopped').isVisible()).resolves.toBe(true);
    await expect(button(page, 'Send').isVisible()).resolves.toBe(true);
    await expect(button(page, 'Stop').count()).resolves.toBe(0);
  });

  it('hits the first message of every new conversation with the fault picked', async () => {
    const { page } = demo;
    await pickScenario(page, {
      fixture: 'spec-basic-text',
      fault: '529 overloaded',
      speed: 'fast',
    });
    const threads = page.getByRole('navigation', { name: 'Conversations' });
    // The same first message in two conversations: the mock counts requests by scenario, and
    // each conversation's first request must be a first to it.
    for (const round of [1, 2]) {
      if (round === 2) {
        await threads.getByRole('button', { name: 'New conversation' }).click();
        await page.getByText('What shall we try?').waitFor({ state: 'visible' });
      }
      await send(page, 'Hello');
      await expect(waitForStatus(lastAnswer(page), ENDED)).resolves.toBe('error');
      await expect(page.getByRole('alert').getAttribute('data-error-type')).resolves.toBe(
        'overloaded_error',
      );
    }
  });

  it('says the key was revoked on a 401', async () => {
    const { page } = demo;
    await pickScenario(page, {
      fixture: 'text-pings',
      fault: '401 revoked key (gateway shape)',
      speed: 'fast',
    });
    await send(page, 'Hello');
    await expect(waitForStatus(lastAnswer(page), ENDED)).resolves.toBe('error');
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toContain(
      'The API key has been revoked or does not exist. Use a valid key.',
    );
    await expect(alert.getAttribute('data-error-type')).resolves.toBe('authentication_error');
    // Nothing to resume from; Retry for once the key is fixed.
    await expect(button(page, 'Resume').count()).resolves.toBe(0);
    await expect(button(page, 'Retry').count()).resolves.toBe(1);
  });
});
