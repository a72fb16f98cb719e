import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/store/create-chat-store.js';
import { droppableFetch, lastAnswerOf } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 64 };
const streaming = (store: ReturnType<typeof createChatStore>) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (store.getState().status === 'streaming') resolve();
    };
    store.subscribe(check);
    check();
  });

/**
 * Sends `text` on a connection of its own and drops that connection once the answer streams,
 * after a `beforeunload` when `leaving`. Gives the answer's stream as it ended.
 */
async function sendAndDrop(
  store: ReturnType<typeof createChatStore>,
  text: string,
  leaving: boolean,
) {
  const { fetch, drop } = droppableFetch();
  store.setOptions({ request, fetch, batch: false });
  const sent = store.getState().send(text);
  await streaming(store);
  if (leaving) dispatchEvent(new Event('beforeunload'));
  drop();
  await sent;
  return lastAnswerOf(store.getState()).stream;
}

const newStore = () => createChatStore({ request, batch: false });

describe('an answer whose connection fails as the page goes', () => {
  it('says the page was closed or reloaded, not that the network failed, and can be resumed', async () => {
    const stream = await sendAndDrop(newStore(), 'Go on', true);
    expect(stream.status).toBe('interrupted');
    expect(stream.error?.type).toBe('stream_interrupted');
    expect(stream.error?.description).toBe(
      'The page was closed or reloaded before the answer finished. Resume to continue it.',
    );
  });

  it('says a network failure while the page stays as one', async () => {
    const stream = await sendAndDrop(newStore(), 'Go on', false);
    expect(stream.error?.type).toBe('network_error');
  });

  it('stops listening for the page going once the answer ends', async () => {
    const store = newStore();
    await sendAndDrop(store, 'One', false);
    // A leave begun and called off between answers does not mark the next one.
    dispatchEvent(new Event('beforeunload'));
    const stream = await sendAndDrop(store, 'Two', false);
    expect(stream.error?.type).toBe('network_error');
  });
});
