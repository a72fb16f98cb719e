import { act, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { fixture, scriptedFetch, sse, textAnswer } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };

/**
 * A first answer, then (on Regenerate) a version that calls a tool run by `run`, and whose
 * part after the tool result goes on and never ends.
 */
function toolLoopAnswer(run: () => Promise<unknown>) {
  const scripted = scriptedFetch(
    () => sse(textAnswer('The first answer.')),
    () => sse(fixture('spec-tool-use')),
    () =>
      sse(textAnswer('It is 18 degrees, and the rest arrives slowly.'), {
        cutAt: 400,
        hang: true,
      }),
  );
  const store = createChatStore({
    request,
    fetch: scripted.fetch,
    batch: false,
    tools: { get_weather: { run } },
  });
  return { scripted, store };
}

describe('the version picker while an answer streams', () => {
  it('a regenerated tool-loop answer keeps its version picker while the part after the tools streams', async () => {
    const { scripted, store } = toolLoopAnswer(async () => ({ temperature: 18 }));
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Hi'));
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(scripted.requests).toHaveLength(3));
    await waitFor(() => expect(store.getState().status).toBe('streaming'));
    // The picker said "Version 2 of 2" while the first part streamed; it must still say so.
    expect(
      await screen.findByRole('group', { name: 'Version 2 of 2' }, { timeout: 500 }),
    ).toBeDefined();
    act(() => store.getState().stop());
  });

  it('focus on the picker while the first part of a tool-loop answer streams is not dropped to <body> when the tools part begins', async () => {
    let release: () => void = () => {};
    const { store } = toolLoopAnswer(
      () => new Promise((resolve) => (release = () => resolve({ t: 18 }))),
    );
    const user = userEvent.setup();
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Hi'));
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(store.getState().status).toBe('running-tools'));
    const picker = await screen.findByRole('group', { name: 'Version 2 of 2' });
    const button = picker.querySelector('button') as HTMLButtonElement;
    act(() => button.focus());
    expect(document.activeElement).toBe(button);
    await act(async () => release());
    await waitFor(() => expect(store.getState().status).toBe('streaming'));
    expect(document.activeElement).not.toBe(document.body);
    act(() => store.getState().stop());
  });
});

describe('a skipped call in the chat', () => {
  it('says Skipped, not Failed, once a new message skipped it', async () => {
    const scripted = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Sure.')),
    );
    const store = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const { container } = render(<ChatStream store={store} />);
    await act(() => store.getState().send('Weather?'));
    expect(container.querySelector('.ms-tool__badge')?.textContent).toBe('Not run');
    await act(() => store.getState().send('Never mind'));
    await waitFor(() =>
      expect(container.querySelector('.ms-tool__badge')?.textContent).toBe('Skipped'),
    );
  });
});
