import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  type ChatStore,
  type ChatStoreOptions,
  createChatStore,
  type MessageStreamView,
  useMessageStream,
} from '../../src/index.js';
import { fixture, scriptedFetch, sse } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 256 };

/** Renders the hook's status and hands its view to the test. */
function OwnStore({
  options,
  onView,
}: {
  options: ChatStoreOptions;
  onView: (view: MessageStreamView) => void;
}) {
  const view = useMessageStream(options);
  onView(view);
  return <p data-testid="status">{view.status}</p>;
}

/** Counts its renders; shows only the number of turns. */
function TurnCount({ store, onRender }: { store: ChatStore; onRender: () => void }) {
  const count = useMessageStream(store, (state) => state.turns.length);
  onRender();
  return <p>{count}</p>;
}

function Status({ store, label }: { store: ChatStore; label: string }) {
  const { status, turns } = useMessageStream(store);
  return <p data-testid={label}>{`${status}:${turns.length}`}</p>;
}

describe('useMessageStream', () => {
  it('returns the conversation, the live answer, status and actions from options', async () => {
    const { fetch } = scriptedFetch(() => sse(fixture('spec-basic-text')));
    let view: MessageStreamView | undefined;
    render(
      <OwnStore
        options={{ request, fetch, batch: false }}
        onView={(v) => {
          view = v;
        }}
      />,
    );
    expect(screen.getByTestId('status').textContent).toBe('idle');
    expect(view?.answer).toBeNull();
    await act(() => view?.send('Hello'));
    expect(screen.getByTestId('status').textContent).toBe('complete');
    expect(view?.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(view?.answer?.stream.status).toBe('complete');
    expect(view?.error).toBeNull();
  });

  it('with a selector, re-renders only when the selection changes', async () => {
    const { fetch } = scriptedFetch(() => sse(fixture('text-pings')));
    const store = createChatStore({ request, fetch, batch: false });
    let renders = 0;
    let notifications = 0;
    store.subscribe(() => {
      notifications++;
    });
    render(
      <TurnCount
        store={store}
        onRender={() => {
          renders++;
        }}
      />,
    );
    await act(() => store.getState().send('Hi'));
    // Every stream state was published, but the turn count changed only twice (0 → 1 → 2),
    // inside one act: the initial render and one more.
    expect(notifications).toBeGreaterThan(10);
    expect(renders).toBe(2);
  });

  it('keeps several conversations on one page independent', async () => {
    const a = scriptedFetch(() => sse(fixture('spec-basic-text')));
    const b = scriptedFetch(() => sse(fixture('refusal')));
    const first = createChatStore({ request, fetch: a.fetch, batch: false });
    const second = createChatStore({ request, fetch: b.fetch, batch: false });
    render(
      <>
        <Status store={first} label="a" />
        <Status store={second} label="b" />
      </>,
    );
    await act(() => first.getState().send('One'));
    expect(screen.getByTestId('a').textContent).toBe('complete:2');
    expect(screen.getByTestId('b').textContent).toBe('idle:0');
    await act(() => second.getState().send('Two'));
    expect(screen.getByTestId('b').textContent).toBe('complete:2');
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
  });
});
