import { describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import { scriptedFetch } from './support.js';

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
});
