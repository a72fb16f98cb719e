import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import type { AssistantTurn, ChatState } from '../../src/store/types.js';
import { fixture, scriptedFetch, sse, textAnswer, toolIds } from './support.js';

/**
 * The tool loop's running part is a chunk loaded on demand (store/effects/tool-runs.ts).
 * Here its load waits for `release` (or fails when `fail` is set), to see what the store
 * does meanwhile.
 */
const gate = vi.hoisted(() => {
  let open: () => void = () => {};
  const state = {
    fail: false,
    loads: 0,
    opened: new Promise<void>((resolve) => {
      open = resolve;
    }),
    release: () => open(),
  };
  return state;
});
vi.mock('../../src/store/effects/tool-runs.js', async (importOriginal) => {
  gate.loads++;
  await gate.opened;
  if (gate.fail) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const lastAnswer = (state: ChatState) =>
  state.turns.filter((t): t is AssistantTurn => t.role === 'assistant').at(-1) as AssistantTurn;
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  gate.fail = false;
});

describe('the tool loop loaded on demand', () => {
  it('is asked for when a store with tools is created, and a stop while it loads ends the calls', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('never sent')),
    );
    const run = vi.fn(() => '18 °C');
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: { get_weather: { run } },
    });
    // Asked for at once, before anything is sent.
    await vi.waitFor(() => expect(gate.loads).toBe(1));
    expect(requests).toHaveLength(0);
    const sending = store.getState().send('Weather?');
    // The answer ends with its tool call while the chunk is still loading.
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    store.getState().stop();
    gate.release();
    await sending;
    const [id] = toolIds(lastAnswer(store.getState()));
    expect(run).not.toHaveBeenCalled();
    expect(lastAnswer(store.getState()).toolResults).toEqual({
      [id as string]: {
        status: 'error',
        content: 'Stopped before the tool finished.',
        isError: true,
      },
    });
    expect(store.getState().status).toBe('aborted');
    await settled();
    expect(requests).toHaveLength(1);
  });
});
