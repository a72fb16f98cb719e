/**
 * The demo's conversations across a real page reload, in Chromium: what the page saved in
 * IndexedDB is what it shows when it loads again. Each test waits until the state it is about
 * checks is saved (read from the page's IndexedDB), reloads, and looks at the page only.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  answerText,
  button,
  conversation,
  type DemoPage,
  lastAnswer,
  launchChromium,
  openDemo,
  pickScenario,
  reload,
  send,
  waitForStatus,
} from './support/browser.js';
import { PNG } from './support/files.js';
import { savedRecords, savedText, savedTurns } from './support/storage.js';

let browser: Browser;
let demo: DemoPage | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await demo?.context.close();
  demo = undefined;
});

/** The demo with a scenario in its address: a reload keeps it. */
async function open(query: string, beforeLoad?: (page: Page) => Promise<void>): Promise<Page> {
  demo = await openDemo(browser, `${inject('demoUrl')}?${query}`, { beforeLoad });
  return demo.page;
}

const threadList = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const threadTitles = (page: Page) => threadList(page).locator('.ms-thread__open').allInnerTexts();
const shownThread = (page: Page) =>
  threadList(page).locator('.ms-thread__open[aria-current="page"]').textContent();
const userMessages = (page: Page) => conversation(page).getByRole('article', { name: 'You said' });

/** Waits until the saved turns satisfy `ready` (the write runs at most every half second). */
async function saved(
  page: Page,
  ready: (turns: Awaited<ReturnType<typeof savedTurns>>) => boolean,
) {
  await expect.poll(async () => ready(await savedTurns(page)), { timeout: 10_000 }).toBe(true);
}

describe('the demo after a page reload', () => {
  it('shows the thread again, both versions of an edited message, and the thread list', async () => {
    const page = await open('fixture=spec-basic-text&speed=fast');
    await send(page, 'Hello there');
    await waitForStatus(lastAnswer(page), ['complete']);
    const answer = await answerText(lastAnswer(page));
    expect(answer).not.toBe('');

    // Edit the question: a second version of it, with its own answer.
    await userMessages(page).first().getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Edit message' }).fill('Hello again');
    await page.getByRole('button', { name: 'Send edited message' }).click();
    await waitForStatus(lastAnswer(page), ['complete']);
    await userMessages(page).getByRole('group', { name: 'Version 2 of 2' }).waitFor();

    // A second thread, then back to the first: the list has two, the first is shown.
    await threadList(page).getByRole('button', { name: 'New conversation' }).click();
    await send(page, 'Second thread');
    await waitForStatus(lastAnswer(page), ['complete']);
    // Titled by its first message, which the edit did not rename.
    await threadList(page)
      .getByRole('button', { name: /^Hello there/ })
      .click();
    await userMessages(page).getByText('Hello again').waitFor();
    const titles = await threadTitles(page);
    expect(titles).toHaveLength(2);
    await saved(
      page,
      (turns) =>
        turns.length === 6 &&
        turns.every((turn) => turn.role === 'user' || turn.stream?.status === 'complete'),
    );
    await expect
      .poll(async () => {
        const list = (await savedRecords(page)).find((r) => r.key.endsWith('/threads'));
        return (list?.value as { activeId?: unknown } | undefined)?.activeId ?? null;
      })
      .not.toBeNull();

    await reload(page);
    // The thread list is a part loaded on demand: wait for it rather than read it at once.
    await expect.poll(() => threadTitles(page), { timeout: 10_000 }).toEqual(titles);
    await expect.poll(() => shownThread(page), { timeout: 10_000 }).toMatch(/^Hello there/);
    const picker = userMessages(page).getByRole('group', { name: 'Version 2 of 2' });
    await picker.waitFor();
    await expect(userMessages(page).textContent()).resolves.toContain('Hello again');
    await expect(waitForStatus(lastAnswer(page), ['complete'])).resolves.toBe('complete');

    // The first version, with its answer, is there too.
    await picker.getByRole('button', { name: 'Previous version' }).click();
    await userMessages(page).getByRole('group', { name: 'Version 1 of 2' }).waitFor();
    await expect(userMessages(page).textContent()).resolves.toContain('Hello there');
    await expect(answerText(lastAnswer(page))).resolves.toBe(answer);

    // And the other thread, with its own conversation.
    await threadList(page)
      .getByRole('button', { name: /^Second thread/ })
      .click();
    await userMessages(page).getByText('Second thread').waitFor();
    await expect(waitForStatus(lastAnswer(page), ['complete'])).resolves.toBe('complete');
  });

  it('keeps what was typed and not sent', async () => {
    const page = await open('fixture=spec-basic-text&speed=fast');
    await send(page, 'Hello there');
    await waitForStatus(lastAnswer(page), ['complete']);
    await saved(page, (turns) => turns.length === 2);
    const field = page.getByRole('textbox', { name: 'Message' });
    await field.fill('Half a thought, not sent');
    await reload(page);
    await userMessages(page).getByText('Hello there').waitFor();
    await expect
      .poll(() => field.inputValue(), { timeout: 10_000 })
      .toBe('Half a thought, not sent');
  });

  it('keeps the theme picked', async () => {
    const page = await open('fixture=spec-basic-text&speed=fast');
    const dark = page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' });
    await dark.first().click();
    await reload(page);
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    await expect(dark.first().getAttribute('aria-pressed')).resolves.toBe('true');
  });

  it('starts a new saved conversation when the last one is deleted', async () => {
    const page = await open('fixture=spec-basic-text&speed=fast');
    await send(page, 'Only thread');
    await waitForStatus(lastAnswer(page), ['complete']);
    await expect.poll(() => threadTitles(page), { timeout: 10_000 }).toEqual(['Only thread']);
    await threadList(page).getByRole('button', { name: 'Delete Only thread' }).click();
    await threadList(page)
      .getByRole('group', { name: 'Delete Only thread?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    // The list is never empty: a new conversation, listed and shown, takes its place.
    await expect.poll(() => threadTitles(page), { timeout: 10_000 }).toEqual(['Untitled']);
    await send(page, 'After the delete');
    await waitForStatus(lastAnswer(page), ['complete']);
    await expect.poll(() => threadTitles(page), { timeout: 10_000 }).toEqual(['After the delete']);
    await saved(page, (turns) =>
      turns.some((turn) => turn.role === 'user' && turn.content === 'After the delete'),
    );
  });

  it('shows an answer cut off by the reload as interrupted, and Resume finishes it on its branch', async () => {
    const page = await open('fixture=long-markdown&speed=fast');
    await send(page, 'Explain how to build a streaming chat UI.');
    await waitForStatus(lastAnswer(page), ['complete']);
    const whole = await answerText(lastAnswer(page));
    expect(whole.length).toBeGreaterThan(30_000);

    // A second answer, slowly (8 deltas a second: minutes for this one), cut by the reload.
    await pickScenario(page, { speed: 'slow' });
    await lastAnswer(page).getByRole('button', { name: 'Regenerate' }).click();
    // The new answer is the last one now (the first stays a branch).
    await expect(waitForStatus(lastAnswer(page), ['streaming'], 20_000)).resolves.toBe('streaming');
    await saved(page, (turns) =>
      turns.some((turn) => turn.stream?.status === 'streaming' && savedText(turn).length > 20),
    );
    await reload(page);

    const answer = lastAnswer(page);
    await expect(waitForStatus(answer, ['interrupted'])).resolves.toBe('interrupted');
    await expect(answer.getByRole('group', { name: 'Version 2 of 2' }).count()).resolves.toBe(1);
    // Said as what happened (the page went away mid-answer), with Resume.
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /page was closed or reloaded before the answer finished/i,
    );
    const partial = await answerText(answer);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(whole.length / 10);

    // The address says fast: the rest arrives at once, into the same answer.
    await button(page, 'Resume').click();
    await waitForStatus(lastAnswer(page), ['complete']);
    await expect(answerText(lastAnswer(page))).resolves.toBe(whole);
    await expect(
      lastAnswer(page).getByRole('group', { name: 'Version 2 of 2' }).count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    // The first answer is still the other branch, whole.
    await lastAnswer(page).getByRole('button', { name: 'Previous version' }).click();
    await lastAnswer(page).getByRole('group', { name: 'Version 1 of 2' }).waitFor();
    await expect(answerText(lastAnswer(page))).resolves.toBe(whole);
  });

  it('brings back all of an answer that was on the page when it was reloaded, saved or not', async () => {
    const page = await open('fixture=long-markdown&speed=slow');
    await send(page, 'Explain how to build a streaming chat UI.');
    await expect(waitForStatus(lastAnswer(page), ['streaming'], 20_000)).resolves.toBe('streaming');
    await expect
      .poll(async () => (await answerText(lastAnswer(page))).length, { timeout: 15_000 })
      .toBeGreaterThan(40);
    // At once: no waiting for the half-second write, which the reload cuts off.
    const shown = await answerText(lastAnswer(page));
    await reload(page);
    const answer = lastAnswer(page);
    await expect(waitForStatus(answer, ['interrupted'])).resolves.toBe('interrupted');
    const back = await answerText(answer);
    expect(back.length).toBeGreaterThanOrEqual(shown.length);
    expect(back.startsWith(shown.slice(0, 40))).toBe(true);
  });

  it('keeps a tool call waiting for approval, and runs it when approved after the reload', async () => {
    const page = await open('fixture=spec-tool-use&speed=fast');
    await send(page, 'What is the weather in San Francisco?');
    await button(page, 'Approve').waitFor();
    await saved(page, (turns) =>
      turns.some((turn) =>
        Object.values(turn.toolResults ?? {}).some((r) => r.status === 'awaiting-approval'),
      ),
    );

    await reload(page);
    const approve = lastAnswer(page).getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    await expect(lastAnswer(page).getByRole('button', { name: 'Deny' }).count()).resolves.toBe(1);
    await approve.click();
    // The tool ran: its result went back and the mock's follow-up answer quotes it.
    await expect
      .poll(() => page.getByText('18 °C, light wind, clear sky').count())
      .toBeGreaterThan(0);
    await waitForStatus(lastAnswer(page), ['complete']);
    await expect(button(page, 'Approve').count()).resolves.toBe(0);
  });

  it('shows the files a message was sent with again', async () => {
    const page = await open('fixture=spec-basic-text&speed=fast');
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Buy milk.\n') },
      { name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') },
    ]);
    await button(page, 'Remove notes.txt').waitFor();
    await send(page, 'What do these say?');
    await waitForStatus(lastAnswer(page), ['complete']);
    const sent = userMessages(page).getByRole('list', { name: 'Attached files' });
    const names = () => sent.locator('.ms-attachment__name').allInnerTexts();
    // Each file by its name: a document's is its block's title, an image's is kept by the turn.
    await expect(names()).resolves.toEqual(['notes.txt', 'dot.png']);
    await saved(page, (turns) =>
      turns.some((turn) => turn.role === 'user' && JSON.stringify(turn.content).includes(PNG)),
    );

    await reload(page);
    await sent.waitFor();
    // The names were saved with the turn.
    await expect(names()).resolves.toEqual(['notes.txt', 'dot.png']);
    await expect(sent.locator('img').getAttribute('src')).resolves.toBe(
      `data:image/png;base64,${PNG}`,
    );
    await expect(userMessages(page).textContent()).resolves.toContain('What do these say?');
  });

  it('says when the browser refuses to save, and keeps the conversation on the page', async () => {
    const page = await open('fixture=spec-basic-text&speed=fast', async (target) => {
      // Every IndexedDB write fails the way a full disk makes it fail.
      await target.addInitScript(() => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      });
    });
    await send(page, 'Hello there');
    await waitForStatus(lastAnswer(page), ['complete']);
    const problem = page.getByText(/^Could not save the conversations in this browser/);
    await problem.waitFor();
    await expect(problem.textContent()).resolves.toContain('QuotaExceededError');
    const answer = await answerText(lastAnswer(page));
    expect(answer).not.toBe('');
    // Nothing is lost in memory: the conversation goes on.
    await send(page, 'And again');
    await waitForStatus(lastAnswer(page), ['complete']);
    await expect(userMessages(page).count()).resolves.toBe(2);
    await expect(
      answerText(conversation(page).getByRole('article', { name: 'Assistant' }).first()),
    ).resolves.toBe(answer);
  });
});
