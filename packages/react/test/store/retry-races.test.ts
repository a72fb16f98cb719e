import { sseEvent } from '@message-stream/mock';
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/index.js';
import {
  lastAnswerOf as lastAnswer,
  scriptedFetch,
  sse,
  textAnswer,
  textAnswerEvents,
  streamText as textOf,
} from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const failFetch = () => {
  throw new TypeError('Failed to fetch');
};

describe('retry in place, raced', () => {
  it('asks once for two retry() calls before the first went out, and keeps the answer that came', async () => {
    const { fetch, requests } = scriptedFetch(
      failFetch,
      () => sse(textAnswer('Hello!')),
      () => sse(textAnswer('Spent twice')),
    );
    const store = createChatStore({ request, fetch, batch: false, retry: false });
    await store.getState().send('Hi');
    expect(lastAnswer(store.getState()).stream.status).toBe('error');
    // Two calls (a double click, an auto-retry meeting a click): one failed request to redo.
    const first = store.getState().retry();
    const second = store.getState().retry();
    await Promise.all([first, second]);
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('Hello!');
    expect(requests).toHaveLength(2);
  });

  it('sends nothing when the failed answer stopped being shown before the retry went out', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('Hello!')),
      failFetch,
      () => sse(textAnswer('off the path')),
    );
    const store = createChatStore({ request, fetch, batch: false, retry: false });
    await store.getState().send('Hi');
    const firstUser = store.getState().turns[0]?.id as string;
    await store.getState().edit(firstUser, 'Hey');
    expect(lastAnswer(store.getState()).stream.status).toBe('error');
    const pending = store.getState().retry();
    // Before the retry's request goes out, the user shows the first version again.
    store.getState().selectBranch(firstUser, 0);
    await pending;
    // Asked with the shown path, the request's history would be empty: an API 400, paid.
    for (const sent of requests.slice(2)) {
      expect((sent.body.messages as unknown[]).length).toBeGreaterThan(0);
    }
    expect(requests).toHaveLength(2);
  });

  it('sends nothing for a conversation cleared by reset() before the retry went out', async () => {
    const { fetch, requests } = scriptedFetch(failFetch, () => sse(textAnswer('ghost')));
    const store = createChatStore({ request, fetch, batch: false, retry: false });
    await store.getState().send('Hi');
    const pending = store.getState().retry();
    store.getState().reset();
    await pending;
    expect(requests).toHaveLength(1);
    expect(store.getState().turns).toHaveLength(0);
    expect(store.getState().status).not.toBe('submitted');
  });
});

describe('retry of an answer of which something was shown', () => {
  it('keeps a reasoning cut short as a version: what arrived is not replaced in place', async () => {
    const thinking = 'Let me think about this carefully. '.repeat(40);
    const partial = [
      // The message_start of `textAnswer`'s answers.
      textAnswerEvents('', 'msg_t')[0],
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } },
    ]
      .map((event) => sseEvent(event as Parameters<typeof sseEvent>[0]))
      .join('');
    const { fetch } = scriptedFetch(
      () => sse(partial, { cutAt: new TextEncoder().encode(partial).length }),
      () => sse(textAnswer('Hello!')),
    );
    const store = createChatStore({ request, fetch, batch: false, retry: false });
    await store.getState().send('Hi');
    const cut = lastAnswer(store.getState());
    expect(cut.stream.status).toBe('interrupted');
    const shown = (cut.stream.message?.content[0]?.block as { thinking?: string } | undefined)
      ?.thinking;
    expect(shown).toBe(thinking);
    await store.getState().retry();
    // 1,400 characters of reasoning were shown (and billed): they stay, as version 1.
    const versions = store.getState().branchesOf(lastAnswer(store.getState()).id);
    const kept = JSON.stringify(store.getState().tree).includes('Let me think about this');
    expect({ count: versions.count, kept }).toEqual({ count: 2, kept: true });
  });
});
