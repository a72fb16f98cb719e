import { createMockFetch, SCENARIO_HEADER } from '@message-stream/mock';
import longMarkdown from '@message-stream/mock/fixtures/long-markdown.sse?raw';
import basicText from '@message-stream/mock/fixtures/spec-basic-text.sse?raw';
import textPings from '@message-stream/mock/fixtures/text-pings.sse?raw';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent as keys, page } from 'vitest/browser';
import { ChatStream, type ChatStreamProps, createChatStore } from '../../src/index.js';

import { withDefaultStyles } from '../browser-styles.js';

// Real layout, scrolling, focus and keyboard: these run in Chromium only.

const fixtures = {
  'long-markdown': longMarkdown,
  'spec-basic-text': basicText,
  'text-pings': textPings,
};

withDefaultStyles();
afterEach(async () => {
  cleanup();
  await page.viewport(1280, 800);
});

function setup(scenario: string, height = '600px', props: Partial<ChatStreamProps> = {}) {
  const store = createChatStore({
    request: { model: 'claude-opus-5', max_tokens: 1024 },
    fetch: createMockFetch({ fixtures }),
    headers: { [SCENARIO_HEADER]: scenario },
    retry: false,
  });
  const user = userEvent.setup();
  render(
    <div style={{ height }}>
      <ChatStream store={store} {...props} />
    </div>,
  );
  const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const send = async (text: string) => {
    await user.click(field());
    await user.keyboard(`${text}{Enter}`);
  };
  return { store, user, send, field };
}

const log = () => screen.getByRole('log', { name: 'Conversation' });

/** A long history: enough that the log scrolls well past one screen. */
const history = Array.from({ length: 12 }, (_, i) => [
  { role: 'user' as const, content: `Question ${i + 1}` },
  { role: 'assistant' as const, content: `${'A long answer line. '.repeat(40)}(${i + 1})` },
]).flat();

describe('<ChatStream/> in Chromium', () => {
  it('brings the new message into view on send, even when scrolled up', async () => {
    const { store, send } = setup('spec-basic-text');
    store.getState().setMessages(history);
    await waitFor(() => expect(log().scrollHeight).toBeGreaterThan(log().clientHeight * 3));
    log().scrollTop = 0;
    log().dispatchEvent(new Event('scroll'));
    await screen.findByRole('button', { name: 'Jump to latest' });
    await send('The newest question');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    await waitFor(() => {
      const mine = screen.getByText('The newest question').getBoundingClientRect();
      const box = log().getBoundingClientRect();
      expect(mine.top).toBeGreaterThanOrEqual(box.top);
      expect(mine.bottom).toBeLessThanOrEqual(box.bottom);
    });
  });

  it('keeps a version picker where it was pressed: a longer version does not take the log to its end', async () => {
    // The first answer is long, the edited question's answer short.
    const scenarios = ['long-markdown', 'spec-basic-text'];
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 1024 },
      fetch: createMockFetch({ fixtures }),
      headers: () => ({ [SCENARIO_HEADER]: scenarios.shift() ?? 'spec-basic-text' }),
      retry: false,
    });
    const user = userEvent.setup();
    render(
      <div style={{ height: '600px' }}>
        <ChatStream store={store} />
      </div>,
    );
    await store.getState().send('Write a guide.');
    await store.getState().edit(store.getState().turns[0]?.id as string, 'Hello');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const picker = () =>
      within(screen.getAllByRole('article', { name: 'You said' })[0] as HTMLElement).getByRole(
        'group',
      );
    await waitFor(() => expect(picker().getAttribute('aria-label')).toMatch(/2 of 2$/));
    const before = picker().getBoundingClientRect().top;

    await user.click(within(picker()).getByRole('button', { name: /^Previous/ }));
    await waitFor(() => expect(picker().getAttribute('aria-label')).toMatch(/1 of 2$/));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // The long version is below, unread: the picker stays put and the log lets go.
    expect(log().scrollHeight - log().clientHeight - log().scrollTop).toBeGreaterThan(1000);
    expect(Math.abs(picker().getBoundingClientRect().top - before)).toBeLessThanOrEqual(1);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeNull(),
    );
    // Let go for good: the log's bottom moving (a taller composer) does not take it there.
    const top = log().scrollTop;
    await user.type(
      screen.getByRole('textbox', { name: 'Message' }),
      'a{Shift>}{Enter}{Enter}{Enter}{/Shift}b',
    );
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(log().scrollTop).toBe(top);

    // Back to the version that fits: nothing to jump to, and no button offering it.
    await user.click(within(picker()).getByRole('button', { name: /^Next/ }));
    await waitFor(() => expect(picker().getAttribute('aria-label')).toMatch(/2 of 2$/));
    await waitFor(() => expect(log().scrollHeight).toBeLessThanOrEqual(log().clientHeight));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull(),
    );
  });

  it('never widens a 390 px page: long words, URLs and code stay inside', async () => {
    await page.viewport(390, 844);
    const { store } = setup('spec-basic-text', '844px');
    const long = 'x'.repeat(400);
    store.getState().setMessages([
      { role: 'user', content: `A word without breaks: ${long}` },
      {
        role: 'assistant',
        content: `See https://example.com/${long}\n\n\`\`\`ts\nconst line = "${long}";\n\`\`\`\n\n| a | b |\n|---|---|\n| ${long} | ${long} |`,
      },
    ]);
    await screen.findByText(/A word without breaks/);
    const root = document.documentElement;
    expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
    const chat = screen.getByRole('region', { name: 'Conversation' });
    expect(chat.getBoundingClientRect().width).toBeLessThanOrEqual(390);
    expect(log().scrollWidth).toBeLessThanOrEqual(log().clientWidth);
  });

  it('stops a streaming answer with Escape from the composer', async () => {
    const { store, send } = setup('long-markdown;speed=slow');
    await send('Write');
    await waitFor(() => expect(store.getState().status).toBe('streaming'), { timeout: 10_000 });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(store.getState().status).toBe('aborted'));
    expect(screen.getByText('Stopped')).toBeDefined();
  });

  it('after Resume, focus is on the composer, not on <body>', async () => {
    const { store, send, user, field } = setup('text-pings;fault=drop-after-events:9;times=1');
    await send('Tell me');
    await waitFor(() => expect(store.getState().status).toBe('interrupted'));
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(document.activeElement).toBe(field());
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('hides Resume when nothing arrived, offering Retry', async () => {
    const { store, send } = setup('spec-basic-text;fault=http:529;times=1');
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('error'));
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('grows the composer with its content up to its limit, then scrolls', async () => {
    const { field, user } = setup('spec-basic-text');
    const start = field().getBoundingClientRect().height;
    await user.click(field());
    await user.keyboard('one{Shift>}{Enter}{/Shift}two{Shift>}{Enter}{/Shift}three');
    const grown = field().getBoundingClientRect().height;
    expect(grown).toBeGreaterThan(start);
    // Chromium sizes it from CSS: no height written by script on each key.
    expect(field().style.height).toBe('');
    for (let i = 0; i < 20; i++) await user.keyboard('{Shift>}{Enter}{/Shift}more');
    const max = Number.parseFloat(getComputedStyle(field()).maxHeight);
    expect(field().getBoundingClientRect().height).toBeLessThanOrEqual(max + 1);
    expect(field().scrollHeight).toBeGreaterThan(field().clientHeight);
    // And back down to one line when the text goes.
    await user.keyboard('{Control>}a{/Control}{Backspace}');
    expect(field().getBoundingClientRect().height).toBeCloseTo(start, 0);
  });

  it.each([1280, 390])(
    "puts an edited message's version picker under its bubble's edge, clear of the answer (%i px)",
    async (width) => {
      await page.viewport(width, 844);
      const { store, send, user } = setup('spec-basic-text', '800px');
      await send('Hello');
      await waitFor(() => expect(store.getState().status).toBe('complete'));
      const you = () => screen.getByRole('article', { name: 'You said' });
      await user.click(within(you()).getByRole('button', { name: 'Edit' }));
      await user.keyboard('{Control>}a{/Control}Hello again{Enter}');
      await waitFor(() => expect(store.getState().status).toBe('complete'));
      const picker = await within(you()).findByRole('group', { name: 'Version 2 of 2' });
      const bubble = (
        you().querySelector('.ms-message__text') as HTMLElement
      ).getBoundingClientRect();
      // Flush with the bubble's edge: the hidden Copy and Edit are before it, not beside the edge.
      expect(Math.abs(picker.getBoundingClientRect().right - bubble.right)).toBeLessThan(1);
      // The footer stays inside its message: the answer keeps the thread's gap below it.
      const footer = (
        you().querySelector('.ms-message__footer') as HTMLElement
      ).getBoundingClientRect();
      expect(footer.bottom).toBeLessThanOrEqual(you().getBoundingClientRect().bottom + 0.5);
      const answer = screen.getByRole('article', { name: 'Assistant' }).getBoundingClientRect();
      const gap = Number.parseFloat(getComputedStyle(log().firstElementChild as Element).rowGap);
      expect(answer.top - footer.bottom).toBeGreaterThanOrEqual(gap - 0.5);
      // Keyboard users see the actions they reach, wherever there is hover.
      within(you()).getByRole('button', { name: 'Copy' }).focus();
      const actions = within(you()).getByRole('toolbar', { name: 'Message actions' });
      await expect.poll(() => getComputedStyle(actions).opacity).toBe('1');
    },
  );

  it.each([
    { width: 390, where: "under them, at the row's end" },
    { width: 1280, where: 'beside them' },
  ])(
    "keeps a regenerated answer's picker and action icons in one row, the token count $where ($width px)",
    async ({ width }) => {
      await page.viewport(width, 844);
      // With thumbs, as the demo has them: the widest row an answer has.
      const { store, send, user } = setup('spec-basic-text', '800px', { onFeedback: () => {} });
      await send('Hello');
      await waitFor(() => expect(store.getState().status).toBe('complete'));
      await user.click(screen.getByRole('button', { name: 'Regenerate' }));
      await waitFor(() => expect(store.getState().status).toBe('complete'));
      const answer = screen.getByRole('article', { name: 'Assistant' });
      const picker = await within(answer).findByRole('group', { name: 'Version 2 of 2' });
      const box = (element: Element) => element.getBoundingClientRect();
      const middle = (element: Element) => box(element).top + box(element).height / 2;
      const lastIcon = within(answer).getByRole('button', { name: 'Bad answer' });
      expect(Math.abs(middle(lastIcon) - middle(picker))).toBeLessThan(1);
      // The count stays on the page, on one line with the details button after it.
      const usage = answer.querySelector('.ms-usage') as HTMLElement;
      const details = within(answer).getByRole('button', { name: 'Stream details' });
      expect(usage.checkVisibility()).toBe(true);
      expect(usage.textContent).toMatch(/25 in.*15 out/);
      expect(Math.abs(middle(usage) - middle(details))).toBeLessThan(4);
      expect(box(details).left).toBeGreaterThan(box(usage).right);
      // Beside the icons where the row has room, under them where it has not.
      const under = middle(details) > box(picker).bottom;
      expect(under).toBe(width <= 390);
      const footer = answer.querySelector('.ms-message__footer') as HTMLElement;
      expect(footer.scrollWidth).toBeLessThanOrEqual(footer.clientWidth);
    },
  );

  it('paints its own dark background with data-theme="dark"', () => {
    render(<ChatStream theme="dark" request={{ model: 'm', max_tokens: 1 }} />);
    const chat = screen.getByRole('region', { name: 'Conversation' });
    expect(getComputedStyle(chat).backgroundColor).toBe('rgb(27, 26, 24)');
  });

  it('opens the stream details popover from an answer', async () => {
    const { store, send, user } = setup('spec-basic-text');
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    await user.click(screen.getByRole('button', { name: 'Stream details' }));
    const panel = await screen.findByRole('dialog', { name: 'Stream details' });
    expect(panel.matches(':popover-open')).toBe(true);
    // Its content's chunk may still be on its way on a cold page.
    await waitFor(() => expect(panel.textContent).toMatch(/Time to first token/));
    // A real key press (CDP): light dismiss ignores synthetic events.
    await keys.keyboard('{Escape}');
    await waitFor(() => expect(panel.matches(':popover-open')).toBe(false));
  });
});
