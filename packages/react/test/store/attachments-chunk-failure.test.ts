import { describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import { scriptedFetch, sse, textAnswer } from './support.js';

// The attachment helpers (a chunk loaded on demand) cannot be loaded: offline, or a deploy
// that replaced it.
vi.mock('../../src/store/attachments.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const request = { model: 'claude-opus-5', max_tokens: 1024 };

describe('the attachment helpers, when their chunk cannot be loaded', () => {
  it('refuse an edit of a message of blocks with a clear error, sending and adding nothing', async () => {
    const { fetch, requests } = scriptedFetch();
    const onError = vi.fn();
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      onError,
      initialMessages: [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }] },
        { role: 'assistant', content: 'A photo.' },
      ],
    });
    const before = store.getState().turns;
    const question = before[0]?.id as string;
    await expect(store.getState().edit(question, 'And now?')).resolves.toBeUndefined();
    expect(requests).toHaveLength(0);
    expect(store.getState().turns).toBe(before);
    // The import's own failure, as the message (here Vitest's words for the mocked one).
    expect(store.getState().error).toMatchObject({ type: 'attachment_error', retryable: false });
    expect(store.getState().error?.message).toMatch(/mock/i);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('leave an answer that is streaming alone when they refuse an edit', async () => {
    const long = 'A long answer that is still streaming. '.repeat(50);
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer(long), { hang: true }));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      initialMessages: [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }] },
        { role: 'assistant', content: 'A photo.' },
      ],
    });
    const question = store.getState().turns[0]?.id as string;
    const sending = store.getState().send('Tell me more');
    await vi.waitFor(() => expect(store.getState().status).toBe('streaming'));
    await store.getState().edit(question, 'And now?');
    expect(store.getState().error).toMatchObject({ type: 'attachment_error' });
    expect(requests).toHaveLength(1);
    // Nothing replaced the answer the user is reading: it is not cut off for the refusal.
    expect(store.getState().turns.at(-1)?.role).toBe('assistant');
    expect(
      (store.getState().turns.at(-1) as { stream: { status: string } }).stream.status,
    ).not.toBe('aborted');
    store.getState().stop();
    await sending;
  });
});
