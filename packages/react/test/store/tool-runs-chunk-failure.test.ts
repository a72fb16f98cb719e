import { accumulate } from '@message-stream/core';
import { describe, expect, it, vi } from 'vitest';
import { linearTree } from '../../src/store/tree.js';
import type { AssistantTurn, ChatState } from '../../src/store/types.js';
import { fixture, scriptedFetch, sse, textAnswer, toolIds, weatherToolStore } from './support.js';

// The tool loop's running part (a chunk loaded on demand) cannot be loaded: offline, or a
// deploy that replaced it.
vi.mock('../../src/store/effects/tool-runs.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const lastAnswer = (state: ChatState) =>
  state.turns.filter((t): t is AssistantTurn => t.role === 'assistant').at(-1) as AssistantTurn;

describe('the tool loop, when its chunk cannot be loaded', () => {
  it('ends the calls with the reason, sends nothing more, and throws nothing', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('never sent')),
    );
    const run = vi.fn(() => '18 °C');
    const store = weatherToolStore(run, { fetch });
    await expect(store.getState().send('Weather?')).resolves.toBeUndefined();
    const [id] = toolIds(lastAnswer(store.getState()));
    const result = lastAnswer(store.getState()).toolResults[id as string];
    expect(result).toMatchObject({ status: 'error', isError: true });
    // The reason is the loader's error (here vitest's wrapper of the mock's throw).
    expect(String((result as { content: unknown }).content)).toMatch(
      /^The tool could not be run: \S.*/,
    );
    expect(store.getState().status).toBe('aborted');
    expect(run).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it('keeps a restored call waiting for approval, and says why, when approved offline', async () => {
    const stream = await accumulate(fixture('spec-tool-use'));
    const [call] = toolIds({ stream } as AssistantTurn);
    const pending: AssistantTurn = {
      id: 'a1',
      role: 'assistant',
      request,
      stream,
      toolResults: { [call as string]: { status: 'awaiting-approval' } },
      startedAt: 0,
      finishedAt: 1,
    };
    const tree = linearTree([{ id: 'u1', role: 'user', content: 'Weather?' }, pending]);
    const text = JSON.stringify({ state: { tree }, version: 1 });
    const storage = { getItem: () => text, setItem: () => {}, removeItem: () => {} };
    const run = vi.fn(() => '18 °C');
    const onError = vi.fn();
    const store = weatherToolStore(run, {
      needsApproval: true,
      persist: { name: 'offline', storage },
      onError,
    });
    await store.restored;
    expect(store.getState().status).toBe('awaiting-approval');
    await expect(store.getState().approveToolCall(call as string)).resolves.toBeUndefined();
    expect(run).not.toHaveBeenCalled();
    expect(lastAnswer(store.getState()).toolResults[call as string]).toEqual({
      status: 'awaiting-approval',
    });
    expect(store.getState().error).toMatchObject({ type: 'tool_error', retryable: true });
    expect(store.getState().error?.message).toMatch(/^The tool could not be run: /);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
