import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatStore } from '../../src/index.js';
import type { AssistantTurn, ChatState } from '../../src/store/types.js';
import { fixture, scriptedFetch, sse, textAnswer, toolIds, weatherToolStore } from './support.js';

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
      () => sse(textAnswer('Regenerated.')),
    );
    const run = vi.fn(() => '18 °C');
    const store = weatherToolStore(run, { fetch });
    // Asked for at once, before anything is sent.
    await vi.waitFor(() => expect(gate.loads).toBe(1));
    expect(requests).toHaveLength(0);
    const sending = store.getState().send('Weather?');
    // The answer ends with its tool call while the chunk is still loading: stop ends the
    // calls at once, not when (or if) the chunk arrives.
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    store.getState().stop();
    await sending;
    const [id] = toolIds(lastAnswer(store.getState()));
    expect(lastAnswer(store.getState()).toolResults).toEqual({
      [id as string]: {
        status: 'error',
        content: 'Stopped before the tool finished.',
        isError: true,
        endedBy: 'stop',
      },
    });
    expect(store.getState().status).toBe('aborted');
    // Nothing waits on the chunk: a regenerate goes out at once.
    await store.getState().regenerate();
    expect(requests).toHaveLength(2);
    gate.release();
    await settled();
    expect(run).not.toHaveBeenCalled();
  });

  it('takes a decision at once: a message sent in the same handler carries it', async () => {
    gate.release();
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('ok')),
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('ok')),
    );
    // The app answers the call itself (no tools): nothing preloads the chunk.
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Weather?');
    const [first] = toolIds(lastAnswer(store.getState()));
    void store.getState().addToolResult(first as string, '18 °C');
    await store.getState().send('And tomorrow?');
    expect(JSON.stringify(requests[1]?.body.messages)).toContain(
      `"type":"tool_result","tool_use_id":"${first}","content":"18 °C"`,
    );
  });

  it('denies with the reason given, and an approval stopped in the same tick never runs', async () => {
    gate.release();
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('ok')),
    );
    const run = vi.fn(() => '18 °C');
    const store = weatherToolStore(run, { fetch, needsApproval: true });
    await store.getState().send('Weather?');
    const [denied] = toolIds(lastAnswer(store.getState()));
    void store.getState().denyToolCall(denied as string, 'Not now.');
    await store.getState().send('Later then.');
    expect(JSON.stringify(requests[1]?.body.messages)).toContain(
      '"content":"The user denied this tool call. Their reason: Not now.","is_error":true',
    );

    const again = scriptedFetch(() => sse(fixture('spec-tool-use')));
    const other = weatherToolStore(run, { fetch: again.fetch, needsApproval: true });
    await other.getState().send('Weather again?');
    expect(other.getState().status).toBe('awaiting-approval');
    const [approved] = toolIds(lastAnswer(other.getState()));
    const approving = other.getState().approveToolCall(approved as string);
    other.getState().stop();
    await approving;
    await settled();
    expect(run).not.toHaveBeenCalled();
    expect(lastAnswer(other.getState()).toolResults[approved as string]).toEqual({
      status: 'error',
      content: 'Stopped before the tool finished.',
      isError: true,
      endedBy: 'stop',
    });
  });
});
