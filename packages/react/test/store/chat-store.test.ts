import { accumulate, type StreamState, toMessage, validateMessages } from '@message-stream/core';
import { sseEvent } from '@message-stream/mock';
import { describe, expect, it, vi } from 'vitest';
import {
  type AssistantTurn,
  type ChatPersistStorage,
  type ChatState,
  createChatStore,
} from '../../src/index.js';
import {
  fixture,
  mapStorage,
  offsetAfter,
  scriptedFetch,
  sse,
  textAnswer,
  textAnswerEvents,
} from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
/** The request to continue that ends a user turn: it quotes the partial answer in full. */
const askToContinue = (partial: string) => ({
  type: 'text',
  text: `Your previous response was interrupted and ended with [${partial}]. Continue from where you left off.`,
});
const answers = (state: ChatState) =>
  state.turns.filter((t): t is AssistantTurn => t.role === 'assistant');
const lastAnswer = (state: ChatState) => answers(state).at(-1) as AssistantTurn;
const textOf = (stream: StreamState) =>
  (toMessage(stream)?.content ?? [])
    .map((b) => (b.type === 'text' ? (b as { text: string }).text : ''))
    .join('');

describe('createChatStore: send', () => {
  it('streams an answer into a new turn and ends complete with the fixture message', async () => {
    const { fetch, requests } = scriptedFetch(() => sse(fixture('spec-tool-use')));
    const store = createChatStore({ request, fetch, endpoint: '/api/messages', batch: false });
    const statuses: string[] = [];
    store.subscribe((s) => {
      if (statuses.at(-1) !== s.status) statuses.push(s.status);
    });
    await store.getState().send('What is the weather in San Francisco?');

    const state = store.getState();
    expect(state.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(statuses).toEqual(['submitted', 'streaming', 'complete']);
    expect(toMessage(lastAnswer(state).stream)).toEqual(
      toMessage(await accumulate(fixture('spec-tool-use'))),
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe('/api/messages');
    expect(requests[0]?.body).toEqual({
      model: 'claude-opus-5',
      max_tokens: 1024,
      stream: true,
      messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
    });
    expect(state.error).toBeNull();
  });

  it('sends the history of earlier turns with the next message', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-basic-text')),
      () => sse(fixture('spec-basic-text')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Hello');
    await store.getState().send('Again');
    expect(requests[1]?.body.messages).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: 'Again' },
    ]);
  });

  it('reports an HTTP error as status error with the typed error, and calls onError', async () => {
    const onError = vi.fn();
    const { fetch } = scriptedFetch(
      () =>
        new Response(
          JSON.stringify({
            message: 'API key has been revoked or does not exist.',
            error: 'token_revoked',
          }),
          { status: 401, headers: { 'content-type': 'application/json' } },
        ),
    );
    const store = createChatStore({ request, fetch, batch: false, onError });
    await store.getState().send('Hi');
    const state = store.getState();
    expect(state.status).toBe('error');
    expect(state.error).toMatchObject({
      type: 'authentication_error',
      code: 'token_revoked',
      status: 401,
    });
    expect(onError).toHaveBeenCalledWith(state.error, lastAnswer(state));
  });
});

describe('createChatStore: batching', () => {
  it('coalesces notifications per frame without losing any event', async () => {
    const text = fixture('long-markdown');
    const { fetch } = scriptedFetch(
      () => new Response(text, { headers: { 'content-type': 'text/event-stream' } }),
    );
    const store = createChatStore({ request, fetch, batch: 'frame' });
    let notifications = 0;
    store.subscribe(() => {
      notifications++;
    });
    await store.getState().send('Write a long answer');
    const deltas = text.split('event: content_block_delta').length - 1;
    expect(deltas).toBeGreaterThan(2000);
    // One chunk holds every event: a handful of frames at most, not one per delta.
    expect(notifications).toBeLessThan(10);
    expect(textOf(lastAnswer(store.getState()).stream)).toBe(textOf(await accumulate(text)));
  });

  it('notifies once per event state when batching is off', async () => {
    const { fetch } = scriptedFetch(() => sse(fixture('text-pings')));
    const store = createChatStore({ request, fetch, batch: false });
    const streams = new Set<StreamState>();
    store.subscribe((s) => {
      const answer = answers(s).at(-1);
      if (answer) streams.add(answer.stream);
    });
    await store.getState().send('Hi');
    const events = fixture('text-pings').split('\nevent: ').length - 1;
    const pings = fixture('text-pings').split('event: ping').length - 1;
    // Every event that changes the state is published (pings change nothing).
    expect(streams.size).toBeGreaterThanOrEqual(events - pings);
  });
});

describe('createChatStore: stop, resume, retry', () => {
  it('stop mid-stream keeps the text that arrived and ends aborted', async () => {
    const text = fixture('long-markdown');
    const { fetch } = scriptedFetch(() =>
      sse(text, { cutAt: offsetAfter(text, 'text_delta', 200), hang: true }),
    );
    const store = createChatStore({ request, fetch, batch: false });
    const sent = store.getState().send('Write');
    await vi.waitFor(() =>
      expect(textOf(lastAnswer(store.getState()).stream).length).toBeGreaterThan(100),
    );
    store.getState().stop();
    await sent;
    const state = store.getState();
    expect(state.status).toBe('aborted');
    const kept = textOf(lastAnswer(state).stream);
    expect(kept.length).toBeGreaterThan(100);
    expect(textOf(await accumulate(text)).startsWith(kept)).toBe(true);
  });

  it('resume after a dropped connection yields one complete message without duplicated text', async () => {
    const text = fixture('text-pings');
    const full = textOf(await accumulate(text));
    const { fetch, requests } = scriptedFetch(
      () => sse(text, { cutAt: offsetAfter(text, 'text_delta', 6) }),
      () => sse(textAnswer('PLACEHOLDER')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Tell me');
    const interrupted = lastAnswer(store.getState()).stream;
    expect(store.getState().status).toBe('interrupted');
    const partial = textOf(interrupted);
    expect(full.startsWith(partial)).toBe(true);

    // The continuation answers with exactly the rest of the text.
    const rest = full.slice(partial.length);
    const resumed = scriptedFetch(() => sse(textAnswer(rest)));
    store.setOptions({ request, fetch: resumed.fetch, batch: false });
    await store.getState().resume();

    const state = store.getState();
    expect(answers(state)).toHaveLength(1);
    expect(state.status).toBe('complete');
    expect(textOf(lastAnswer(state).stream)).toBe(full);
    expect(requests).toHaveLength(1);
    // claude-opus-5 resumes with the request to continue, quoting the partial answer,
    // joined onto the question, so that roles alternate.
    const messages = resumed.requests[0]?.body.messages as Array<{
      role: string;
      content: unknown;
    }>;
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Tell me' }, askToContinue(partial)] },
    ]);
    expect(validateMessages(messages)).toEqual([]);
    expect(lastAnswer(state).stream.attempts).toHaveLength(2);
  });

  it('resume repeats the history the answer was asked with; no turn keeps a copy of it', async () => {
    const text = fixture('text-pings');
    const full = textOf(await accumulate(text));
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('First answer.')),
      () => sse(text, { cutAt: offsetAfter(text, 'text_delta', 6) }),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('First');
    await store.getState().send('Second');
    expect(store.getState().status).toBe('interrupted');
    // A history copy per answer would make a long conversation quadratic in memory and in
    // what persistence writes.
    for (const turn of answers(store.getState())) {
      expect(turn.request).toEqual(request);
    }

    const partial = textOf(lastAnswer(store.getState()).stream);
    const resumed = scriptedFetch(() => sse(textAnswer(full.slice(partial.length))));
    store.setOptions({ request, fetch: resumed.fetch, batch: false });
    await store.getState().resume();

    expect(textOf(lastAnswer(store.getState()).stream)).toBe(full);
    const asked = requests[1]?.body.messages as unknown[];
    expect(asked).toEqual([
      { role: 'user', content: 'First' },
      { role: 'assistant', content: [{ type: 'text', text: 'First answer.' }] },
      { role: 'user', content: 'Second' },
    ]);
    const continuation = resumed.requests[0]?.body.messages as unknown[];
    expect(continuation).toEqual([
      ...asked.slice(0, -1),
      { role: 'user', content: [{ type: 'text', text: 'Second' }, askToContinue(partial)] },
    ]);
    expect(validateMessages(continuation)).toEqual([]);
  });

  it('resume repeats the history as it was sent, even when an earlier answer settled after', async () => {
    const thinking = fixture('spec-thinking');
    const text = fixture('text-pings');
    const full = textOf(await accumulate(text));
    const { fetch, requests } = scriptedFetch(
      () => sse(thinking, { cutAt: offsetAfter(thinking, '"thinking_delta"', 1), hang: true }),
      () => sse(text, { cutAt: offsetAfter(text, 'text_delta', 6) }),
    );
    const store = createChatStore({ request, fetch, batch: false });
    void store.getState().send('First');
    await vi.waitFor(() =>
      expect(lastAnswer(store.getState()).stream.message?.content).toHaveLength(1),
    );
    // The second question goes out with the first answer as it then stood (a thought in
    // progress, which cannot be sent: an unsigned thinking block is rejected by the API, so
    // the two questions go out as one user message); stopping it afterwards settles that
    // answer differently.
    await store.getState().send('Second');
    expect(store.getState().status).toBe('interrupted');
    const asked = requests[1]?.body.messages as unknown[];
    expect(asked).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'First' },
          { type: 'text', text: 'Second' },
        ],
      },
    ]);

    const partial = textOf(lastAnswer(store.getState()).stream);
    const resumed = scriptedFetch(() => sse(textAnswer(full.slice(partial.length))));
    store.setOptions({ request, fetch: resumed.fetch, batch: false });
    await store.getState().resume();
    const continuation = resumed.requests[0]?.body.messages as unknown[];
    expect(continuation).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'First' },
          { type: 'text', text: 'Second' },
          askToContinue(partial),
        ],
      },
    ]);
    expect(validateMessages(continuation)).toEqual([]);
  });

  it('retry regenerates the last answer from the same request', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('max-tokens')),
      () => sse(fixture('spec-basic-text')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Go');
    const first = lastAnswer(store.getState());
    await store.getState().retry();
    const state = store.getState();
    expect(answers(state)).toHaveLength(1);
    expect(lastAnswer(state).id).not.toBe(first.id);
    expect(textOf(lastAnswer(state).stream)).toBe('Hello!');
    expect(requests[1]?.body.messages).toEqual(requests[0]?.body.messages);
  });
});

describe('createChatStore: tools', () => {
  it('runs onToolCall, sends the tool_result and continues the turn', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('It is 18 °C and sunny in San Francisco.')),
    );
    const onToolCall = vi.fn(async (call: { name: string; input: unknown }) => ({
      temperature: 18,
      city: (call.input as { location: string }).location,
    }));
    const store = createChatStore({ request, fetch, batch: false, onToolCall });
    await store.getState().send('Weather?');

    expect(onToolCall).toHaveBeenCalledTimes(1);
    expect(onToolCall.mock.calls[0]?.[0]).toMatchObject({
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'get_weather',
      input: { location: 'San Francisco, CA' },
    });
    const state = store.getState();
    expect(state.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(answers(state)[0]?.toolResults).toEqual({
      toolu_01T1x1fJ34qAmk2tNTrN7Up6: {
        status: 'complete',
        content: { temperature: 18, city: 'San Francisco, CA' },
      },
    });
    const second = requests[1]?.body.messages as Array<{ role: string; content: unknown }>;
    expect(second.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          content: '{"temperature":18,"city":"San Francisco, CA"}',
        },
      ],
    });
    expect(second.at(-2)?.role).toBe('assistant');
    expect(state.status).toBe('complete');
  });

  it('turns a throwing tool into an error result', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Sorry, the weather service failed.')),
    );
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      onToolCall: () => {
        throw new Error('service down');
      },
    });
    await store.getState().send('Weather?');
    const sent = requests[1]?.body.messages as Array<{ content: unknown }>;
    expect(sent.at(-1)?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        content: 'service down',
        is_error: true,
      },
    ]);
  });

  it('continues when the app adds every tool result itself', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('parallel-tool-calls')),
      () => sse(textAnswer('Both cities are warm.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Two cities?');
    const calls = (toMessage(lastAnswer(store.getState()).stream)?.content ?? []).filter(
      (b) => b.type === 'tool_use',
    ) as Array<{ id: string }>;
    expect(calls).toHaveLength(2);
    await store.getState().addToolResult(calls[0]?.id as string, '20 °C');
    expect(requests).toHaveLength(1);
    await store.getState().addToolResult(calls[1]?.id as string, 'timeout', { isError: true });
    expect(requests).toHaveLength(2);
    expect(store.getState().status).toBe('complete');
  });
});

describe('createChatStore: messages and persistence', () => {
  it('setMessages replaces the conversation, reset empties it', () => {
    const store = createChatStore({ request, batch: false });
    store.getState().setMessages([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello there.' },
    ]);
    const state = store.getState();
    expect(state.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(textOf(lastAnswer(state).stream)).toBe('Hello there.');
    store.getState().reset();
    expect(store.getState().turns).toEqual([]);
    expect(store.getState().status).toBe('idle');
  });

  it('restores an answer cut off by a reload as interrupted, and resumes it', async () => {
    const { saved, storage } = mapStorage();
    const text = fixture('text-pings');
    const full = textOf(await accumulate(text));
    const first = scriptedFetch(() =>
      sse(text, { cutAt: offsetAfter(text, 'text_delta', 5), hang: true }),
    );
    const before = createChatStore({
      request,
      fetch: first.fetch,
      batch: false,
      persist: { name: 'chat', storage },
    });
    void before.getState().send('Tell me');
    await vi.waitFor(() =>
      expect(textOf(lastAnswer(before.getState()).stream).length).toBeGreaterThan(10),
    );
    // Writes are throttled: wait until the streaming answer has been saved.
    await vi.waitFor(() => expect(saved.get('chat') ?? '').toContain('"status":"streaming"'), {
      timeout: 3000,
    });

    // The page reloads: a new store reads what the old one saved mid-stream.
    const options = { request, batch: false, persist: { name: 'chat', storage } } as const;
    const after = createChatStore(options);
    await after.restored;
    before.getState().stop();
    expect(after.getState().status).toBe('interrupted');
    // Said as what happened (a reload), not as a network failure.
    expect(lastAnswer(after.getState()).stream.error).toMatchObject({
      type: 'stream_interrupted',
      retryable: true,
      description:
        'The page was closed or reloaded before the answer finished. Resume to continue it.',
    });
    const partial = textOf(lastAnswer(after.getState()).stream);
    expect(partial.length).toBeGreaterThan(0);
    expect(full.startsWith(partial)).toBe(true);
    const resumed = scriptedFetch(() => sse(textAnswer(full.slice(partial.length))));
    after.setOptions({ ...options, fetch: resumed.fetch });

    await after.getState().resume();
    expect(after.getState().status).toBe('complete');
    expect(textOf(lastAnswer(after.getState()).stream)).toBe(full);
  });

  it('keeps working when the storage is full, and writes at most a few times per stream', async () => {
    let writes = 0;
    const storage: ChatPersistStorage = {
      getItem: () => null,
      setItem: () => {
        writes++;
        throw new DOMException('quota', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch } = scriptedFetch(
      () =>
        new Response(fixture('long-markdown'), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      persist: { name: 'full', storage },
    });
    await store.getState().send('Write');
    expect(store.getState().status).toBe('complete');
    await vi.waitFor(() => expect(writes).toBeGreaterThan(0), { timeout: 3000 });
    // Thousands of states were published; the storage saw a handful of writes.
    expect(writes).toBeLessThan(10);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe('createChatStore: races and history', () => {
  it('times the first content as it is read, even when the whole answer lands in one frame', async () => {
    const { fetch } = scriptedFetch(() => sse(textAnswer('Quick.')));
    // Frame batching (the default): this answer ends before its first publish.
    const store = createChatStore({ request, fetch });
    await store.getState().send('Hi');
    const answer = lastAnswer(store.getState());
    expect(answer.firstContentAt).toEqual(expect.any(Number));
    expect(answer.firstContentAt).toBeGreaterThanOrEqual(answer.startedAt);
    expect(answer.firstContentAt).toBeLessThanOrEqual(answer.finishedAt as number);
  });

  it('serializes each earlier message once, however many sends carry it', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(textAnswer('4')),
      () => sse(textAnswer('6')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    const stringify = vi.spyOn(JSON, 'stringify');
    await store.getState().send('What is 2+2?');
    await store.getState().send('And 3+3?');
    const first = (value: unknown) =>
      (value as { content?: unknown } | null)?.content === 'What is 2+2?';
    expect((requests[1]?.body.messages as unknown[] | undefined)?.[0]).toEqual({
      role: 'user',
      content: 'What is 2+2?',
    });
    expect(stringify.mock.calls.filter(([value]) => first(value))).toHaveLength(1);
    stringify.mockRestore();
  });

  it('stop while client tools run aborts their signal and sends nothing more', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('should never be asked for')),
    );
    let seen: AbortSignal | undefined;
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      onToolCall: async (call) => {
        seen = call.signal;
        // The tool finishes only once stopped, so the test cannot race a real finish;
        // its late 'sunny' must then be ignored.
        await new Promise((resolve) => call.signal.addEventListener('abort', resolve));
        return 'sunny';
      },
    });
    const sent = store.getState().send('Weather?');
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    store.getState().stop();
    await sent;
    expect(seen?.aborted).toBe(true);
    expect(requests).toHaveLength(1);
    expect(store.getState().status).toBe('aborted');
    expect(Object.values(lastAnswer(store.getState()).toolResults)).toEqual([
      {
        status: 'error',
        content: 'Stopped before the tool finished.',
        isError: true,
        endedBy: 'stop',
      },
    ]);
  });

  // An attack review: a tool that ignores its signal held the conversation in running-tools
  // after stop(), and a Regenerate waiting for it never sent.
  it('stop ends client tools that ignore their signal at once, and Regenerate then asks again', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('spec-tool-use')),
      () => sse(textAnswer('Regenerated.')),
    );
    const store = createChatStore({
      request,
      fetch,
      batch: false,
      onToolCall: () => new Promise(() => {}),
    });
    const sent = store.getState().send('Weather?');
    await vi.waitFor(() => expect(store.getState().status).toBe('running-tools'));
    store.getState().stop();
    await sent;
    expect(store.getState().status).toBe('aborted');
    expect(Object.values(lastAnswer(store.getState()).toolResults)).toEqual([
      expect.objectContaining({ status: 'error', endedBy: 'stop' }),
    ]);
    await store.getState().regenerate();
    expect(requests).toHaveLength(2);
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('Regenerated.');
    expect(store.getState().status).toBe('complete');
  });

  it('retry of a request that failed before anything arrived answers in its place, no version', async () => {
    const { fetch, requests } = scriptedFetch(
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => sse(textAnswer('Hello!')),
    );
    const store = createChatStore({ request, fetch, batch: false, retry: false });
    await store.getState().send('Hi');
    const failed = lastAnswer(store.getState());
    expect(failed.stream.status).toBe('error');
    await store.getState().retry();
    const answer = lastAnswer(store.getState());
    expect(answer.id).toBe(failed.id);
    expect(store.getState().branchesOf(answer.id)).toEqual({ index: 0, count: 1 });
    expect(textOf(answer.stream)).toBe('Hello!');
    expect(answer.stream.error ?? null).toBeNull();
    expect(requests[1]?.body.messages).toEqual(requests[0]?.body.messages);
  });

  it('retry of an answer loaded from history asks again with the conversation before it', async () => {
    const { fetch, requests } = scriptedFetch(() => sse(textAnswer('4')));
    const store = createChatStore({ request, fetch, batch: false });
    store.getState().setMessages([
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: 'Four.' },
    ]);
    await store.getState().retry();
    expect(requests[0]?.body.messages).toEqual([{ role: 'user', content: 'What is 2+2?' }]);
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('4');
  });

  // An attack review: the store merged with the strategy of the stream's model, where the
  // request was chosen by the request's model; a stream that names no model (a gateway) made
  // the merge take a prefill's continuation for a restatement and cut a word at the seam.
  it('merges a resumed answer with the strategy its continuation was sent with', async () => {
    const cut = textAnswerEvents('He said that', 'msg_cut').slice(0, -3);
    delete (cut[0] as unknown as { message: { model?: string } }).message.model;
    const { fetch, requests } = scriptedFetch(
      () => sse(cut.map(sseEvent).join('')),
      () => sse(textAnswer(' that was fine.')),
    );
    const store = createChatStore({
      request: { model: 'claude-sonnet-4-5', max_tokens: 1024 },
      fetch,
      batch: false,
    });
    await store.getState().send('What did he say?');
    expect(lastAnswer(store.getState()).stream.status).toBe('interrupted');
    await store.getState().resume();
    // Claude 4.5 continues a prefill: the answer so far is the request's last turn.
    const sent = requests[1]?.body.messages as { role: string }[] | undefined;
    expect(sent?.at(-1)?.role).toBe('assistant');
    expect(textOf(lastAnswer(store.getState()).stream)).toBe('He said that that was fine.');
  });

  it('a second resume while one runs is ignored', async () => {
    const text = fixture('text-pings');
    const full = textOf(await accumulate(text));
    const { fetch } = scriptedFetch(() => sse(text, { cutAt: offsetAfter(text, 'text_delta', 6) }));
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Tell me');
    const partial = textOf(lastAnswer(store.getState()).stream);
    const resumed = scriptedFetch(() => sse(textAnswer(full.slice(partial.length))));
    store.setOptions({ request, fetch: resumed.fetch, batch: false });
    const statuses: string[] = [];
    store.subscribe((s) => {
      if (statuses.at(-1) !== s.status) statuses.push(s.status);
    });
    await Promise.all([store.getState().resume(), store.getState().resume()]);
    expect(resumed.requests).toHaveLength(1);
    expect(statuses).toEqual(['submitted', 'streaming', 'complete']);
    expect(textOf(lastAnswer(store.getState()).stream)).toBe(full);
  });

  it('continues a paused turn by sending the answer back, unless told not to', async () => {
    const { fetch, requests } = scriptedFetch(
      () => sse(fixture('pause-turn')),
      () => sse(textAnswer('The search found three sources.')),
    );
    const store = createChatStore({ request, fetch, batch: false });
    await store.getState().send('Search the web');
    expect(requests).toHaveLength(2);
    const second = requests[1]?.body.messages as Array<{ role: string; content: unknown }>;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant']);
    const paused = (second[1]?.content ?? []) as Array<{ type: string }>;
    expect(paused.map((b) => b.type)).toEqual([
      'text',
      'server_tool_use',
      'web_search_tool_result',
    ]);
    expect(answers(store.getState())).toHaveLength(2);
    expect(store.getState().status).toBe('complete');

    const once = scriptedFetch(() => sse(fixture('pause-turn')));
    const manual = createChatStore({
      request,
      fetch: once.fetch,
      batch: false,
      continuePausedTurns: false,
    });
    await manual.getState().send('Search the web');
    expect(once.requests).toHaveLength(1);
    expect(lastAnswer(manual.getState()).stream.message?.stop_reason).toBe('pause_turn');
  });
});
