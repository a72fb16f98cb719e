/**
 * Core's reducer and decoder over every recorded fixture (moved here from core's tests:
 * core depends on nothing of ours, the mock depends on core).
 */
import { readFileSync } from 'node:fs';
import {
  accumulate,
  type BlockState,
  type ContentBlock,
  type Message,
  type StreamState,
  toMessage,
} from '@message-stream/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const fixturesDir = new URL('../fixtures/', import.meta.url);
const catalog = JSON.parse(readFileSync(new URL('catalog.json', fixturesDir), 'utf8')) as Array<{
  name: string;
  file: string;
}>;
const bytesOf = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`${name}.sse`, fixturesDir)));
const textOf = (name: string): string => readFileSync(new URL(`${name}.sse`, fixturesDir), 'utf8');

/**
 * An independent oracle for well-formed streams: the simplest accumulator that could work
 * (split on blank lines, JSON.parse each data payload, parse tool JSON once at the block's
 * stop), the way the spec tells a direct integration to do it.
 */
function referenceMessage(sse: string): { message: Message; inputJson: Map<number, string> } {
  const payloads = sse
    .replace(/\r\n?/g, '\n')
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
  let message: Message | undefined;
  const inputJson = new Map<number, string>();
  for (const event of payloads) {
    const block = () => message?.content[event.index] as Record<string, unknown> & ContentBlock;
    switch (event.type) {
      case 'message_start':
        message = structuredClone(event.message);
        break;
      case 'content_block_start':
        (message as Message).content[event.index] = structuredClone(event.content_block);
        // A server-side fallback: the rest of the message is served by the `to` model.
        if (event.content_block.type === 'fallback' && event.content_block.to?.model) {
          (message as Message).model = event.content_block.to.model;
        }
        break;
      case 'content_block_delta': {
        const d = event.delta;
        const b = block();
        if (d.type === 'text_delta') b.text = `${b.text}${d.text}`;
        if (d.type === 'thinking_delta') b.thinking = `${b.thinking}${d.thinking}`;
        if (d.type === 'signature_delta') b.signature = `${b.signature ?? ''}${d.signature}`;
        if (d.type === 'citations_delta')
          b.citations = [...((b.citations as []) ?? []), d.citation];
        if (d.type === 'input_json_delta')
          inputJson.set(event.index, (inputJson.get(event.index) ?? '') + d.partial_json);
        break;
      }
      case 'content_block_stop': {
        const json = inputJson.get(event.index);
        if (json) block().input = JSON.parse(json);
        break;
      }
      case 'message_delta': {
        const m = message as Message;
        Object.assign(m, event.delta);
        for (const [key, value] of Object.entries(event.usage ?? {})) {
          if (value !== null) m.usage[key] = value;
        }
        for (const [key, value] of Object.entries(event)) {
          if (!['type', 'delta', 'usage'].includes(key)) m[key] = value;
        }
        break;
      }
    }
  }
  return { message: message as Message, inputJson };
}

/** The whole final state a complete, well-formed stream must produce. */
function expectedCompleteState(sse: string): StreamState {
  const { message, inputJson } = referenceMessage(sse);
  // A message_start without model or usage (the reference example, the thinking example)
  // still yields a Message with every field: '' and {} stand for "not sent".
  const { content, ...fields } = Object.assign({ model: '', usage: {} }, message);
  return {
    status: 'complete',
    message: {
      ...fields,
      content: content.map((block, index): BlockState => {
        const json = inputJson.get(index);
        return {
          index,
          status: 'complete',
          block,
          ...(json === undefined ? {} : { inputJson: json, inputError: null }),
        };
      }),
    },
    superseded: [],
    stopReceived: true,
    error: null,
    diagnostics: [],
  };
}

const WELL_FORMED = [
  'spec-basic-text',
  'spec-tool-use',
  'spec-thinking',
  'spec-web-search',
  'gateway-text',
  'gateway-tool-use',
  'reference-example',
  'text-pings',
  'redacted-thinking',
  'parallel-tool-calls',
  'tool-no-input',
  'mcp-tool-use',
  'max-tokens',
  'stop-sequence',
  'refusal',
  'pause-turn',
  'no-event-lines',
  'fallback-block',
  'long-markdown',
  'large-tool-input',
];
const ANOMALOUS = [
  'unknown-events',
  'second-message-start',
  'invalid-data',
  'in-stream-error',
  'truncated-mid-tool',
];

describe('fixtures', () => {
  it('covers every fixture in the catalog', () => {
    expect([...WELL_FORMED, ...ANOMALOUS].sort()).toEqual(catalog.map((f) => f.name).sort());
  });

  it.each(WELL_FORMED)(
    '%s reduces to the whole expected final state',
    async (name) => {
      expect(await accumulate(bytesOf(name))).toEqual(expectedCompleteState(textOf(name)));
    },
    30_000,
  );

  it('spec-basic-text gives exactly the Message of the guide', async () => {
    expect(toMessage(await accumulate(textOf('spec-basic-text')))).toEqual({
      id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello!' }],
      model: 'claude-opus-5',
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 15 },
    });
  });

  it('spec-tool-use gives the parsed tool input of the guide', async () => {
    const message = toMessage(await accumulate(textOf('spec-tool-use')));
    expect(message?.content[1]).toEqual({
      type: 'tool_use',
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'get_weather',
      input: { location: 'San Francisco, CA' },
    });
    expect(message?.stop_reason).toBe('tool_use');
    expect(message?.usage).toEqual({ input_tokens: 472, output_tokens: 89 });
  });

  it('gateway-text takes final usage from message_delta', async () => {
    expect(toMessage(await accumulate(textOf('gateway-text')))?.usage).toEqual({
      input_tokens: 32,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
      output_tokens: 7,
    });
  });

  it('unknown-events keeps every unknown thing and reports each', async () => {
    const state = await accumulate(textOf('unknown-events'));
    const { message } = referenceMessage(textOf('unknown-events'));
    expect(state).toEqual({
      status: 'complete',
      message: {
        ...message,
        content: [
          {
            index: 0,
            status: 'complete',
            block: { type: 'text', text: 'Running the snippet prints:' },
            otherDeltas: [{ type: 'text_annotation_delta', note: 'x' }],
          },
          {
            index: 1,
            status: 'complete',
            block: { type: 'code_execution_output', stdout: '42\n' },
          },
          {
            index: 2,
            status: 'complete',
            block: { type: 'text', text: 'So the answer is **42**.' },
          },
        ],
      },
      superseded: [],
      stopReceived: true,
      error: null,
      diagnostics: [
        {
          code: 'unknown_event',
          message: expect.stringContaining('content_block_annotation'),
          event: {
            type: 'unknown_event',
            event: 'content_block_annotation',
            data: {
              type: 'content_block_annotation',
              index: 0,
              annotation: { kind: 'confidence', value: 0.92 },
            },
          },
        },
        {
          code: 'unknown_delta_type',
          message: expect.stringContaining('text_annotation_delta'),
          event: {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_annotation_delta', note: 'x' },
          },
        },
        { code: 'unknown_block_type', message: expect.stringContaining('code_execution_output') },
      ],
    });
    expect(message.stop_reason).toBe('model_context_window_exceeded');
    expect(message.usage).toEqual({
      input_tokens: 40,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 23,
      iterations: [{ input_tokens: 10, output_tokens: 5 }],
    });
  });

  it('second-message-start keeps the spliced-out message as superseded', async () => {
    const state = await accumulate(textOf('second-message-start'));
    const fields = {
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      stop_sequence: null,
    };
    expect(state).toEqual({
      status: 'complete',
      message: {
        ...fields,
        id: 'msg_01BAK5of1sTzRMX10cFahfE2',
        stop_reason: 'end_turn',
        usage: {
          input_tokens: 22,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 14,
        },
        content: [
          {
            index: 0,
            status: 'complete',
            block: { type: 'text', text: 'The answer is **42**: 6 × 7 = 42.' },
          },
        ],
      },
      superseded: [
        {
          ...fields,
          id: 'msg_01Axsegx83iVQMQdRIW1DiNk',
          stop_reason: null,
          usage: {
            input_tokens: 22,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 1,
          },
          content: [
            { index: 0, status: 'incomplete', block: { type: 'text', text: 'The answer is' } },
          ],
        },
      ],
      stopReceived: true,
      error: null,
      diagnostics: [
        {
          code: 'second_message_start',
          message: expect.any(String),
          event: expect.objectContaining({ type: 'message_start' }),
        },
      ],
    });
  });

  it('invalid-data keeps the raw broken event and everything around it', async () => {
    const state = await accumulate(textOf('invalid-data'));
    expect(state.status).toBe('complete');
    expect(state.message?.content).toEqual([
      {
        index: 0,
        status: 'complete',
        block: {
          type: 'text',
          text: 'The boiling point of water at sea level is 100 °C (212 °F).',
        },
      },
    ]);
    expect(state.diagnostics).toEqual([
      {
        code: 'invalid_event',
        message: expect.any(String),
        event: {
          type: 'invalid_event',
          event: 'content_block_delta',
          data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"oops}',
          reason: expect.any(String),
        },
      },
    ]);
    expect(state.error).toBeNull();
    expect(state.superseded).toEqual([]);
    expect(toMessage(state)?.usage).toEqual({
      input_tokens: 19,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 17,
    });
  });

  it('in-stream-error ends as error with the typed error and the partial text', async () => {
    const state = await accumulate(textOf('in-stream-error'));
    expect(state).toEqual({
      status: 'error',
      message: {
        id: 'msg_01isZwNoXTF2YOaxBtHRhhb0',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-5',
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 35,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
        content: [
          {
            index: 0,
            status: 'incomplete',
            block: {
              type: 'text',
              text: 'Photosynthesis is the process by which plants convert light energy into',
            },
          },
        ],
      },
      superseded: [],
      stopReceived: false,
      error: {
        type: 'overloaded_error',
        message: 'Overloaded',
        requestId: 'req_011CSHoEeqs5C35K2UUqR7Fy',
        description: 'The service is overloaded right now. Try again in a moment.',
        retryable: true,
      },
      diagnostics: [],
    });
  });

  it('truncated-mid-tool ends interrupted with the partial tool input kept', async () => {
    const state = await accumulate(textOf('truncated-mid-tool'));
    expect(state.status).toBe('interrupted');
    expect(state.error).toEqual({
      type: 'stream_interrupted',
      message: expect.any(String),
      description: 'The answer was cut off before it finished. Resume to continue it.',
      retryable: true,
    });
    expect(state.message?.content).toEqual([
      {
        index: 0,
        status: 'complete',
        block: { type: 'text', text: "I'll search for flights from San Francisco to New York." },
      },
      {
        index: 1,
        status: 'incomplete',
        block: {
          type: 'tool_use',
          id: 'toolu_01xgWziXio8ZDIvHFGr9VAJf',
          name: 'search_flights',
          input: {
            origin: 'SFO',
            destination: 'JFK',
            depart_date: '2025-06-14',
            return_date: '2025-06-2',
          },
        },
        inputJson:
          '{"origin": "SFO", "destination": "JFK", "depart_date": "2025-06-14", "return_date": "2025-06-2',
        inputError: null,
      },
    ]);
    expect(state.diagnostics).toEqual([]);
  });
});

/** Feeds `bytes` cut at the given offsets. */
async function* chunked(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
  yield bytes.subarray(from);
}

const SMALL = catalog
  .map((f) => f.name)
  .filter((n) => n !== 'large-tool-input' && n !== 'long-markdown');

describe('chunking', () => {
  it.each(SMALL)('%s: one byte at a time gives the same final state', async (name) => {
    const bytes = bytesOf(name);
    const whole = await accumulate(bytes.length > 0 ? textOf(name) : '');
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(await accumulate(chunked(bytes, cuts))).toEqual(whole);
  });

  const anyChunking = (names: readonly string[], numRuns: number) => async () => {
    const wholes = new Map<string, StreamState>();
    for (const name of names) wholes.set(name, await accumulate(textOf(name)));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 64 }),
        async (name, fractions) => {
          const bytes = bytesOf(name);
          const cuts = fractions.map((f) => Math.floor(f * bytes.length));
          expect(await accumulate(chunked(bytes, cuts))).toEqual(wholes.get(name));
        },
      ),
      { numRuns },
    );
  };

  it(
    'any chunking of any small fixture gives the same final state',
    anyChunking(SMALL, 200),
    60_000,
  );

  it(
    'any chunking of the two large fixtures gives the same final state',
    anyChunking(['long-markdown', 'large-tool-input'], 6),
    60_000,
  );
});

describe('truncation', () => {
  /** Every block of `cut` is the same block of `full`, or a prefix of it. */
  function expectPrefixOf(cut: StreamState, full: StreamState): void {
    const cutBlocks = cut.message?.content ?? [];
    const fullBlocks = full.message?.content ?? [];
    expect(cutBlocks.length).toBeLessThanOrEqual(fullBlocks.length);
    cutBlocks.forEach((block, i) => {
      const whole = fullBlocks[i] as BlockState;
      expect(block.index).toBe(whole.index);
      if (block.status === 'complete') {
        expect(block.block).toEqual(whole.block);
        return;
      }
      expect(block.status).toBe('incomplete');
      const partial = block.block as Record<string, unknown>;
      const final = whole.block as Record<string, unknown>;
      expect(partial.type).toBe(final.type);
      for (const field of ['text', 'thinking', 'signature'] as const) {
        if (typeof partial[field] === 'string') {
          expect((final[field] as string).startsWith(partial[field] as string)).toBe(true);
        }
      }
      if (block.inputJson !== undefined) {
        expect(whole.inputJson?.startsWith(block.inputJson)).toBe(true);
      }
    });
  }

  it.each(SMALL.filter((n) => !ANOMALOUS.includes(n)))(
    '%s: a cut at every event boundary keeps everything before it',
    async (name) => {
      const text = textOf(name);
      const full = await accumulate(text);
      const boundaries = [...text.matchAll(/(\r\n|\n|\r)\1/g)].map((m) => m.index + m[0].length);
      for (const boundary of boundaries) {
        const cut = await accumulate(text.slice(0, boundary));
        expectPrefixOf(cut, full);
        const whole = boundary >= text.lastIndexOf('message_stop');
        expect(cut.status).toBe(
          whole ? 'complete' : cut.message || boundary > 0 ? 'interrupted' : 'interrupted',
        );
      }
    },
  );
});
