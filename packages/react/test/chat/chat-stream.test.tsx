import { accumulate, createStreamState, toMessage } from '@message-stream/core';
import { createMockFetch, type MockRequestInfo, SCENARIO_HEADER } from '@message-stream/mock';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { fixture } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };

// Under Vitest's jsdom transform the fixtures' asset URLs point at a dev server that is not
// running, so the mock is handed their text, read from disk.
const FIXTURES = [
  'spec-basic-text',
  'long-markdown',
  'text-pings',
  'spec-web-search',
  'spec-thinking',
];
const fixtures = Object.fromEntries(FIXTURES.map((name) => [name, fixture(name)]));

/** A ChatStream on the mock, with the scenario given per test and every request recorded. */
function setup(scenario: string, extra: Partial<Parameters<typeof createChatStore>[0]> = {}) {
  const requests: MockRequestInfo[] = [];
  const store = createChatStore({
    request,
    fetch: createMockFetch({ fixtures, onRequest: (info) => requests.push(info) }),
    headers: { [SCENARIO_HEADER]: scenario },
    batch: false,
    ...extra,
  });
  const user = userEvent.setup();
  const view = render(<ChatStream store={store} />);
  const send = async (text: string) => {
    await user.type(screen.getByRole('textbox', { name: 'Message' }), text);
    await user.keyboard('{Enter}');
  };
  return { store, user, view, send, requests };
}

const log = () => screen.getByRole('log', { name: 'Conversation' });

describe('<ChatStream/>', () => {
  it('sends with Enter, streams the answer into the log and announces completion once', async () => {
    const { send, store } = setup('spec-basic-text');
    await send('Hello');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(within(log()).getByText('Hello')).toBeTruthy();
    expect(within(log()).getByText('Hello!')).toBeTruthy();
    expect(log().getAttribute('aria-busy')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('Answer complete.');
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe(
      '',
    );
  });

  it('keeps Shift+Enter as a new line instead of sending', async () => {
    const { user, store } = setup('spec-basic-text');
    const field = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    await user.type(field, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(field.value).toBe('line one\nline two');
    expect(store.getState().turns).toEqual([]);
  });

  it('is busy and silent while streaming, with a Stop button that keeps the partial answer', async () => {
    const { send, store, user } = setup('long-markdown;speed=slow');
    await send('Write');
    await waitFor(() => expect(log().getAttribute('aria-busy')).toBe('true'));
    expect(log().getAttribute('aria-live')).toBe('off');
    await waitFor(
      () =>
        expect(
          log().querySelector('.ms-message--assistant .ms-text')?.textContent?.length ?? 0,
        ).toBeGreaterThan(20),
      { timeout: 5000 },
    );
    expect(screen.getByRole('status').textContent).toBe('');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(store.getState().status).toBe('aborted'));
    expect(screen.getByRole('status').textContent).toBe('Answer stopped.');
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('shows the error and Resume after a dropped connection; Resume finishes it without duplicated text', async () => {
    const { send, store, user } = setup('text-pings;fault=drop-after-events:9');
    const textOf = (state: Parameters<typeof toMessage>[0]) =>
      (toMessage(state)?.content[0] as { text?: string } | undefined)?.text;
    const fullText = textOf(await accumulate(fixture('text-pings')));
    await send('Tell me');
    await waitFor(() => expect(store.getState().status).toBe('interrupted'));
    expect(screen.getByRole('alert').textContent).toMatch(/connection failed/i);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const answers = store.getState().turns.filter((t) => t.role === 'assistant');
    expect(answers).toHaveLength(1);
    expect(textOf(answers[0]?.stream ?? createStreamState())).toBe(fullText);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the key error for a revoked key, with the request id when there is one', async () => {
    const { send, store } = setup('spec-basic-text;fault=http:401');
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('error'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/revoked/i);
    // A non-retryable failure offers neither Resume nor Retry as a way out of a bad key.
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('renders tool calls, thinking and search results from their fixtures', async () => {
    const { send, store } = setup('spec-web-search');
    await send('Weather in NYC?');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(screen.getByText(/weather NYC today/)).toBeTruthy();
    expect(
      screen.getAllByRole('link').some((a) => a.getAttribute('href')?.startsWith('https://')),
    ).toBe(true);
  });

  it('has no axe violations when complete, interrupted and failed', async () => {
    for (const scenario of [
      'spec-thinking',
      'text-pings;fault=drop-after-events:9',
      'spec-basic-text;fault=http:529',
    ]) {
      const { send, store, view } = setup(scenario, { retry: false });
      await send('Go');
      await waitFor(() =>
        expect(['complete', 'interrupted', 'error']).toContain(store.getState().status),
      );
      const results = await axe.run(view.container);
      expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      view.unmount();
    }
  });
});

describe('<ChatStream/> auto-scroll', () => {
  it('follows the answer, yields when the user scrolls up, and Jump to latest returns', async () => {
    const { store } = setup('long-markdown');
    const element = log();
    // jsdom has no layout: give the log a viewport and a content height that grows.
    let height = 1000;
    Object.defineProperty(element, 'clientHeight', { configurable: true, value: 300 });
    Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => height });
    element.scrollTo = ((options: ScrollToOptions) => {
      element.scrollTop = options.top ?? 0;
      element.dispatchEvent(new Event('scroll'));
    }) as typeof element.scrollTo;

    await act(() => store.getState().setMessages([{ role: 'user', content: 'one' }]));
    expect(element.scrollTop).toBe(1000);

    // The user scrolls up to read: new content must not pull them back down.
    await act(async () => {
      element.scrollTop = 200;
      element.dispatchEvent(new Event('scroll'));
    });
    height = 2000;
    await act(() =>
      store.getState().setMessages([
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ]),
    );
    expect(element.scrollTop).toBe(200);
    const jump = screen.getByRole('button', { name: 'Jump to latest' });

    await userEvent.click(jump);
    expect(element.scrollTop).toBe(2000);
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
    height = 2600;
    await act(() =>
      store.getState().setMessages([
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
        { role: 'user', content: 'three' },
      ]),
    );
    expect(element.scrollTop).toBe(2600);
  });
});
