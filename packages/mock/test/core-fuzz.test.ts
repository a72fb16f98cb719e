/**
 * Core's decoder and reducer over random mutations and random chunkings of every recorded
 * fixture (the generated streams run in packages/core/test/fuzz.test.ts).
 * Fixed seed, small run counts; a failure prints the seed, path and shrunk case.
 */
import { readFileSync } from 'node:fs';
import { accumulate, EventStreamDecoder, type StreamState, toMessage } from '@message-stream/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureNames } from '../src/index.js';

const SEED = 0x14f023;
const text = (name: string): string =>
  readFileSync(new URL(`../fixtures/${name}.sse`, import.meta.url), 'utf8');

function expectSound(state: StreamState): void {
  expect(['complete', 'interrupted', 'error', 'aborted']).toContain(state.status);
  expect(
    state.diagnostics.filter((d) => d.code === 'internal_error').map((d) => d.message),
  ).toEqual([]);
  expect(() => JSON.stringify(toMessage(state))).not.toThrow();
}

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('drop', 'repeat', 'replace', 'insert', 'swap-lines'),
  length: fc.integer({ min: 1, max: 200 }),
  with: fc.constantFrom(
    '',
    '\n',
    '\r\n',
    '\n\n',
    'data: ',
    'event: ping\n',
    '{',
    '}',
    '"',
    '\\',
    'é',
    '\uFEFF',
  ),
});

function mutate(
  source: string,
  mutations: ReadonlyArray<typeof mutation extends fc.Arbitrary<infer T> ? T : never>,
): string {
  let out = source;
  for (const m of mutations) {
    const at = m.at % (out.length + 1);
    const end = Math.min(out.length, at + m.length);
    switch (m.kind) {
      case 'drop':
        out = out.slice(0, at) + out.slice(end);
        break;
      case 'repeat':
        out = out.slice(0, end) + out.slice(at, end) + out.slice(end);
        break;
      case 'replace':
        out = out.slice(0, at) + m.with + out.slice(end);
        break;
      case 'insert':
        out = out.slice(0, at) + m.with + out.slice(at);
        break;
      default: {
        // Two neighbouring events change places (a reordering proxy).
        const events = out.split('\n\n');
        const i = m.at % Math.max(1, events.length - 1);
        [events[i], events[i + 1]] = [events[i + 1] as string, events[i] as string];
        out = events.join('\n\n');
      }
    }
  }
  return out;
}

describe.each(
  [...fixtureNames].filter((name) => name !== 'large-tool-input' && name !== 'long-markdown'),
)('fuzz: fixture %s', (name) => {
  const source = text(name);

  it('random mutations: decoded and reduced without a crash, to a final state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 5 }), async (mutations) => {
        expectSound(await accumulate(mutate(source, mutations)));
      }),
      { seed: SEED, numRuns: 40 },
    );
  });

  it('random chunking: the same events as one chunk', () => {
    const whole = new EventStreamDecoder();
    const expected = [...whole.push(source), ...whole.end()];
    const bytes = new TextEncoder().encode(source);
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: bytes.length }), { maxLength: 30 }), (cuts) => {
        const decoder = new EventStreamDecoder();
        const got = [];
        let from = 0;
        for (const p of [...cuts].sort((a, b) => a - b).concat(bytes.length)) {
          got.push(...decoder.push(bytes.subarray(from, p)));
          from = p;
        }
        got.push(...decoder.end());
        expect(got).toEqual(expected);
      }),
      { seed: SEED, numRuns: 20 },
    );
  });
});

describe('fuzz: the two large fixtures', () => {
  it.each(['large-tool-input', 'long-markdown'])(
    '%s, a few mutations: still sound',
    async (name) => {
      const source = text(name);
      await fc.assert(
        fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
          expectSound(await accumulate(mutate(source, mutations)));
        }),
        { seed: SEED, numRuns: 3 },
      );
    },
  );
});
