import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accumulate, type StreamEvent } from '../src/index.js';
import { reduceStreamEvents } from '../src/reduce.js';
import {
  blockStart,
  blockStop,
  delta,
  json,
  messageStart,
  run,
  stop,
  text,
} from './support/events.js';
import { sseEvent } from './support/streams.js';

const tool = (index: number) =>
  blockStart(index, { type: 'tool_use', id: `toolu_${index}`, name: 'write', input: {} });

/** Events a stream may carry, good and bad, around two tool blocks and a text block. */
const anyEvent: fc.Arbitrary<StreamEvent> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(0, 1, 2, 7),
        fc.constantFrom('{"a', '":1', ',"b":[', '2]', '}', ' ', '"\\u00'),
      )
      .map(([i, f]) => json(i, f)),
  },
  { weight: 2, arbitrary: fc.constantFrom(0, 1, 2).map((i) => text(i, 'x')) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(0, 1, 2)
      .map((i) => delta(i, { type: 'input_json_delta', partial_json: 5 })),
  },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 2).map(blockStop) },
  { weight: 1, arbitrary: fc.constantFrom(stop, { type: 'ping' } as StreamEvent, messageStart()) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1).map(tool) },
);

describe('reduceStreamEvents', () => {
  it('gives the state folding reduceStream gives, for any events in any order', () => {
    const opening = [messageStart(), tool(0), blockStart(1, { type: 'text', text: '' }), tool(2)];
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 60 }), fc.boolean(), (events, opened) => {
        const all = opened ? [...opening, ...events] : events;
        expect(reduceStreamEvents(run([]), all)).toEqual(run(all));
      }),
      { seed: 20261201, numRuns: 400 },
    );
  });

  it('keeps the diagnostics of fragments that do not fit, one per fragment', () => {
    const events = [
      messageStart(),
      blockStart(0, { type: 'text', text: '' }),
      json(0, '{'),
      json(0, '}'),
      json(3, '1'),
      json(3, '2'),
    ];
    const state = reduceStreamEvents(run([]), events);
    expect(state).toEqual(run(events));
    expect(state.diagnostics.map((d) => d.code)).toEqual([
      'delta_type_mismatch',
      'delta_type_mismatch',
      'unknown_block_index',
      'unknown_block_index',
    ]);
  });

  it('lets accumulate apply a run of fragments as one (work per fragment is a string append)', async () => {
    // Each fragment applied on its own builds a block state with a lazily read `input`
    // (two property definitions); a run applied as one builds one.
    const fragments = Array.from({ length: 2_000 }, (_, i) => (i === 0 ? '{"text":"' : 'ab'));
    const body = [
      sseEvent({
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }),
      sseEvent({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'write', input: {} },
      }),
      ...fragments.map((partial_json) =>
        sseEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json },
        }),
      ),
      sseEvent({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '"}' },
      }),
      sseEvent({ type: 'content_block_stop', index: 0 }),
      sseEvent({ type: 'message_stop' }),
    ].join('');
    const define = Object.defineProperty;
    let definitions = 0;
    Object.defineProperty = ((...args: Parameters<typeof define>) => {
      definitions++;
      return define(...args);
    }) as typeof define;
    let state: Awaited<ReturnType<typeof accumulate>>;
    try {
      state = await accumulate(body);
    } finally {
      Object.defineProperty = define;
    }
    expect(state.status).toBe('complete');
    expect(state.message?.content[0]?.block).toMatchObject({ input: { text: 'ab'.repeat(1_999) } });
    expect(definitions).toBeLessThan(20);
  });
});
