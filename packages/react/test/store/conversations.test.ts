import { accumulate, type StreamState, toMessage, validateMessages } from '@message-stream/core';
import { describe, expect, it, vi } from 'vitest';
import { type AssistantTurn, type ChatState, createChatStore } from '../../src/index.js';
import { fixture, offsetAfter, scriptedFetch, sse, textAnswer, toolIds } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const answers = (state: ChatState) =>
  state.turns.filter((t): t is AssistantTurn => t.role === 'assistant');
const lastAnswer = (state: ChatState) => answers(state).at(-1) as AssistantTurn;
const textOf = (stream: StreamState) =>
  (toMessage(stream)?.content ?? [])
    .map((b) => (b.type === 'text' ? (b as { text: string }).text : ''))
    .join('');
type Sent = Array<{ role: string; content: unknown }>;

describe('tool approval', () => {
  it('waits for approval, runs the tool on approve, and continues', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('18 °C in San Francisco.')),
    );
    const run = vi.fn(async () => ({ temperature: 18 }));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: { get_weather: { run, needsApproval: true } },
    });
    await store.getState().send('Weather?');
    expect(store.getState().status).toBe('awaiting-approval');
    const [id] = toolIds(lastAnswer(store.getState()));
    expect(lastAnswer(store.getState()).toolResults).toEqual({
      [id as string]: { status: 'awaiting-approval' },
    });
    expect(run).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);

    await store.getState().approveToolCall(id as string);
    expect(run).toHaveBeenCalledWith({ location: 'San Francisco, CA' }, expect.anything());
    expect(requests).toHaveLength(2);
    expect((requests[1]?.body.messages as Sent | undefined)?.at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: id, content: '{"temperature":18}' },
    ]);
    expect(store.getState().status).toBe('complete');
  });

  it('denies with is_error and the reason; needsApproval can decide per input', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Understood.')),
    );
    const needsApproval = vi.fn((input: unknown) => JSON.stringify(input).includes('San'));
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: { get_weather: { run: () => 'sunny', needsApproval } },
    });
    await store.getState().send('Weather?');
    expect(needsApproval).toHaveBeenCalledWith({ location: 'San Francisco, CA' });
    const [id] = toolIds(lastAnswer(store.getState()));
    await store.getState().denyToolCall(id as string, 'Not now.');
    // Recorded as the user's decision (shown as declined), sent as the API needs: an error.
    expect(answers(store.getState())[0]?.toolResults[id as string]).toEqual({
      status: 'error',
      content: 'The user denied this tool call. Their reason: Not now.',
      isError: true,
      declined: 'denied',
      reason: 'Not now.',
    });
    expect((requests[1]?.body.messages as Sent | undefined)?.at(-1)?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: id,
        content: 'The user denied this tool call. Their reason: Not now.',
        is_error: true,
      },
    ]);
  });

  it('decides parallel calls one by one and sends them back together', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('parallel-tool-calls')),
      () => sse(textAnswer('Both are warm.')),
    );
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: { get_weather: { run: () => '20 °C', needsApproval: true } },
    });
    await store.getState().send('Two cities?');
    const [first, second] = toolIds(lastAnswer(store.getState()));
    await store.getState().approveToolCall(first as string);
    expect(requests).toHaveLength(1);
    expect(store.getState().status).toBe('awaiting-approval');
    await store.getState().denyToolCall(second as string);
    // No reason typed: none recorded, and the API still gets one.
    expect(answers(store.getState())[0]?.toolResults[second as string]).toEqual({
      status: 'error',
      content: 'The user denied this tool call.',
      isError: true,
      declined: 'denied',
    });
    expect(requests).toHaveLength(2);
    const sent = requests[1]?.body.messages as Sent;
    expect(sent.at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: first, content: '20 °C' },
      {
        type: 'tool_result',
        tool_use_id: second,
        content: 'The user denied this tool call.',
        is_error: true,
      },
    ]);
    expect(validateMessages(sent)).toEqual([]);
  });

  it.each([
    ['awaiting approval', { tools: { get_weather: { run: () => 'sunny', needsApproval: true } } }],
    // No `tools`, no `onToolCall`: the call waits for the app's addToolResult, which never comes.
    ['nobody ran', {}],
  ])('a new message skips a call %s, in the same request', async (_, tools) => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Sure, something else.')),
    );
    const store = createChatStore({ request, fetch, batch: false, ...tools });
    await store.getState().send('Weather?');
    const [id] = toolIds(lastAnswer(store.getState()));
    await store.getState().send('Never mind, tell me a joke.');
    // Skipped by the user, not failed: recorded so, sent as an error result.
    expect(answers(store.getState())[0]?.toolResults[id as string]).toEqual({
      status: 'error',
      content: 'The user sent a new message instead.',
      isError: true,
      declined: 'skipped',
    });
    const sent = requests[1]?.body.messages as Sent;
    expect(sent).toHaveLength(3);
    // The call stays in the history, answered: the model is told it did not run.
    expect(sent[1]?.content).toContainEqual(expect.objectContaining({ type: 'tool_use', id }));
    expect(sent[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: id,
          content: 'The user sent a new message instead.',
          is_error: true,
        },
        { type: 'text', text: 'Never mind, tell me a joke.' },
      ],
    });
    expect(validateMessages(sent)).toEqual([]);
  });
});

describe('edit and branches', () => {
  it('edit makes a sibling user turn with a new answer; the request carries the active path only', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('Paris.')),
      () => sse(textAnswer('Rome.')),
      () => sse(textAnswer('About 2.8 million.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Capital of France?');
    const original = store.getState().turns[0]?.id as string;
    await store.getState().edit(original, 'Capital of Italy?');
    const edited = store.getState().turns[0]?.id as string;
    expect(edited).not.toBe(original);
    expect(store.getState().branchesOf(edited)).toEqual({ index: 1, count: 2 });
    expect(requests[1]?.body.messages).toEqual([{ role: 'user', content: 'Capital of Italy?' }]);

    await store.getState().send('Population?');
    expect(requests[2]?.body.messages).toEqual([
      { role: 'user', content: 'Capital of Italy?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Rome.' }] },
      { role: 'user', content: 'Population?' },
    ]);

    store.getState().selectBranch(edited, 0);
    const shown = store.getState().turns;
    expect(shown.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(textOf((shown[1] as AssistantTurn).stream)).toBe('Paris.');
    expect(store.getState().branchesOf(original)).toEqual({ index: 0, count: 2 });
    // Back to the edit: its branch keeps the later turns.
    store.getState().selectBranch(original, 1);
    expect(store.getState().turns).toHaveLength(4);
  });

  it('regenerate makes a sibling answer, by default of the last answer', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('One.')),
      () => sse(textAnswer('Two.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Count');
    const first = lastAnswer(store.getState()).id;
    await store.getState().regenerate();
    const second = lastAnswer(store.getState()).id;
    expect(store.getState().branchesOf(second)).toEqual({ index: 1, count: 2 });
    expect(requests[1]?.body.messages).toEqual(requests[0]?.body.messages);
    store.getState().selectBranch(second, 0);
    expect(lastAnswer(store.getState()).id).toBe(first);
  });

  /** A long answer streaming (it never ends by itself); the next request answers 'Short.'. */
  async function streamingAnswer() {
    const text = fixture('long-markdown');
    const { fetch, requests } = scriptedFetch(
      () => sse(text, { hang: true, cutAt: 4000 }),
      () => sse(textAnswer('Short.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    void store.getState().send('Long');
    await vi.waitFor(() => expect(textOf(lastAnswer(store.getState()).stream)).not.toBe(''));
    return { store, requests, long: lastAnswer(store.getState()).id };
  }

  it('editing while an answer streams stops it first', async () => {
    const { store, requests, long } = await streamingAnswer();
    await store.getState().edit(store.getState().turns[0]?.id as string, 'Short');
    expect((store.getState().tree.nodes[long] as AssistantTurn).stream.status).toBe('aborted');
    expect(store.getState().status).toBe('complete');
    expect(requests).toHaveLength(2);
  });

  it('regenerating while an answer streams stops it first, and keeps it as a branch', async () => {
    const { store, requests, long } = await streamingAnswer();
    await store.getState().regenerate();
    const stopped = store.getState().tree.nodes[long] as AssistantTurn;
    expect(stopped.stream.status).toBe('aborted');
    // What arrived of it stays, as the other version of the answer.
    expect(textOf(stopped.stream)).not.toBe('');
    const fresh = lastAnswer(store.getState());
    expect(fresh.id).not.toBe(long);
    expect(textOf(fresh.stream)).toBe('Short.');
    expect(store.getState().branchesOf(fresh.id)).toEqual({ index: 1, count: 2 });
    expect(store.getState().status).toBe('complete');
    // The same question again, without the stopped answer in it.
    expect(requests[1]?.body.messages).toEqual([{ role: 'user', content: 'Long' }]);
  });
});

describe('continueAnswer', () => {
  it('continues an answer cut at max_tokens in place', async () => {
    const cut = await accumulate(fixture('max-tokens'));
    const head = textOf(cut);
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('max-tokens')),
      () => sse(textAnswer(' and it ended.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Tell me about the French Revolution');
    expect(lastAnswer(store.getState()).stream.message?.stop_reason).toBe('max_tokens');
    await store.getState().continueAnswer();
    expect(requests).toHaveLength(2);
    expect(answers(store.getState())).toHaveLength(1);
    const text = textOf(lastAnswer(store.getState()).stream);
    expect(text.startsWith(head.trimEnd())).toBe(true);
    expect(text.endsWith('and it ended.')).toBe(true);
    expect(lastAnswer(store.getState()).stream.message?.stop_reason).toBe('end_turn');
    expect(validateMessages(requests[1]?.body.messages)).toEqual([]);
  });

  // An attack review: continuing an earlier answer left the conversation `submitted` for
  // good, so the composer stayed busy.
  it('continues an earlier answer and then gives the status back to the last one', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('max-tokens')),
      () => sse(textAnswer('Second answer.')),
      () => sse(textAnswer(' and it ended.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Write a long essay');
    const cut = store.getState().turns[1] as AssistantTurn;
    await store.getState().send('Another question');
    const continuing = store.getState().continueAnswer(cut.id);
    expect(store.getState().status).toBe('submitted');
    await continuing;
    expect(requests).toHaveLength(3);
    const continued = store.getState().turns[1] as AssistantTurn;
    expect(textOf(continued.stream).endsWith('and it ended.')).toBe(true);
    expect(store.getState().status).toBe('complete');
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('Second answer.');
  });

  it('does nothing for an answer that did not stop at max_tokens', async () => {
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('Done.')));
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Hi');
    await store.getState().continueAnswer();
    expect(requests).toHaveLength(1);
  });
});

describe('attachments', () => {
  const png = () =>
    new File(
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
      'dot.png',
      {
        type: 'image/png',
      },
    );

  it('sends images and text files as blocks before the text', async () => {
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('A dot.')));
    const store = createChatStore({ request, fetch, batch: false });
    const notes = new File(['line one'], 'notes.txt', { type: 'text/plain' });
    await store.getState().send('What is this?', { attachments: [png(), notes] });
    const sent = requests[0]?.body.messages as Sent;
    expect(sent[0]?.content).toEqual([
      {
        type: 'image',
        source: {
          type: 'base64',
          media_type: 'image/png',
          data: btoa('\x89PNG\r\n\x1a\n\x01\x02\x03'),
        },
      },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'line one' },
        title: 'notes.txt',
      },
      { type: 'text', text: 'What is this?' },
    ]);
  });

  it('refuses a file of another type or over the limit before sending, naming it', async () => {
    const { fetch, requests } = scriptedFetch();
    const onError = vi.fn();
    const store = createChatStore({ request, fetch, batch: false, onError });
    const big = new File([new Uint8Array(4 * 1024 * 1024)], 'huge.jpg', { type: 'image/jpeg' });
    await store.getState().send('Look', { attachments: [big] });
    expect(requests).toHaveLength(0);
    expect(store.getState().turns).toEqual([]);
    expect(store.getState().error?.type).toBe('attachment_error');
    expect(store.getState().error?.message).toMatch(
      /^huge\.jpg is too large \(4 MB\): an image can be at most 3\.75 MB\.$/,
    );
    const zip = new File(['PK'], 'code.zip', { type: 'application/zip' });
    await store.getState().send('Look', { attachments: [zip] });
    expect(store.getState().error?.message).toContain('code.zip cannot be attached');
    expect(onError).toHaveBeenCalledTimes(2);
  });
});

describe('history rules', () => {
  it('never sends thinking back from an answer that broke off, even a whole signed block', async () => {
    const thinking = fixture('spec-thinking');
    const { fetch, requests } = scriptedFetch(
      // Cut after the first text delta, the thinking block whole before it.
      () =>
        sse(thinking, {
          cutAt: offsetAfter(thinking, 'is **21**."}}\n\n'),
        }),
      () => sse(textAnswer('Sure.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Think first');
    const cut = lastAnswer(store.getState()).stream;
    expect(cut.status).toBe('interrupted');
    expect(cut.message?.content[0]?.status).toBe('complete');
    expect(cut.message?.content[0]?.block.type).toBe('thinking');
    await store.getState().send('Next');
    const history = requests[1]?.body.messages as Sent;
    const answer = history[1]?.content as Array<{ type: string }>;
    expect(answer.map((block) => block.type)).toEqual(['text']);
  });

  it('a new message while a tool runs stops it and sends the call back stopped, in the same request', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Something else, then.')),
    );
    let release: () => void = () => {};
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      tools: {
        get_weather: {
          run: () => new Promise<string>((resolve) => (release = () => resolve('sunny'))),
        },
      },
    });
    void store.getState().send('Weather?');
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    await store.getState().send('Forget it');
    release();
    const sent = requests[1]?.body.messages as Sent;
    expect(validateMessages(sent)).toEqual([]);
    // Left out, the call came back with no result once a reload sent it as history (a 400).
    const [id] = toolIds(answers(store.getState())[0] as AssistantTurn);
    expect(sent[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: id,
        content: 'Stopped before the tool finished.',
        is_error: true,
      },
      { type: 'text', text: 'Forget it' },
    ]);
  });
});
