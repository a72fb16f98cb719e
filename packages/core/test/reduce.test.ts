import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  type BlockState,
  endStream,
  MAX_DIAGNOSTIC_EVENT_CHARS,
  MAX_DIAGNOSTICS,
  MAX_SUPERSEDED,
  PartialJsonParser,
  reduceStream,
  type StreamEvent,
  type StreamState,
  toMessage,
} from '../src/index.js';
import {
  blockStart,
  blockStop,
  delta,
  json,
  messageDelta,
  messageStart,
  run,
  stop,
  text,
} from './support/events.js';

const start = (overrides: Record<string, unknown> = {}): StreamEvent =>
  messageStart({
    usage: { input_tokens: 25, output_tokens: 1, cache_read_input_tokens: 7 },
    ...overrides,
  });
const blocks = (state: StreamState): readonly BlockState[] => state.message?.content ?? [];
const inputOf = (state: StreamState, i = 0): unknown =>
  (blocks(state)[i]?.block as { input?: unknown } | undefined)?.input;
const codes = (state: StreamState) => state.diagnostics.map((d) => d.code);

describe('reduceStream: identity', () => {
  it('returns the same state for a ping', () => {
    const state = run([start(), blockStart(0, { type: 'text', text: '' })]);
    expect(reduceStream(state, { type: 'ping' })).toBe(state);
  });

  it('changes objects only along the path of the changed block', () => {
    const before = run([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Hello'),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'a'),
    ]);
    const after = reduceStream(before, text(1, 'b'));
    expect(after).not.toBe(before);
    expect(after.message).not.toBe(before.message);
    expect(after.message?.content).not.toBe(before.message?.content);
    expect(blocks(after)[0]).toBe(blocks(before)[0]);
    expect(blocks(after)[1]).not.toBe(blocks(before)[1]);
    expect(after.diagnostics).toBe(before.diagnostics);
    expect(after.message?.usage).toBe(before.message?.usage);
    expect(blocks(after)[1]?.block).toEqual({ type: 'text', text: 'ab' });
  });
});

describe('reduceStream: blocks and deltas', () => {
  it('accumulates text, thinking with its signature, and citations', () => {
    const citation = {
      type: 'web_search_result_location',
      url: 'https://example.com',
      title: 'Example',
      encrypted_index: 'Eo8B',
      cited_text: 'It is sunny.',
    };
    const state = run([
      start(),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Let me ' }),
      delta(0, { type: 'thinking_delta', thinking: 'think.' }),
      delta(0, { type: 'signature_delta', signature: 'EqQB' }),
      delta(0, { type: 'signature_delta', signature: 'Cg==' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      delta(1, { type: 'citations_delta', citation }),
      text(1, 'Sunny.'),
      blockStop(1),
    ]);
    expect(blocks(state)).toEqual([
      {
        index: 0,
        status: 'complete',
        block: { type: 'thinking', thinking: 'Let me think.', signature: 'EqQBCg==' },
      },
      {
        index: 1,
        status: 'complete',
        block: { type: 'text', text: 'Sunny.', citations: [citation] },
      },
    ]);
    expect(state.diagnostics).toEqual([]);
  });

  it('parses tool input incrementally, keeping the raw JSON beside the value', () => {
    let state = run([
      start(),
      blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }),
      json(0, ''),
    ]);
    expect(blocks(state)[0]?.block).toMatchObject({ input: {} });
    state = run([json(0, '{"city": '), json(0, '"Taipe')], state);
    expect(blocks(state)[0]?.block).toMatchObject({ input: { city: 'Taipe' } });
    expect(blocks(state)[0]?.inputJson).toBe('{"city": "Taipe');
    state = run([json(0, 'i"}'), blockStop(0)], state);
    expect(blocks(state)[0]).toEqual({
      index: 0,
      status: 'complete',
      block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Taipei' } },
      inputJson: '{"city": "Taipei"}',
      inputError: null,
    });
  });

  it('gives a tool block with no fragments the input {}', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} }),
      blockStop(0),
    ]);
    expect(toMessage(state)?.content).toEqual([
      { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} },
    ]);
  });

  it('accumulates input_json_delta into any block that has an input (mcp_tool_use)', () => {
    const state = run([
      start(),
      blockStart(0, {
        type: 'mcp_tool_use',
        id: 'mcptoolu_1',
        name: 'q',
        server_name: 's',
        input: {},
      }),
      json(0, '{"sql":'),
      json(0, ' "select 1"}'),
      blockStop(0),
    ]);
    expect(toMessage(state)?.content).toEqual([
      {
        type: 'mcp_tool_use',
        id: 'mcptoolu_1',
        name: 'q',
        server_name: 's',
        input: { sql: 'select 1' },
      },
    ]);
    expect(state.diagnostics).toEqual([]);
  });

  it('keeps invalid tool JSON raw, shows the last good value, and reports it', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'tool_use', id: 'toolu_3', name: 'x', input: {} }),
      json(0, '{"a": "ok", "b": "\\q'),
      blockStop(0),
    ]);
    const block = blocks(state)[0];
    expect(block?.inputJson).toBe('{"a": "ok", "b": "\\q');
    expect(block?.inputError).toMatchObject({ position: 19 });
    expect(inputOf(state)).toEqual({ a: 'ok', b: '' });
    expect(codes(state)).toEqual(['invalid_tool_input']);
  });

  it('keeps unknown and mismatched deltas raw on their block and reports them', () => {
    const unknown = { type: 'text_annotation_delta', note: 'x' };
    const mismatched = { type: 'input_json_delta', partial_json: '{' };
    const state = run([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Hi'),
      delta(0, unknown),
      delta(0, mismatched),
      blockStop(0),
    ]);
    expect(blocks(state)[0]).toEqual({
      index: 0,
      status: 'complete',
      block: { type: 'text', text: 'Hi' },
      otherDeltas: [unknown, mismatched],
    });
    expect(codes(state)).toEqual(['unknown_delta_type', 'delta_type_mismatch']);
  });

  it('keeps blocks of unknown type as they came, and text deltas still apply to them', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'code_execution_output', stdout: '42\n' }),
      blockStop(0),
      blockStart(1, { type: 'fancy_text', text: '' }),
      text(1, 'still text'),
      blockStop(1),
    ]);
    expect(toMessage(state)?.content).toEqual([
      { type: 'code_execution_output', stdout: '42\n' },
      { type: 'fancy_text', text: 'still text' },
    ]);
    expect(codes(state)).toEqual(['unknown_block_type', 'unknown_block_type']);
  });

  it('reports a delta for an index that never started, keeping the event', () => {
    const orphan = text(3, 'lost?');
    const state = run([start(), orphan]);
    expect(state.diagnostics).toEqual([
      { code: 'unknown_block_index', message: expect.stringContaining('3'), event: orphan },
    ]);
  });

  it('orders blocks by index even when their starts arrive out of order', () => {
    const state = run([
      start(),
      blockStart(1, { type: 'text', text: 'second' }),
      blockStart(0, { type: 'text', text: 'first' }),
      text(0, '!'),
    ]);
    expect(toMessage(state)?.content.map((b) => (b as { text: string }).text)).toEqual([
      'first!',
      'second',
    ]);
  });

  it('keeps the first block when a start repeats an index', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'kept'),
      blockStart(0, { type: 'text', text: '' }),
    ]);
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'kept' }]);
    expect(codes(state)).toEqual(['duplicate_block_index']);
  });
});

describe('reduceStream: message level', () => {
  it('merges usage: omitted or null fields keep their start values, unknown ones pass', () => {
    const state = run([
      start(),
      messageDelta(
        { stop_reason: 'end_turn', stop_sequence: null },
        { output_tokens: 15, input_tokens: null, iterations: [{ input_tokens: 10 }] },
      ),
      stop,
    ]);
    expect(toMessage(state)?.usage).toEqual({
      input_tokens: 25,
      output_tokens: 15,
      cache_read_input_tokens: 7,
      iterations: [{ input_tokens: 10 }],
    });
  });

  it.each([
    'end_turn',
    'max_tokens',
    'tool_use',
    'stop_sequence',
    'refusal',
    'pause_turn',
    'model_context_window_exceeded',
  ])('passes stop reason %s through', (reason) => {
    const state = run([start(), messageDelta({ stop_reason: reason, stop_sequence: null }), stop]);
    expect(toMessage(state)?.stop_reason).toBe(reason);
  });

  it('passes other message_delta fields through (input_transformations)', () => {
    const transformations = [{ type: 'model_fallback', from: 'a', to: 'b' }];
    const state = run([
      start(),
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        input_transformations: transformations,
      } as StreamEvent,
    ]);
    expect(toMessage(state)?.input_transformations).toEqual(transformations);
  });

  it('ends with status error on an in-stream error, keeping the content', () => {
    let state = run([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Partial'),
      {
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
        request_id: 'req_1',
      },
    ]);
    state = endStream(state);
    expect(state.status).toBe('error');
    expect(state.error).toEqual({
      type: 'overloaded_error',
      message: 'Overloaded',
      requestId: 'req_1',
      description: 'The service is overloaded right now. Try again in a moment.',
      retryable: true,
    });
    expect(blocks(state)[0]).toEqual({
      index: 0,
      status: 'incomplete',
      block: { type: 'text', text: 'Partial' },
    });
  });

  it('starts a new message on a second message_start and keeps the first as superseded', () => {
    const state = run([
      start({ id: 'msg_A' }),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'The answer is'),
      start({ id: 'msg_B' }),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Fresh.'),
      blockStop(0),
      messageDelta({ stop_reason: 'end_turn' }),
      stop,
    ]);
    expect(toMessage(endStream(state))?.id).toBe('msg_B');
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'Fresh.' }]);
    expect(state.superseded).toHaveLength(1);
    expect(state.superseded[0]?.id).toBe('msg_A');
    expect(state.superseded[0]?.content[0]).toMatchObject({
      status: 'incomplete',
      block: { text: 'The answer is' },
    });
    expect(codes(state)).toEqual(['second_message_start']);
    expect(endStream(state).status).toBe('complete');
  });

  it('keeps content that arrives before message_start', () => {
    const state = run([blockStart(0, { type: 'text', text: '' }), text(0, 'orphan')]);
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'orphan' }]);
    expect(codes(state)).toEqual(['event_before_message_start']);
  });

  it('applies content after message_stop but reports it', () => {
    const state = run([start(), stop, blockStart(0, { type: 'text', text: 'late' })]);
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'late' }]);
    expect(codes(state)).toEqual(['event_after_message_stop']);
  });

  it('does not apply events after the stream ended, but keeps them in a diagnostic', () => {
    const ended = endStream(run([start()]), { type: 'abort' });
    const late = text(0, 'x');
    const after = reduceStream(ended, late);
    expect(after.message).toBe(ended.message);
    expect(after.diagnostics.at(-1)).toMatchObject({ code: 'event_after_end', event: late });
  });

  it('records invalid and unknown events as diagnostics without changing the message', () => {
    const base = run([start()]);
    const invalid: StreamEvent = {
      type: 'invalid_event',
      event: null,
      data: '{oops',
      reason: 'bad',
    };
    const unknown: StreamEvent = { type: 'unknown_event', event: 'x', data: { type: 'x' } };
    const state = run([invalid, unknown], base);
    expect(state.message).toBe(base.message);
    expect(state.diagnostics.map((d) => [d.code, d.event])).toEqual([
      ['invalid_event', invalid],
      ['unknown_event', unknown],
    ]);
  });

  it('keeps an event whose type cannot be turned into text as an unknown event', () => {
    const base = run([start()]);
    const hostile = { type: Object.create(null) } as unknown as StreamEvent;
    const nested = {
      type: 'unknown_event',
      event: null,
      data: { type: Object.create(null) },
    } as unknown as StreamEvent;
    const state = run([hostile, nested], base);
    expect(state.diagnostics.map((d) => d.code)).toEqual(['unknown_event', 'unknown_event']);
    expect(state.message).toBe(base.message);
  });
});

describe('endStream', () => {
  const partial = run([start(), blockStart(0, { type: 'text', text: '' }), text(0, 'So far')]);

  it('is complete when message_stop arrived, whatever the cause', () => {
    const done = run([blockStop(0), messageDelta({ stop_reason: 'end_turn' }), stop], partial);
    expect(endStream(done, { type: 'abort' }).status).toBe('complete');
    expect(endStream(done, { type: 'network' }).status).toBe('complete');
  });

  it.each([
    [{ type: 'eof' } as const, 'interrupted', 'stream_interrupted'],
    [{ type: 'network', message: 'socket hang up' } as const, 'interrupted', 'network_error'],
    [{ type: 'idle_timeout', ms: 60000 } as const, 'interrupted', 'idle_timeout'],
  ])('ends %o as %s (%s), keeping the partial block', (cause, status, type) => {
    const ended = endStream(partial, cause);
    expect(ended.status).toBe(status);
    expect(ended.error).toMatchObject({ type, retryable: true });
    expect(blocks(ended)[0]).toEqual({
      index: 0,
      status: 'incomplete',
      block: { type: 'text', text: 'So far' },
    });
  });

  it('ends an aborted stream as aborted with no error', () => {
    const ended = endStream(partial, { type: 'abort' });
    expect(ended.status).toBe('aborted');
    expect(ended.error).toBeNull();
    expect(toMessage(ended)?.content).toEqual([{ type: 'text', text: 'So far' }]);
  });

  it('is idempotent', () => {
    const ended = endStream(partial);
    expect(endStream(ended, { type: 'abort' })).toBe(ended);
  });
});

describe('reduceStream: purity', () => {
  it('reducing from an older state again gives the same result (tool input included)', () => {
    const base = run([
      start(),
      blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} }),
      json(0, '{"a": "x'),
    ]);
    const left = run([json(0, 'y"}')], base);
    const right = run([json(0, 'z", "b": 2}')], base);
    const leftAgain = run([json(0, 'y"}')], base);
    expect(inputOf(left)).toEqual({ a: 'xy' });
    expect(inputOf(right)).toEqual({ a: 'xz', b: 2 });
    expect(inputOf(leftAgain)).toEqual({ a: 'xy' });
    expect(inputOf(base)).toEqual({ a: 'x' });
  });

  it('never throws, whatever it is given', () => {
    const event = fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom(
          'message_start',
          'content_block_start',
          'content_block_delta',
          'content_block_stop',
          'message_delta',
          'message_stop',
          'error',
          'ping',
        ),
        index: fc.oneof(fc.nat(3), fc.anything()),
        message: fc.anything(),
        content_block: fc.oneof(
          fc.record({ type: fc.constantFrom('text', 'tool_use', 'thinking'), text: fc.string() }),
          fc.anything(),
        ),
        delta: fc.oneof(
          fc.record({
            type: fc.constantFrom('text_delta', 'input_json_delta', 'signature_delta'),
            text: fc.anything(),
            partial_json: fc.string(),
          }),
          fc.anything(),
        ),
        usage: fc.anything(),
        error: fc.anything(),
      }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const state = endStream(run(events as StreamEvent[]));
        toMessage(state);
        JSON.stringify(toMessage(state));
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------
describe('reduceStream: keys from the wire are data', () => {
  const wire = (json: string): StreamEvent => JSON.parse(json) as StreamEvent;

  it('a __proto__ field on a tool block keeps the block a tool block with its input', () => {
    const state = run([
      start(),
      wire(
        '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{},"__proto__":{"x":1}}}',
      ),
      json(0, '{"a":1}'),
      blockStop(0),
    ]);
    const block = blocks(state)[0]?.block as Record<string, unknown>;
    expect(block.input).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(block)).not.toEqual({ x: 1 });
    expect(Object.getOwnPropertyDescriptor(block, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('__proto__ in message_delta.delta and usage is an own field, prototypes untouched', () => {
    const state = run([
      start(),
      wire(
        '{"type":"message_delta","delta":{"stop_reason":"end_turn","__proto__":{"container":"evil"}},"usage":{"output_tokens":3,"__proto__":{"server_tool_use":{"web_search_requests":99}}}}',
      ),
    ]);
    const message = state.message as Record<string, unknown> & { usage: Record<string, unknown> };
    expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
    expect(message.container).toBeUndefined();
    expect(Object.getPrototypeOf(message.usage)).toBe(Object.prototype);
    expect(message.usage.server_tool_use).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(message.usage, '__proto__')?.value).toEqual({
      server_tool_use: { web_search_requests: 99 },
    });
  });
});

describe('reduceStream: bounded cost', () => {
  it('keeps the most recent MAX_SUPERSEDED superseded messages and counts the rest', () => {
    const events: StreamEvent[] = [];
    for (let i = 0; i < MAX_SUPERSEDED + 5; i++) events.push(messageStart({ id: `msg_${i}` }));
    const state = run(events);
    expect(state.superseded).toHaveLength(MAX_SUPERSEDED);
    expect(state.supersededDropped).toBe(4);
    expect(state.superseded.at(-1)?.id).toBe(`msg_${MAX_SUPERSEDED + 3}`);
    expect(state.message?.id).toBe(`msg_${MAX_SUPERSEDED + 4}`);
  });

  it('a diagnostic keeps an excerpt of a large event, not the event', () => {
    const data = 'x'.repeat(200_000);
    const state = run([
      start(),
      { type: 'invalid_event', event: null, data, reason: 'not JSON' },
      { type: 'invalid_event', event: null, data: 'small', reason: 'not JSON' },
    ]);
    const [large, small] = state.diagnostics;
    expect(large?.event).toBeUndefined();
    expect(large?.excerpt).toHaveLength(MAX_DIAGNOSTIC_EVENT_CHARS);
    expect(large?.eventChars).toBe(
      JSON.stringify({ type: 'invalid_event', event: null, data, reason: 'not JSON' }).length,
    );
    expect(small?.event).toEqual({
      type: 'invalid_event',
      event: null,
      data: 'small',
      reason: 'not JSON',
    });
  });
});

const wireEvent = (json: string): StreamEvent => JSON.parse(json) as StreamEvent;

describe('reduceStream: cost per event at any number of blocks', () => {
  const withBlocks = (count: number): StreamState => {
    const events: StreamEvent[] = [start()];
    for (let i = 0; i < count; i++) {
      events.push(blockStart(i, { type: 'text', text: '' }), text(i, `b${i}`), blockStop(i));
    }
    return run(events);
  };

  /**
   * Array elements the reducer copies (slice, concat, map, filter, splice, Array.from) while
   * it applies `events` to `from`: an operation count, not a time.
   */
  const elementsCopied = (from: StreamState, events: StreamEvent[]) => {
    const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const names = ['slice', 'concat', 'map', 'filter', 'splice'] as const;
    const originals = names.map((name) => proto[name] as (...args: unknown[]) => unknown);
    const originalFrom = Array.from;
    let copied = 0;
    names.forEach((name, i) => {
      const original = originals[i] as (...args: unknown[]) => unknown;
      proto[name] = function (this: unknown[], ...args: unknown[]) {
        copied += this.length;
        return original.apply(this, args);
      };
    });
    Array.from = ((items: ArrayLike<unknown>, ...rest: []) => {
      copied += items.length ?? 0;
      return originalFrom(items, ...rest);
    }) as typeof Array.from;
    let state = from;
    try {
      state = run(events, from);
    } finally {
      names.forEach((name, i) => {
        proto[name] = originals[i] as (...args: unknown[]) => unknown;
      });
      Array.from = originalFrom;
    }
    return { state, copied };
  };

  const aBlockMore = (index: number): StreamEvent[] => [
    blockStart(index, { type: 'text', text: '' }),
    ...Array.from({ length: 100 }, () => text(index, 'x')),
    blockStop(index),
  ];

  it('copies no more per event at 5,000 blocks than a small constant (defect 5)', () => {
    for (const count of [500, 5_000]) {
      const { state, copied } = elementsCopied(withBlocks(count), aBlockMore(count));
      // 102 events; the content array itself would be 500 or 5,000 elements per copy.
      expect(copied / 102).toBeLessThan(16);
      expect(blocks(state)).toHaveLength(count + 1);
      expect(blocks(state)[count]?.block).toEqual({ type: 'text', text: 'x'.repeat(100) });
    }
  });

  it('every past state keeps its own content, and a branch from one does not disturb another', () => {
    const base = withBlocks(40);
    const states = [base];
    for (let i = 40; i < 60; i++) states.push(run(aBlockMore(i).slice(0, 3), states.at(-1)));
    const branch = run(aBlockMore(50).slice(0, 2), states[10]);
    states.forEach((state, k) => {
      expect(blocks(state)).toHaveLength(40 + k);
      expect(blocks(state).at(-1)?.block).toEqual({ type: 'text', text: k === 0 ? 'b39' : 'xx' });
    });
    expect(blocks(branch)).toHaveLength(51);
    expect(blocks(states[12] as StreamState)).toHaveLength(52);
    // Unchanged blocks keep their identity across states and branches.
    expect(blocks(branch)[3]).toBe(blocks(base)[3]);
    expect(blocks(states[20] as StreamState)[45]).toBe(blocks(states[6] as StreamState)[45]);
  });

  it('a large message keeps __proto__ from the wire a field, and its fields through deltas', () => {
    const state = run(
      [
        wireEvent(
          '{"type":"message_delta","delta":{"stop_reason":"end_turn","__proto__":{"container":"evil"}},"usage":{"output_tokens":3}}',
        ),
        blockStart(200, { type: 'text', text: '' }),
        text(200, 'last'),
      ],
      withBlocks(200),
    );
    const message = state.message as Record<string, unknown>;
    expect(message.container).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(message, '__proto__')?.value).toEqual({
      container: 'evil',
    });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toEqual({
      input_tokens: 25,
      output_tokens: 3,
      cache_read_input_tokens: 7,
    });
    expect(blocks(state)).toHaveLength(201);
    expect(blocks(state)[200]?.block).toEqual({ type: 'text', text: 'last' });
  });

  it('content reads as a plain array: the same one each read, for spreads, JSON and clones', () => {
    const state = withBlocks(20);
    const message = state.message;
    expect(message?.content).toBe(message?.content);
    expect(Array.isArray(message?.content)).toBe(true);
    const plain = JSON.parse(JSON.stringify(message));
    expect(plain.content).toHaveLength(20);
    expect(structuredClone(message)).toEqual(plain);
    expect({ ...message }).toEqual(plain);
    expect(message).toEqual(plain);
    expect(Object.keys(message ?? {})).toContain('content');
    expect(toMessage(state)?.content.at(-1)).toEqual({ type: 'text', text: 'b19' });
  });
});

describe('reduceStream: a late message_start', () => {
  it('fills in the placeholder message, so the content before it and the deltas after it stay', () => {
    const state = run([
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Hello'),
      messageStart({ id: 'msg_late', model: 'claude-opus-5' }),
      text(0, ' world'),
      blockStop(0),
      stop,
    ]);
    expect(codes(state)).toEqual(['event_before_message_start']);
    expect(state.superseded).toEqual([]);
    expect(state.message?.id).toBe('msg_late');
    expect(state.message?.model).toBe('claude-opus-5');
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'Hello world' }]);
  });

  it('still fills the placeholder when the diagnostics were full before the content came', () => {
    // 256 unknown events first: the placeholder's mark must not be the one dropped, or the
    // late message_start would take the arrived text away into superseded.
    const noise = Array.from(
      { length: MAX_DIAGNOSTICS },
      (): StreamEvent => ({ type: 'unknown_event', event: 'x', data: { type: 'x' } }),
    );
    const state = run([
      ...noise,
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Arrived first.'),
      messageStart({ id: 'msg_late' }),
      blockStop(0),
      stop,
    ]);
    expect(state.superseded).toEqual([]);
    expect(state.message?.id).toBe('msg_late');
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: 'Arrived first.' }]);
    expect(state.diagnostics).toHaveLength(MAX_DIAGNOSTICS + 1);
  });
});

describe('reduceStream: protocol additions', () => {
  it('a fallback block switches message.model to the serving model (wire shape from/to)', () => {
    const state = run([
      start({ model: 'claude-opus-5' }),
      blockStart(0, { type: 'text', text: 'Part one.' }),
      blockStop(0),
      blockStart(1, {
        type: 'fallback',
        from: { model: 'claude-opus-5' },
        to: { model: 'claude-sonnet-5' },
      }),
      blockStop(1),
    ]);
    expect(state.message?.model).toBe('claude-sonnet-5');
    expect(codes(state)).toEqual([]);
  });

  it('compaction_delta accumulates into a compaction block, keeping encrypted_content', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'compaction', content: '' }),
      delta(0, { type: 'compaction_delta', content: 'Summary: ' }),
      delta(0, { type: 'compaction_delta', content: 'the user asked.', encrypted_content: 'enc' }),
      blockStop(0),
    ]);
    expect(toMessage(state)?.content).toEqual([
      { type: 'compaction', content: 'Summary: the user asked.', encrypted_content: 'enc' },
    ]);
    expect(codes(state)).toEqual([]);
  });
});

describe('reduceStream: an event without its index (found by the fuzz suite)', () => {
  it('a delta or stop with no index is kept as an unknown-index diagnostic, not a crash', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      {
        type: 'content_block_delta',
        delta: { type: 'text_delta', text: 'x' },
      } as unknown as StreamEvent,
      { type: 'content_block_stop' } as unknown as StreamEvent,
    ]);
    expect(codes(state)).toEqual(['unknown_block_index', 'unknown_block_index']);
    expect(toMessage(state)?.content).toEqual([{ type: 'text', text: '' }]);
  });
});

describe('reduceStream: tool input parsed when read', () => {
  it('queues fragments nobody reads, and a read catches up from where the last one stopped', () => {
    const write = vi.spyOn(PartialJsonParser.prototype, 'write');
    try {
      const fragments = ['{"items":[', ...Array.from({ length: 99 }, (_, i) => `${i},`), '99]}'];
      let state = run([
        start(),
        blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} }),
      ]);
      state = run(
        fragments.slice(0, 50).map((f) => json(0, f)),
        state,
      );
      expect(write).not.toHaveBeenCalled();
      const first = inputOf(state) as { items: number[] };
      expect(first.items).toHaveLength(49);
      expect(write).toHaveBeenCalledTimes(50);
      state = run(
        fragments.slice(50).map((f) => json(0, f)),
        state,
      );
      expect(write).toHaveBeenCalledTimes(50);
      state = run([blockStop(0)], state);
      // The stop reads the input once (to report invalid JSON): only the 51 new fragments.
      expect(write).toHaveBeenCalledTimes(101);
      expect(inputOf(state)).toEqual({ items: Array.from({ length: 100 }, (_, i) => i) });
      expect(blocks(state)[0]?.inputError).toBeNull();
    } finally {
      write.mockRestore();
    }
  });

  it('an older state read after a newer one still shows its own prefix', () => {
    const base = run([start(), blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} })]);
    const older = run([json(0, '{"a":1,')], base);
    const newer = run([json(0, '"b":2}')], older);
    expect(inputOf(newer)).toEqual({ a: 1, b: 2 });
    expect(inputOf(older)).toEqual({ a: 1 });
    const branch = run([json(0, '"c":3}')], older);
    expect(inputOf(branch)).toEqual({ a: 1, c: 3 });
    expect(inputOf(newer)).toEqual({ a: 1, b: 2 });
  });

  it('inputError is read lazily too, and reports the first bad character', () => {
    const state = run([
      start(),
      blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} }),
      json(0, '{"a":1'),
      json(0, ']'),
    ]);
    expect(blocks(state)[0]?.inputError).toMatchObject({ position: 6 });
    expect(inputOf(state)).toEqual({ a: 1 });
  });
});
