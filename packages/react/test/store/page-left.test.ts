import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/store/create-chat-store.js';
import { lastAnswerOf, textAnswer } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 64 };
const encoder = new TextEncoder();

/**
 * A fetch whose answer sends its first half and then holds, and fails as a dropped connection
 * when `drop` is called: what a service worker's mock does to its streams as a page goes.
 */
function droppableFetch() {
  let fail: (() => void) | undefined;
  const text = textAnswer('Part of an answer that goes on for a while.');
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(text.slice(0, text.indexOf('message_delta'))));
          fail = () => controller.error(new TypeError('Failed to fetch'));
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  return { fetch: fetch as typeof globalThis.fetch, drop: () => fail?.() };
}

const streaming = (store: ReturnType<typeof createChatStore>) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (store.getState().status === 'streaming') resolve();
    };
    store.subscribe(check);
    check();
  });

describe('an answer whose connection fails as the page goes', () => {
  it('says the page was closed or reloaded, not that the network failed, and can be resumed', async () => {
    const { fetch, drop } = droppableFetch();
    const store = createChatStore({ request, fetch, batch: false });
    const sent = store.getState().send('Go on');
    await streaming(store);
    dispatchEvent(new Event('beforeunload'));
    drop();
    await sent;
    const { stream } = lastAnswerOf(store.getState());
    expect(stream.status).toBe('interrupted');
    expect(stream.error?.type).toBe('stream_interrupted');
    expect(stream.error?.description).toBe(
      'The page was closed or reloaded before the answer finished. Resume to continue it.',
    );
  });

  it('says a network failure while the page stays as one', async () => {
    const { fetch, drop } = droppableFetch();
    const store = createChatStore({ request, fetch, batch: false });
    const sent = store.getState().send('Go on');
    await streaming(store);
    drop();
    await sent;
    expect(lastAnswerOf(store.getState()).stream.error?.type).toBe('network_error');
  });

  it('stops listening for the page going once the answer ends', async () => {
    const { fetch, drop } = droppableFetch();
    const store = createChatStore({ request, fetch, batch: false });
    const first = store.getState().send('One');
    await streaming(store);
    drop();
    await first;
    // A leave begun and called off between answers does not mark the next one.
    dispatchEvent(new Event('beforeunload'));
    const again = droppableFetch();
    store.setOptions({ request, fetch: again.fetch, batch: false });
    const second = store.getState().send('Two');
    await streaming(store);
    again.drop();
    await second;
    expect(lastAnswerOf(store.getState()).stream.error?.type).toBe('network_error');
  });
});
