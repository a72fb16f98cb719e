import { describe, expect, it } from 'vitest';
import {
  accumulate,
  createStreamState,
  decodeEventStream,
  MAX_DIAGNOSTICS,
  reduceStream,
  type StreamEvent,
  streamMessage,
  toMessage,
} from '../src/index.js';
import { blockStart, messageStart, text as textDelta } from './support/events.js';
import { sseEvent } from './support/streams.js';

const start = messageStart();
const textStart = blockStart(0, { type: 'text', text: '' });
const text = (t: string): StreamEvent => textDelta(0, t);
const sse = (events: unknown[]) =>
  events.map((e) => sseEvent(e as Parameters<typeof sseEvent>[0])).join('');

describe('message_delta cannot break the message', () => {
  it('ignores fields that would replace the content, usage or identity', async () => {
    const state = await accumulate(
      sse([
        start,
        textStart,
        text('kept'),
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', content: null },
          content: 'oops',
          id: 'x',
        },
        text(' and more'),
        { type: 'content_block_stop', index: 0 },
        { type: 'message_stop' },
      ]),
    );
    expect(state.status).toBe('complete');
    expect(toMessage(state)).toMatchObject({
      id: 'msg_1',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'kept and more' }],
    });
    expect(state.diagnostics).toEqual([]);
  });

  it('does not let a later null erase a stop reason', () => {
    const state = [
      start,
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null } },
      { type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 9 } },
    ].reduce((s, e) => reduceStream(s, e as StreamEvent), createStreamState());
    expect(toMessage(state)?.stop_reason).toBe('end_turn');
    expect(toMessage(state)?.usage.output_tokens).toBe(9);
  });
});

describe('unknown types at volume', () => {
  it('keeps the first diagnostics and counts the rest, so each event costs the same', () => {
    let state = reduceStream(reduceStream(createStreamState(), start), textStart);
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      state = reduceStream(state, {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta_v2', text: String(i) },
      } as StreamEvent);
    }
    expect(state.diagnostics).toHaveLength(MAX_DIAGNOSTICS);
    expect(state.diagnosticsDropped).toBe(n - MAX_DIAGNOSTICS);
    const block = state.message?.content[0];
    expect(block?.otherDeltas).toHaveLength(MAX_DIAGNOSTICS);
    expect(block?.otherDeltasDropped).toBe(n - MAX_DIAGNOSTICS);
    // Known deltas still apply after the cap, and the counters survive them.
    state = reduceStream(state, text('still here'));
    expect(toMessage(state)?.content[0]).toEqual({ type: 'text', text: 'still here' });
    expect(state.diagnosticsDropped).toBe(n - MAX_DIAGNOSTICS);
  });
});

describe('bodies that are not streams', () => {
  it('treats a missing body as an empty stream', async () => {
    const events: StreamEvent[] = [];
    for await (const event of decodeEventStream(null)) events.push(event);
    expect(events).toEqual([]);
    const state = await accumulate(null);
    expect(state.status).toBe('interrupted');
    expect(state.message).toBeNull();
  });

  it('accepts a plain array of chunks', async () => {
    const body = sse([start, textStart, text('Hi'), { type: 'message_stop' }]);
    const state = await accumulate([body.slice(0, 50), body.slice(50)] as never);
    expect(state.status).toBe('complete');
  });

  it('ends an unusable body as interrupted instead of throwing', async () => {
    const state = await accumulate(42 as never);
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('network_error');
  });
});

describe('a reset right after the last event', () => {
  it('keeps a final message_stop that lacks its blank line', async () => {
    const whole = sse([start, textStart, text('Done.'), { type: 'content_block_stop', index: 0 }]);
    async function* body() {
      yield `${whole}event: message_stop\ndata: {"type":"message_stop"}\n`;
      throw new TypeError('socket reset');
    }
    const state = await accumulate(body());
    expect(state.status).toBe('complete');
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'Done.' }]);
  });

  it('does the same through streamMessage', async () => {
    const whole = sse([start, textStart, text('Done.'), { type: 'content_block_stop', index: 0 }]);
    const encoder = new TextEncoder();
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode(`${whole}data: {"type":"message_stop"}\n`));
            setTimeout(() => controller.error(new TypeError('socket reset')), 5);
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const state = await streamMessage(
      { model: 'm', max_tokens: 1, messages: [] },
      { fetch, endpoint: 'http://x.test/v1/messages', transport: 'fetch' },
    );
    expect(state.status).toBe('complete');
  });
});

describe('streamMessage never rejects', () => {
  it('reports a request that cannot be serialized as an invalid request', async () => {
    const cyclic: Record<string, unknown> = { model: 'm', max_tokens: 1, messages: [] };
    cyclic.self = cyclic;
    let called = false;
    const state = await streamMessage(cyclic as never, {
      fetch: async () => {
        called = true;
        return new Response('');
      },
    });
    expect(called).toBe(false);
    expect(state.status).toBe('error');
    expect(state.error).toMatchObject({ type: 'invalid_request_error', retryable: false });
  });

  it('ends as aborted when stopped while an error body is still arriving', async () => {
    const controller = new AbortController();
    const fetch = async (_input: unknown, init?: RequestInit) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(stream) {
            stream.enqueue(
              new TextEncoder().encode('{"type":"error","error":{"type":"overloaded_error",'),
            );
            init?.signal?.addEventListener('abort', () =>
              stream.error(new DOMException('aborted', 'AbortError')),
            );
          },
        }),
        { status: 529, headers: { 'content-type': 'application/json' } },
      );
    setTimeout(() => controller.abort(), 20);
    const state = await streamMessage(
      { model: 'm', max_tokens: 1, messages: [] },
      {
        fetch,
        signal: controller.signal,
        retry: false,
        transport: 'fetch',
        endpoint: 'http://x.test/v1/messages',
      },
    );
    expect(state.status).toBe('aborted');
  });
});
