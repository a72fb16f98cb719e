/**
 * Fuzzing the decoder, the reducer and the partial-JSON parser with fast-check:
 * random bytes, random mutations and random chunking. Fixed seeds and small run counts keep
 * it deterministic and quick; on failure fast-check prints the seed, the path and the
 * shrunk counterexample, so `fc.assert(…, { seed, path })` replays it.
 * Mutations of every recorded fixture run in packages/mock/test/core-fuzz.test.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accumulate,
  createStreamState,
  EventStreamDecoder,
  endStream,
  PartialJsonParser,
  reduceStream,
  type StreamEvent,
  type StreamState,
  toMessage,
} from '../src/index.js';
import { sseEvent } from './support/streams.js';

const SEED = 0x14f022;
const FINAL = new Set(['complete', 'interrupted', 'error', 'aborted']);

/** A well-formed answer: random text, thinking and tool blocks, as events. */
const answerEvents = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constant('text' as const),
        parts: fc.array(fc.string(), { maxLength: 6 }),
      }),
      fc.record({
        kind: fc.constant('thinking' as const),
        parts: fc.array(fc.string(), { maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant('tool' as const), input: fc.jsonValue({ maxDepth: 3 }) }),
    ),
    { maxLength: 5 },
  )
  .chain((blocks) =>
    fc.tuple(
      fc.constant(blocks),
      fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 64, maxLength: 64 }),
    ),
  )
  .map(([blocks, sizes]) => {
    const events: Array<Record<string, unknown> & { type: string }> = [
      {
        type: 'message_start',
        message: {
          id: 'msg_fuzz',
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ];
    blocks.forEach((block, index) => {
      if (block.kind === 'text') {
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        });
        for (const text of block.parts) {
          events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
        }
      } else if (block.kind === 'thinking') {
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const thinking of block.parts) {
          events.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking },
          });
        }
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: 'sig' },
        });
      } else {
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: `toolu_${index}`, name: 'f', input: {} },
        });
        const json = JSON.stringify(block.input) ?? 'null';
        for (let at = 0, k = 0; at < json.length; k++) {
          const size = sizes[k % sizes.length] as number;
          events.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: json.slice(at, at + size) },
          });
          at += size;
        }
      }
      events.push({ type: 'content_block_stop', index });
    });
    events.push(
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      { type: 'message_stop' },
    );
    return { blocks, text: events.map(sseEvent).join('') };
  });

/** Splits `text` at the given (sorted, deduplicated) offsets. */
function chunked(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(text.slice(from, p));
    from = p;
  }
  chunks.push(text.slice(from));
  return chunks;
}

const internalErrors = (state: StreamState): string[] =>
  state.diagnostics.filter((d) => d.code === 'internal_error').map((d) => d.message);

/** The state is whole and readable: a final status, a Message that serializes, no crash inside. */
function expectSound(state: StreamState): void {
  expect(FINAL.has(state.status)).toBe(true);
  expect(internalErrors(state)).toEqual([]);
  expect(() => JSON.stringify(toMessage(state))).not.toThrow();
}

describe('fuzz: decoder', () => {
  it('random bytes, in random chunks: never throws, always ends in a final state', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }),
        async (chunks) => {
          expectSound(
            await accumulate(
              (async function* () {
                yield* chunks;
              })(),
            ),
          );
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('a valid stream in random chunks (bytes or text) decodes to the same events', () => {
    fc.assert(
      fc.property(
        answerEvents,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        ({ text }, cuts, asBytes) => {
          const whole = new EventStreamDecoder();
          const expected = [...whole.push(text), ...whole.end()];
          const decoder = new EventStreamDecoder();
          const bytes = new TextEncoder().encode(text);
          const got: StreamEvent[] = [];
          if (asBytes) {
            const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
              (a, b) => a - b,
            );
            let from = 0;
            for (const p of [...points, bytes.length]) {
              got.push(...decoder.push(bytes.subarray(from, p)));
              from = p;
            }
          } else {
            for (const chunk of chunked(text, cuts)) got.push(...decoder.push(chunk));
          }
          got.push(...decoder.end());
          expect(got).toEqual(expected);
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('random mutations of a valid stream (bytes dropped, repeated, replaced): still total', async () => {
    const mutation = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('drop', 'repeat', 'replace', 'insert'),
      length: fc.integer({ min: 1, max: 40 }),
      with: fc.string({ maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(
        answerEvents,
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        async ({ text }, mutations) => {
          let mutated = text;
          for (const m of mutations) {
            const at = m.at % (mutated.length + 1);
            const end = Math.min(mutated.length, at + m.length);
            if (m.kind === 'drop') mutated = mutated.slice(0, at) + mutated.slice(end);
            else if (m.kind === 'repeat')
              mutated = mutated.slice(0, end) + mutated.slice(at, end) + mutated.slice(end);
            else if (m.kind === 'replace')
              mutated = mutated.slice(0, at) + m.with + mutated.slice(end);
            else mutated = mutated.slice(0, at) + m.with + mutated.slice(at);
          }
          expectSound(await accumulate(mutated));
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('fuzz: reducer', () => {
  const key = fc.constantFrom(
    'type',
    'index',
    'delta',
    'content_block',
    'message',
    'usage',
    '__proto__',
    'text',
    'partial_json',
    'constructor',
  );
  const loose = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(
        null,
        0,
        -1,
        1.5,
        '',
        'text',
        true,
        'message_start',
        'content_block_delta',
        'text_delta',
        'input_json_delta',
        'tool_use',
      ),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
  const eventType = fc.constantFrom(
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
    'ping',
    'error',
    'invalid_event',
    'unknown_event',
    'other',
  );
  const looseEvent = fc
    .record({
      type: eventType,
      index: fc.oneof(fc.integer({ min: -1, max: 3 }), loose),
      rest: fc.dictionary(key, loose, { maxKeys: 3 }),
    })
    .map(({ type, index, rest }) => ({ ...rest, type, index }) as unknown as StreamEvent);

  it('any sequence of loosely shaped events: no throw, no internal error, prototypes untouched', () => {
    fc.assert(
      fc.property(fc.array(looseEvent, { maxLength: 30 }), fc.boolean(), (events, ended) => {
        let state = createStreamState();
        for (const event of events) {
          // Through JSON, as the wire delivers it: `__proto__` arrives as an own key.
          state = reduceStream(state, JSON.parse(JSON.stringify(event)) as StreamEvent);
        }
        if (ended) state = endStream(state);
        expect(internalErrors(state)).toEqual([]);
        expect(() => JSON.stringify(toMessage(state))).not.toThrow();
        for (const entry of state.message?.content ?? []) {
          const proto = Object.getPrototypeOf(entry.block);
          expect(proto === Object.prototype || proto?.constructor?.name === 'InputBlock').toBe(
            true,
          );
        }
        expect(Object.keys(Object.prototype)).toEqual([]);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('a valid answer reduces to its blocks, whatever the chunking of its tool JSON', async () => {
    await fc.assert(
      fc.asyncProperty(answerEvents, async ({ blocks, text }) => {
        const state = await accumulate(text);
        expect(state.status).toBe('complete');
        expect(state.diagnostics).toEqual([]);
        const content = toMessage(state)?.content ?? [];
        expect(content).toHaveLength(blocks.length);
        blocks.forEach((block, i) => {
          const got = content[i] as Record<string, unknown>;
          if (block.kind === 'text') expect(got.text).toBe(block.parts.join(''));
          else if (block.kind === 'thinking') expect(got.thinking).toBe(block.parts.join(''));
          else
            expect(
              isDeepStrictEqual(got.input, JSON.parse(JSON.stringify(block.input) ?? 'null')),
            ).toBe(true);
        });
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe('fuzz: partial JSON', () => {
  const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  };

  it('any JSON text in random fragments ends equal to JSON.parse', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 12 }), (value, cuts) => {
        const text = JSON.stringify(value);
        const parser = new PartialJsonParser();
        for (const chunk of chunked(text, cuts)) {
          parser.write(chunk);
          parser.value();
        }
        expect(parser.error).toBeNull();
        expect(parser.done).toBe(true);
        expect(isDeepStrictEqual(parser.value(), JSON.parse(text))).toBe(true);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('random mutations of JSON text: accepted exactly when JSON.parse accepts, never a throw', () => {
    const mutation = fc.record({
      at: fc.nat(),
      drop: fc.integer({ min: 0, max: 3 }),
      insert: fc.constantFrom(
        '',
        '"',
        '\\',
        ',',
        ':',
        '[',
        ']',
        '{',
        '}',
        '-',
        '0',
        'e',
        '.',
        ' ',
        'n',
        'u',
        '\uD83D',
      ),
    });
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (value, mutations) => {
          let text = JSON.stringify(value);
          for (const m of mutations) {
            const at = m.at % (text.length + 1);
            text = text.slice(0, at) + m.insert + text.slice(at + m.drop);
          }
          const parser = new PartialJsonParser();
          expect(() => parser.write(text)).not.toThrow();
          const expected = parse(text);
          // `done` means JSON.parse would accept the text; an error means it never will.
          expect(parser.done).toBe(expected.ok);
          if (expected.ok) expect(isDeepStrictEqual(parser.value(), expected.value)).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('random text: never throws, and an error never goes away', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 10 }), { maxLength: 10 }), (fragments) => {
        const parser = new PartialJsonParser();
        let failed = false;
        for (const fragment of fragments) {
          parser.write(fragment);
          expect(() => parser.value()).not.toThrow();
          if (failed) expect(parser.error).not.toBeNull();
          failed = parser.error !== null;
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
