import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createChatStore, type MessageStreamView, useMessageStream } from '../../src/index.js';
import { fixture, scriptedFetch, sse } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 256 };

describe('useMessageStream', () => {
  it('returns the conversation, the live answer, status and actions from options', async () => {
    const { fetch } = scriptedFetch(() => sse(fixture('spec-basic-text')));
    let view: MessageStreamView | undefined;
    function Chat() {
      view = useMessageStream({ request, fetch, batch: false });
      return <p data-testid="status">{view.status}</p>;
    }
    render(<Chat />);
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
    function TurnCount() {
      const count = useMessageStream(store, (state) => state.turns.length);
      renders++;
      return <p>{count}</p>;
    }
    render(<TurnCount />);
    await act(() => store.getState().send('Hi'));
    // Many stream states were published; the turn count changed once (0 → 2).
    expect(renders).toBe(2);
  });

  it('keeps several conversations on one page independent', async () => {
    const a = scriptedFetch(() => sse(fixture('spec-basic-text')));
    const b = scriptedFetch(() => sse(fixture('refusal')));
    const first = createChatStore({ request, fetch: a.fetch, batch: false });
    const second = createChatStore({ request, fetch: b.fetch, batch: false });
    function Status({ store, label }: { store: typeof first; label: string }) {
      const { status, turns } = useMessageStream(store);
      return <p data-testid={label}>{`${status}:${turns.length}`}</p>;
    }
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
