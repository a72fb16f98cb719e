import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { droppableFetch } from '../store/support.js';

describe('an answer cut as the page goes, before any of it arrived', () => {
  it('says the page went, and offers Retry', async () => {
    // The answer starts, nothing of it arrives, and the page begins to go.
    const { fetch, drop } = droppableFetch('content_block_start');
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 64 },
      fetch,
      batch: false,
    });
    render(<ChatStream store={store} />);
    const sent = store.getState().send('Go on');
    await waitFor(() => expect(store.getState().status).toBe('streaming'));
    dispatchEvent(new Event('beforeunload'));
    drop();
    await act(() => sent);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'The page was closed or reloaded before the answer started. Try again.',
      ),
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
  });
});
