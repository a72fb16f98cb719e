/**
 * The polite live region says an answer completed or stopped when it did, in the conversation
 * shown: never because another conversation was shown (an app may pass a thread's store to
 * one ChatStream without a key, as the README's threads do).
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { scriptedFetch, sse, textAnswer } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };

describe('the completion announcement across a switch of conversation', () => {
  // An attack review: switching from a conversation whose answer was streaming to one that
  // had finished long before said "Answer complete." as if the answer left behind had ended.
  it('says nothing when the conversation shown changes, and speaks for the new one', async () => {
    const streaming = createChatStore({
      request,
      batch: false,
      fetch: scriptedFetch(() =>
        sse(textAnswer('A long answer, still coming.'), { cutAt: 300, hang: true }),
      ).fetch,
    });
    const finished = createChatStore({
      request,
      batch: false,
      fetch: scriptedFetch(
        () => sse(textAnswer('Done long ago.')),
        () => sse(textAnswer('Done again.')),
      ).fetch,
    });
    await act(() => finished.getState().send('Earlier'));
    expect(finished.getState().status).toBe('complete');
    void streaming.getState().send('Tell me');
    await waitFor(() => expect(streaming.getState().status).toBe('streaming'));
    const view = render(<ChatStream store={streaming} />);
    const live = () => screen.getByRole('status').textContent;
    expect(live()).toBe('');
    view.rerender(<ChatStream store={finished} />);
    expect(live()).toBe('');
    // An answer of the conversation shown still says so when it completes.
    await act(() => finished.getState().send('Once more'));
    await waitFor(() => expect(live()).toBe('Answer complete.'));
    streaming.getState().stop();
  });
});
