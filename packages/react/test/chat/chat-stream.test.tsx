import { accumulate, createStreamState, toMessage } from '@message-stream/core';
import { createMockFetch, type MockRequestInfo, SCENARIO_HEADER } from '@message-stream/mock';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { type AssistantTurn, ChatStream, createChatStore } from '../../src/index.js';
import { fixture, scriptedFetch, sse, textAnswer, toolIds } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };

// Under Vitest's jsdom transform the fixtures' asset URLs point at a dev server that is not
// running, so the mock is handed their text, read from disk.
const FIXTURES = [
  'spec-basic-text',
  'long-markdown',
  'text-pings',
  'spec-web-search',
  'spec-thinking',
  'max-tokens',
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

/** "Hi" sent and answered, then its Edit opened and the editor emptied. */
async function editFirstMessage() {
  const chat = setup('spec-basic-text');
  await chat.send('Hi');
  await waitFor(() => expect(chat.store.getState().status).toBe('complete'));
  const you = screen.getByRole('article', { name: 'You said' });
  await chat.user.click(within(you).getByRole('button', { name: 'Edit' }));
  const editor = screen.getByRole('textbox', { name: 'Edit message' });
  await chat.user.clear(editor);
  return { ...chat, editor };
}

/** A chat whose first answer is `fixtureName` (weather calls), each call run once approved. */
function weatherNeedingApproval(fixtureName: string, answer: string) {
  const { fetch } = scriptedFetch(
    () => sse(fixture(fixtureName)),
    () => sse(textAnswer(answer)),
  );
  return createChatStore({
    request,
    fetch,
    batch: false,
    tools: { get_weather: { run: async () => ({ temperature: 18 }), needsApproval: true } },
  });
}

/** ChatStream showing the weather call, approved, and the answer after its result. */
async function approvedWeatherAnswer() {
  const store = weatherNeedingApproval('spec-tool-use', 'It is 18 degrees.');
  const user = userEvent.setup();
  render(<ChatStream store={store} />);
  await act(() => store.getState().send('Weather?'));
  const asking = store.getState().turns.at(-1) as AssistantTurn;
  await act(() => store.getState().approveToolCall(toolIds(asking)[0] as string));
  await waitFor(() => expect(store.getState().status).toBe('complete'));
  return { store, user, asking };
}

describe('<ChatStream/> with a tool that needs approval', () => {
  it('offers no Copy, Regenerate or feedback on an answer while its tool waits, then does', async () => {
    const store = weatherNeedingApproval('spec-tool-use', 'It is 18 degrees.');
    render(<ChatStream store={store} onFeedback={() => {}} />);
    await act(() => store.getState().send('Weather?'));
    expect(store.getState().status).toBe('awaiting-approval');
    const asking = within(log()).getAllByRole('article', { name: 'Assistant' });
    expect(asking).toHaveLength(1);
    expect(within(log()).queryByRole('button', { name: 'Approve' })).not.toBeNull();
    expect(
      within(asking[0] as HTMLElement).queryByRole('toolbar', { name: 'Answer actions' }),
    ).toBeNull();

    const [id] = toolIds(store.getState().turns.at(-1) as AssistantTurn);
    await act(() => store.getState().approveToolCall(id as string));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    // The call and the answer after its result are one answer: one action row, at its end.
    const [first, second] = within(log()).getAllByRole('article', { name: 'Assistant' });
    expect(
      within(first as HTMLElement).queryByRole('toolbar', { name: 'Answer actions' }),
    ).toBeNull();
    expect(first?.hasAttribute('data-goes-on')).toBe(true);
    expect(
      within(second as HTMLElement).queryByRole('toolbar', { name: 'Answer actions' }),
    ).not.toBeNull();
    expect(within(log()).getAllByRole('toolbar', { name: 'Answer actions' })).toHaveLength(1);
  });

  it('gives the same tokens in the details as in the badge for an answer of several requests', async () => {
    const { store, user } = await approvedWeatherAnswer();
    const parts = store.getState().turns.filter((t): t is AssistantTurn => t.role === 'assistant');
    const sum = (key: 'input_tokens' | 'output_tokens') =>
      parts.reduce((n, part) => n + (part.stream.message?.usage[key] ?? 0), 0);
    const actions = screen.getByRole('toolbar', { name: 'Answer actions' });
    expect(actions.textContent).toContain(`${sum('input_tokens')} in`);
    await user.click(within(actions).getByRole('button', { name: 'Stream details' }));
    const row = async (term: string) =>
      (await screen.findByText(term, { selector: 'dt' })).nextElementSibling?.textContent;
    await expect(row('Input tokens')).resolves.toBe(String(sum('input_tokens')));
    await expect(row('Output tokens')).resolves.toBe(String(sum('output_tokens')));
    await expect(row('Requests')).resolves.toBe('2');
    expect(screen.getByText(/Tokens of all 2 requests, added up/)).toBeDefined();
  });

  it('copies every part of an answer that used a tool, and regenerates it from its first part', async () => {
    const { store, user, asking } = await approvedWeatherAnswer();
    const actions = screen.getByRole('toolbar', { name: 'Answer actions' });
    await user.click(within(actions).getByRole('button', { name: 'Copy' }));
    const copied = await navigator.clipboard.readText();
    expect(copied.startsWith("Okay, let's check the weather")).toBe(true);
    expect(copied.endsWith('\n\nIt is 18 degrees.')).toBe(true);

    // Its usage is what its requests were billed together.
    const [call, after] = store
      .getState()
      .turns.filter((turn): turn is AssistantTurn => turn.role === 'assistant');
    const input =
      (call?.stream.message?.usage.input_tokens ?? 0) +
      (after?.stream.message?.usage.input_tokens ?? 0);
    expect(input).toBeGreaterThan(after?.stream.message?.usage.input_tokens ?? 0);
    expect(actions.querySelector('.ms-usage')?.textContent).toContain(
      `${input.toLocaleString()} in`,
    );

    const regenerate = vi.spyOn(store.getState(), 'regenerate').mockResolvedValue();
    await user.click(within(actions).getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenCalledWith(asking.id);
  });

  it('shows a denied call as Declined with the reason, and one left by a new message as Skipped', async () => {
    const store = weatherNeedingApproval('spec-tool-use', 'Fine, I will not check.');
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Weather?'));
    await user.type(screen.getByRole('textbox', { name: 'Reason (optional)' }), 'I already know');
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const card = within(log()).getByRole('group', { name: 'Tool get_weather' });
    expect(card.querySelector('.ms-tool__badge')?.textContent).toBe('Declined');
    expect(card.querySelector('.ms-tool__result--error')).toBeNull();
    await user.click(within(card).getByRole('button', { expanded: false }));
    expect(within(card).queryByText('Your reason: I already know')).not.toBeNull();

    const skipping = weatherNeedingApproval('spec-tool-use', 'A joke, then.');
    const other = render(<ChatStream store={skipping} />);
    await act(() => skipping.getState().send('Weather?'));
    await act(() => skipping.getState().send('Never mind'));
    const skipped = within(other.container).getByRole('group', { name: 'Tool get_weather' });
    expect(skipped.querySelector('.ms-tool__badge')?.textContent).toBe('Skipped');
  });

  it('shows a call stopped while it ran as Stopped, not as the tool failing', async () => {
    const { fetch } = scriptedFetch(() => sse(fixture('spec-tool-use')));
    let running = () => {};
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: {
        get_weather: {
          // Runs until stopped: the signal is what ends it.
          run: (_input, call) =>
            new Promise((_resolve, reject) => {
              running();
              call.signal.addEventListener('abort', () => reject(new Error('aborted')));
            }),
        },
      },
    });
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    let sending: Promise<void> = Promise.resolve();
    await act(async () => {
      sending = store.getState().send('Weather?');
      await started;
    });
    const card = within(log()).getByRole('group', { name: 'Tool get_weather' });
    expect(card.querySelector('.ms-tool__badge')?.textContent).toBe('Running…');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await act(() => sending);
    await waitFor(() => expect(card.querySelector('.ms-tool__badge')?.textContent).toBe('Stopped'));
    expect(card.querySelector('.ms-tool__result--error')).toBeNull();
  });

  it('moves focus to the next call waiting for a decision, then to the composer', async () => {
    const store = weatherNeedingApproval('parallel-tool-calls', 'Paris 18, Tokyo 22.');
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Weather in Paris and Tokyo?'));
    expect(store.getState().status).toBe('awaiting-approval');
    const [first, second] = within(log()).getAllByRole('group', { name: /^Approve or deny/ });
    await user.click(within(first as HTMLElement).getByRole('button', { name: 'Approve' }));
    expect(document.activeElement).toBe(
      within(second as HTMLElement).getByRole('button', { name: 'Approve' }),
    );
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
  });
});

describe('<ChatStream/>', () => {
  it('sends with Enter, streams the answer into the log and announces completion once', async () => {
    const { send, store } = setup('spec-basic-text');
    await send('Hello');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(within(log()).queryByText('Hello')).not.toBeNull();
    expect(within(log()).queryByText('Hello!')).not.toBeNull();
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
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeNull();
    // Stop is gone once pressed (Send, disabled, in its place): focus is in the composer.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });

  it('shows the error and Resume after a dropped connection; Resume finishes it without duplicated text', async () => {
    // `times=1`: the drop hits the first request only, so the continuation gets through.
    const { send, store, user } = setup('text-pings;fault=drop-after-events:9;times=1');
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
    // Nothing to resume from; Retry for once the key is fixed, and no retry by itself.
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.queryByText(/^Retrying in/)).toBeNull();
  });

  it('renders tool calls, thinking and search results from their fixtures', async () => {
    const { send, store } = setup('spec-web-search');
    await send('Weather in NYC?');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(screen.queryByText(/weather NYC today/)).not.toBeNull();
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
    // Three answers and three axe runs over a jsdom document: more than the default 5 s.
  }, 30_000);
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
    // The button it pressed is gone: focus is on the log it scrolled, not on the page (nor
    // the composer, which would open a phone's keyboard over the answer).
    expect(document.activeElement).toBe(log());
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

describe('<ChatStream/> shell', () => {
  /** A ChatStream that creates its own store from props, on the mock. */
  function own(props: Partial<Parameters<typeof ChatStream>[0]> = {}) {
    const requests: MockRequestInfo[] = [];
    const fetch = createMockFetch({ fixtures, onRequest: (info) => requests.push(info) });
    const user = userEvent.setup();
    render(
      <ChatStream
        request={request}
        batch={false}
        {...props}
        transport={props.transport ?? { fetch, headers: { [SCENARIO_HEADER]: 'spec-basic-text' } }}
      />,
    );
    return { user, requests, fetch };
  }
  const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const answerStatus = () =>
    log().querySelector('.ms-message--assistant')?.getAttribute('data-status');

  it('sends through the grouped transport prop (endpoint, headers, fetch)', async () => {
    const { user, requests } = own();
    await user.type(field(), 'Hi{Enter}');
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    expect(requests).toHaveLength(1);
    expect(within(log()).getByText('Hello!')).toBeDefined();
  });

  it('still accepts the deprecated flat transport props', async () => {
    const requests: MockRequestInfo[] = [];
    const user = userEvent.setup();
    render(
      <ChatStream
        request={request}
        batch={false}
        fetch={createMockFetch({ fixtures, onRequest: (info) => requests.push(info) })}
        headers={{ [SCENARIO_HEADER]: 'spec-basic-text' }}
      />,
    );
    await user.type(field(), 'Hi{Enter}');
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    expect(requests).toHaveLength(1);
  });

  it('starts in the composer, and a suggestion chip sends its prompt', async () => {
    const { user, requests } = own({ suggestions: ['Say hello'], welcome: 'Hi there' });
    expect(screen.getByRole('heading', { name: 'Hi there' })).toBeDefined();
    expect(document.activeElement).toBe(field());
    // From the keyboard: the chip is gone once pressed, and focus goes to the composer.
    screen.getByRole('button', { name: 'Say hello' }).focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(field());
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    expect(requests).toHaveLength(1);
    expect(within(log()).getByText('Say hello')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Hi there' })).toBeNull();
  });

  it('sends a suggestion alone, leaving the files and words staged for the user’s own message', async () => {
    const { user, requests } = own({ suggestions: ['Say hello'] });
    const input = document.querySelector<HTMLInputElement>(
      'input[type="file"]',
    ) as HTMLInputElement;
    await user.upload(
      input,
      new File(
        [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
        'shot.png',
        { type: 'image/png' },
      ),
    );
    await screen.findByRole('button', { name: 'Remove shot.png' });
    await user.type(field(), 'My own draft');
    await user.click(screen.getByRole('button', { name: 'Say hello' }));
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.messages).toEqual([{ role: 'user', content: 'Say hello' }]);
    expect(screen.getByRole('button', { name: 'Remove shot.png' })).toBeDefined();
    expect(field().value).toBe('My own draft');
  });

  it('stops a streaming answer with Escape', async () => {
    const { send, store } = setup('long-markdown;speed=slow');
    await send('Write');
    await waitFor(() => expect(store.getState().status).toBe('streaming'), { timeout: 5000 });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(store.getState().status).toBe('aborted'));
    expect(screen.getByText('Stopped')).toBeDefined();
  });

  it('after a 429 with nothing received, offers Retry (not Resume), says it once, and Retry focuses the composer', async () => {
    const { send, store, user, requests } = setup('spec-basic-text;fault=http:429;times=1', {
      retry: false,
    });
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('error'));
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    const retry = screen.getByRole('button', { name: /^Retry/ });
    await user.click(retry);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(requests).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says "try again", not "resume", beside Retry for a network failure before anything arrived', async () => {
    const { send, store } = setup('spec-basic-text;fault=network-error;times=1', {
      retry: false,
    });
    await send('Hi');
    await waitFor(() => expect(store.getState().status).not.toBe('streaming'));
    await waitFor(() => expect(screen.getByRole('alert')).toBeDefined());
    expect(screen.getByRole('alert').textContent).toContain(
      'The network connection failed before the answer started. Check your connection, then try again.',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('retries a rate limit by itself once, in the failed answer’s place', async () => {
    const { send, store, requests } = setup(
      'spec-basic-text;fault=http:rate-limit;times=1;retry-after-ms=200',
      { retry: false },
    );
    await send('Hi');
    await waitFor(() => expect(screen.getByText(/^Retrying in \d s$/)).toBeDefined());
    const failed = store.getState().turns.at(-1)?.id;
    // The wait ends: one retry, as the server asked; it answers in the same place.
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(requests).toHaveLength(2);
    expect(store.getState().turns.at(-1)?.id).toBe(failed);
    expect(screen.queryByRole('group', { name: /^Version/ })).toBeNull();
    expect(screen.getByText('Hello!')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toHaveLength(2);
  });

  it('keeps the picker on a version that failed before anything arrived: the way back', async () => {
    const scripted = scriptedFetch(
      () => sse(textAnswer('Hello!')),
      () => {
        throw new TypeError('Failed to fetch');
      },
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false, retry: false });
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Hi'));
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(store.getState().status).toBe('error'));
    // The failed version holds no message, and still has its picker.
    expect(screen.getByRole('group', { name: 'Version 2 of 2' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Previous version' }));
    expect(screen.getByRole('group', { name: 'Version 1 of 2' })).toBeDefined();
    expect(screen.getByText('Hello!')).toBeDefined();
  });

  it('keeps the mark on an earlier interrupted answer after the next message, without its alert', async () => {
    const { send, store, requests } = setup('text-pings;fault=drop-after-events:9;times=1');
    await send('First');
    await waitFor(() => expect(store.getState().status).toBe('interrupted'));
    await send('Second');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(requests).toHaveLength(2);
    expect(screen.getByText('Interrupted')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('copies an answer as its markdown and reports feedback', async () => {
    const onFeedback = vi.fn();
    const { user } = own({ onFeedback });
    await user.type(field(), 'Hi{Enter}');
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    const actions = screen.getByRole('toolbar', { name: 'Answer actions' });
    await user.click(within(actions).getByRole('button', { name: 'Copy' }));
    await expect(navigator.clipboard.readText()).resolves.toBe('Hello!');
    await user.click(within(actions).getByRole('button', { name: 'Good answer' }));
    expect(onFeedback).toHaveBeenCalledWith(expect.objectContaining({ role: 'assistant' }), 'up');
    const good = within(actions).getByRole('button', { name: 'Good answer' });
    expect(good.getAttribute('aria-pressed')).toBe('true');
    // Pressed again: taken back, and said so.
    await user.click(good);
    expect(onFeedback).toHaveBeenLastCalledWith(
      expect.objectContaining({ role: 'assistant' }),
      null,
    );
    expect(good.getAttribute('aria-pressed')).toBe('false');
  });

  it('with record on, offers the exact bytes of the answer in its details', async () => {
    const { user } = own({ record: true });
    await user.type(field(), 'Hi{Enter}');
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    await user.click(screen.getByRole('button', { name: 'Stream details' }));
    expect(
      await screen.findByRole('button', { name: 'Download raw stream (.sse)', hidden: true }),
    ).toBeDefined();
  });

  it('without record, offers no download', async () => {
    const { user } = own();
    await user.type(field(), 'Hi{Enter}');
    await waitFor(() => expect(answerStatus()).toBe('complete'));
    await user.click(screen.getByRole('button', { name: 'Stream details' }));
    await screen.findByText('Input tokens');
    expect(screen.queryByRole('button', { name: /Download/, hidden: true })).toBeNull();
    // Timed by the store as the content was read: known even for an answer this fast.
    const ttft = screen.getByText('Time to first token').nextElementSibling;
    // Under a second: in milliseconds ("0 s" read as no measurement).
    expect(ttft?.textContent).toMatch(/^\d+ ms$/);
  });
});

describe('<ChatStream/> with the store actions', () => {
  it('continues an answer cut off by max_tokens in place with Continue', async () => {
    const more = ' and the continuation that finishes it.';
    const scripted = scriptedFetch(
      () => sse(fixture('max-tokens')),
      () => sse(textAnswer(more)),
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Tell me{Enter}');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const text = () => log().querySelector('.ms-message--assistant .ms-text')?.textContent ?? '';
    const before = text();
    expect(screen.getByText('The answer reached the length limit.')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    await waitFor(() => expect(scripted.requests).toHaveLength(2));
    await waitFor(() => expect(text()).toContain('finishes it.'));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(store.getState().turns.filter((t) => t.role === 'assistant')).toHaveLength(1);
    expect(text().startsWith(before.trimEnd())).toBe(true);
    expect(screen.queryByText('The answer reached the length limit.')).toBeNull();
  });

  it('regenerates an answer with Regenerate (the store keeps the old one as a branch)', async () => {
    const { send, store, user, requests } = setup('spec-basic-text');
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const first = store.getState().turns.at(-1)?.id;
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const last = store.getState().turns.at(-1);
    expect(last?.id).not.toBe(first);
    expect(last && store.getState().branchesOf(last.id)).toMatchObject({ count: 2 });
  });

  it('shows the version picker of a regenerated answer while it streams, usable once it ends', async () => {
    const scripted = scriptedFetch(
      () => sse(textAnswer('The first answer.')),
      // The second answer starts and goes on (never ends).
      () => sse(textAnswer('The second answer, arriving slowly.'), { cutAt: 400, hang: true }),
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Hi'));
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(store.getState().status).toBe('streaming'));
    // Which version this is, and the way back to the first, before the new one ends.
    const picker = await screen.findByRole('group', { name: 'Version 2 of 2' });
    // Shown, not usable until the end: version 1 would hide the answer under way, and a
    // message sent from there would stop it unseen.
    const previous = within(picker).getByRole('button', { name: 'Previous version' });
    expect(previous.getAttribute('aria-disabled')).toBe('true');
    await user.click(previous);
    expect(screen.getByRole('group', { name: 'Version 2 of 2' })).toBeDefined();
    expect(store.getState().status).toBe('streaming');
    // The answer's actions wait for its end.
    expect(screen.queryAllByRole('button', { name: 'Regenerate' })).toHaveLength(0);
    act(() => store.getState().stop());
    await waitFor(() => expect(previous.getAttribute('aria-disabled')).toBe('false'));
  });

  it('keeps focus on the version picker when it switches versions (the message is a new one)', async () => {
    const { send, store, user } = setup('spec-basic-text');
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Version 2 of 2' })).toBeDefined(),
    );
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    screen.getByRole('button', { name: 'Previous version' }).focus();
    await user.keyboard('{Enter}');
    const shown = screen.getByRole('group', { name: 'Version 1 of 2' });
    expect(document.activeElement).toBe(
      within(shown).getByRole('button', { name: 'Previous version' }),
    );
    await user.keyboard('{ArrowRight}');
    const back = screen.getByRole('group', { name: 'Version 2 of 2' });
    expect(document.activeElement).toBe(within(back).getByRole('button', { name: 'Next version' }));
  });

  it('shows a sent message’s files by name, and keeps them in view and in the edit', async () => {
    const scripted = scriptedFetch(
      () => sse(textAnswer('Seen.')),
      () => sse(textAnswer('Seen again.')),
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const photo = new File(
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])],
      'photo.png',
      { type: 'image/png' },
    );
    await act(() => store.getState().send('What is this?', { attachments: [photo] }));
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    const sent = screen.getByRole('list', { name: 'Attached files' });
    expect(sent.textContent).toContain('photo.png');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const kept = screen.getByRole('list', { name: 'Files sent with the edit' });
    expect(kept.textContent).toContain('photo.png');
    await user.type(screen.getByRole('textbox', { name: 'Edit message' }), ' Briefly.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(scripted.requests).toHaveLength(2);
    expect(screen.getByRole('list', { name: 'Attached files' }).textContent).toContain('photo.png');
  });

  it('removes a file in the editor: focus stays in the editor, the new version goes without it', async () => {
    const scripted = scriptedFetch(
      () => sse(textAnswer('Seen.')),
      () => sse(textAnswer('Seen again.')),
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const photo = new File(
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])],
      'photo.png',
      {
        type: 'image/png',
      },
    );
    const notes = new File(['Some notes.'], 'notes.txt', { type: 'text/plain' });
    await act(() => store.getState().send('Both?', { attachments: [photo, notes] }));
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Remove photo.png' }));
    const kept = screen.getByRole('list', { name: 'Files sent with the edit' });
    expect(within(kept).queryByText('photo.png')).toBeNull();
    expect(within(kept).getByText('notes.txt')).toBeDefined();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Edit message' }));
    // Cancel forgets what was removed: the next edit starts from the message's files.
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('list', { name: 'Files sent with the edit' }).textContent).toContain(
      'photo.png',
    );
    await user.click(screen.getByRole('button', { name: 'Remove photo.png' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const messages = scripted.requests[1]?.body.messages as { content: { type: string }[] }[];
    expect(messages[0]?.content.map((block) => block.type)).toEqual(['document', 'text']);
    const sent = screen.getByRole('list', { name: 'Attached files' });
    expect(sent.textContent).toContain('notes.txt');
    expect(sent.textContent).not.toContain('photo.png');
  });

  it('sends an edit of files alone once its text is cleared, and not once nothing is left', async () => {
    const scripted = scriptedFetch(
      () => sse(textAnswer('Seen.')),
      () => sse(textAnswer('A photo.')),
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const photo = new File(
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])],
      'photo.png',
      {
        type: 'image/png',
      },
    );
    await act(() => store.getState().send('What is this?', { attachments: [photo] }));
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edit message' });
    await user.clear(editor);
    await user.click(screen.getByRole('button', { name: 'Remove photo.png' }));
    await user.keyboard('{Enter}');
    // Nothing to send: the editor stays open and nothing was asked.
    expect(screen.getByRole('textbox', { name: 'Edit message' })).toBeDefined();
    expect(scripted.requests).toHaveLength(1);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.clear(screen.getByRole('textbox', { name: 'Edit message' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(scripted.requests).toHaveLength(2));
    const messages = scripted.requests[1]?.body.messages as { content: { type: string }[] }[];
    expect(messages[0]?.content.map((block) => block.type)).toEqual(['image']);
  });

  it('gives focus to the message field when a file is removed from the composer', async () => {
    const { user } = setup('spec-basic-text');
    const input = document.querySelector<HTMLInputElement>(
      'input[type="file"]',
    ) as HTMLInputElement;
    const png = (name: string) =>
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, {
        type: 'image/png',
      });
    await user.upload(input, [png('a.png'), png('b.png')]);
    await user.click(await screen.findByRole('button', { name: 'Remove a.png' }));
    expect(screen.queryByRole('button', { name: 'Remove a.png' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });

  it('keeps what is typed and attached but not sent with its conversation across a switch', async () => {
    const make = () => createChatStore({ request, fetch: scriptedFetch().fetch, batch: false });
    const [first, second] = [make(), make()];
    const user = userEvent.setup();
    const view = render(<ChatStream key="first" store={first} />);
    const input = () =>
      document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Half a question');
    await user.upload(
      input(),
      new File(
        [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
        'shot.png',
        { type: 'image/png' },
      ),
    );
    await screen.findByRole('button', { name: 'Remove shot.png' });
    // Another conversation is shown (the app keys the chat by thread): it has its own draft.
    view.rerender(<ChatStream key="second" store={second} />);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe(
      '',
    );
    expect(screen.queryByRole('button', { name: 'Remove shot.png' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Elsewhere');
    // And back: the first one's words and file are where they were.
    view.rerender(<ChatStream key="first-again" store={first} />);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe(
      'Half a question',
    );
    expect(screen.getByRole('button', { name: 'Remove shot.png' })).toBeDefined();
    view.rerender(<ChatStream key="second-again" store={second} />);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe(
      'Elsewhere',
    );
    // Sent, it is a draft no more.
    await user.keyboard('{Enter}');
    view.rerender(<ChatStream key="second-once-more" store={second} />);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe(
      '',
    );
  });

  it('opens the editor with the caret after the text', async () => {
    const { send, store, user } = setup('spec-basic-text');
    await send('Hi there');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement;
    expect(document.activeElement).toBe(editor);
    expect([editor.selectionStart, editor.selectionEnd]).toEqual([8, 8]);
  });

  it('edits a user message in place and sends the new version', async () => {
    const { store, user, requests, editor } = await editFirstMessage();
    await user.type(editor, 'Hello again');
    await user.click(screen.getByRole('button', { name: 'Send edited message' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(within(log()).getByText('Hello again')).toBeDefined();
    expect(within(log()).queryByText('Hi')).toBeNull();
  });

  it('sends an edit with Enter, keeps Shift+Enter as a new line, and focuses the composer', async () => {
    const { store, user, requests, editor } = await editFirstMessage();
    await user.type(editor, 'Line one{Shift>}{Enter}{/Shift}line two');
    expect((editor as HTMLTextAreaElement).value).toBe('Line one\nline two');
    expect(requests).toHaveLength(1);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const sent = store.getState().turns.find((t) => t.role === 'user');
    expect(sent?.content).toBe('Line one\nline two');
  });

  it('closes the editor with Escape or Cancel without sending, focus back on Edit', async () => {
    const { send, store, user, requests } = setup('spec-basic-text');
    await send('Hi');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const editButton = () =>
      within(screen.getByRole('article', { name: 'You said' })).getByRole('button', {
        name: 'Edit',
      });
    await user.click(editButton());
    await user.type(screen.getByRole('textbox', { name: 'Edit message' }), ' there');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    expect(document.activeElement).toBe(editButton());
    await user.click(editButton());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(editButton());
    expect(requests).toHaveLength(1);
    expect(within(log()).getByText('Hi')).toBeDefined();
  });
});
