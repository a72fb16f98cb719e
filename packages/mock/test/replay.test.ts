import {
  accumulate,
  createStreamState,
  endStream,
  reduceStream,
  toStreamEvent,
} from '@message-stream/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureNames, parseScenario, replay } from '../src/index.js';
import { splitSegments } from '../src/sse.js';
import { bodyOf, concat, decodeAll, fixtureFile, readChunks } from './support/helpers.js';

const encoder = new TextEncoder();

/** Chunk sizes per fixture: small ones byte-level, the big ones coarser to keep the run short. */
const chunkingFor = (name: string) =>
  name === 'large-tool-input'
    ? { minBytes: 1, maxBytes: 4096 }
    : name === 'long-markdown'
      ? { minBytes: 1, maxBytes: 256 }
      : { minBytes: 1, maxBytes: 24 };

/** The body up to and including the n-th event (what a drop after n events leaves). */
function firstEvents(text: string, n: number): string {
  let out = '';
  let count = 0;
  for (const segment of splitSegments(bodyOf(text))) {
    if (count === n) break;
    out += segment.text;
    if (segment.isEvent) count++;
  }
  return out;
}

/** Byte offsets at which a chunk boundary falls inside a multi-byte UTF-8 character. */
function splitsInsideCharacters(chunks: readonly Uint8Array[]): number {
  let splits = 0;
  for (const chunk of chunks.slice(1)) {
    // A continuation byte (10xxxxxx) first in a chunk: the character began in the chunk before.
    if (chunk.length > 0 && ((chunk[0] as number) & 0xc0) === 0x80) splits++;
  }
  return splits;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('replay: every fixture', () => {
  it.each([...fixtureNames])(
    '%s, cut into random chunks (seeded), gives the bytes of its body and the same final state',
    async (name) => {
      const text = fixtureFile(name);
      const { chunks, error } = await readChunks(
        replay(text, { chunking: chunkingFor(name), seed: name.length * 7919 }),
      );
      expect(error).toBeUndefined();
      expect(chunks.length).toBeGreaterThan(1);
      // Bytes compared as Buffers: a deep toEqual over 4 MB would take seconds.
      expect(Buffer.from(concat(chunks)).equals(encoder.encode(bodyOf(text)))).toBe(true);
      expect(await accumulate(replay(text, { chunking: chunkingFor(name), seed: 3 }))).toEqual(
        await accumulate(text),
      );
    },
    60_000,
  );

  it('splits inside multi-byte characters and mid-line, and still decodes them whole', async () => {
    const text = fixtureFile('text-pings'); // has an em dash (3 bytes in UTF-8)
    let found = false;
    for (let seed = 1; seed <= 50 && !found; seed++) {
      const { chunks } = await readChunks(
        replay(text, { chunking: { minBytes: 1, maxBytes: 8 }, seed }),
      );
      if (splitsInsideCharacters(chunks) > 0) {
        found = true;
        expect(decodeAll(chunks)).toBe(bodyOf(text));
        expect(
          await accumulate(
            new ReadableStream({
              start(c) {
                for (const x of chunks) c.enqueue(x);
                c.close();
              },
            }),
          ),
        ).toEqual(await accumulate(text));
      }
    }
    expect(found).toBe(true);
  });

  it('is deterministic per seed and differs between seeds', async () => {
    const text = fixtureFile('spec-web-search');
    const sizes = async (seed: number) =>
      (
        await readChunks(replay(text, { chunking: { minBytes: 1, maxBytes: 100 }, seed }))
      ).chunks.map((chunk) => chunk.length);
    expect(await sizes(42)).toEqual(await sizes(42));
    expect(await sizes(42)).not.toEqual(await sizes(43));
  });

  it('by default sends one chunk per event, without the header comments (unless asked)', async () => {
    const text = fixtureFile('text-pings');
    const { chunks } = await readChunks(replay(text));
    const segments = splitSegments(bodyOf(text));
    expect(chunks.map((chunk) => new TextDecoder().decode(chunk))).toEqual(
      segments.map((s) => s.text),
    );
    expect(decodeAll((await readChunks(replay(text, { keepHeader: true }))).chunks)).toBe(text);
  });

  it('keeps CRLF line endings and comments byte for byte (no-event-lines)', async () => {
    const text = fixtureFile('no-event-lines');
    expect(decodeAll((await readChunks(replay(text))).chunks)).toBe(bodyOf(text));
    expect(bodyOf(text)).toContain('\r\n');
  });
});

describe('replay: pacing (fake timers)', () => {
  /** Reads a stream in the background, noting the fake clock at each chunk. */
  function timeline(stream: ReadableStream<Uint8Array>) {
    const arrivals: Array<{ at: number; text: string }> = [];
    const start = Date.now();
    const done = (async () => {
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        arrivals.push({ at: Date.now() - start, text: new TextDecoder().decode(value) });
      }
    })();
    return { arrivals, done };
  }

  it('waits firstByteDelayMs for the first byte, then spaces deltas by 1/tokensPerSecond', async () => {
    vi.useFakeTimers();
    const text = fixtureFile('text-pings');
    const { arrivals, done } = timeline(
      replay(text, { firstByteDelayMs: 500, tokensPerSecond: 20 }),
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(arrivals).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(arrivals.length).toBeGreaterThan(0);
    expect(arrivals[0]?.at).toBe(500);
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    const deltas = arrivals.filter((a) => a.text.includes('content_block_delta'));
    expect(deltas).toHaveLength(12);
    deltas.forEach((delta, i) => {
      expect(delta.at).toBe(500 + 50 * (i + 1));
    });
    // Other events go out with the delta before them: nothing arrives between ticks.
    for (const arrival of arrivals) expect((arrival.at - 500) % 50).toBe(0);
    expect(arrivals.at(-1)?.at).toBe(500 + 50 * 12);
  });

  it('jitters each delay within ±jitter, reproducibly per seed', async () => {
    const gaps = async (seed: number) => {
      vi.useFakeTimers();
      const { arrivals, done } = timeline(
        replay(fixtureFile('text-pings'), { tokensPerSecond: 10, jitter: 0.5, seed }),
      );
      await vi.advanceTimersByTimeAsync(60_000);
      await done;
      vi.useRealTimers();
      const deltas = arrivals.filter((a) => a.text.includes('content_block_delta'));
      return deltas.map((delta, i) => delta.at - (i === 0 ? 0 : (deltas[i - 1]?.at ?? 0)));
    };
    const first = await gaps(5);
    for (const gap of first) {
      expect(gap).toBeGreaterThanOrEqual(49);
      expect(gap).toBeLessThanOrEqual(151);
    }
    expect(new Set(first).size).toBeGreaterThan(3);
    expect(await gaps(5)).toEqual(first);
  });

  it('treats tokensPerSecond 0 and Infinity as "no pacing"', async () => {
    vi.useFakeTimers();
    for (const tokensPerSecond of [0, Number.POSITIVE_INFINITY]) {
      const { arrivals, done } = timeline(replay(fixtureFile('text-pings'), { tokensPerSecond }));
      await done;
      expect(arrivals.every((arrival) => arrival.at === 0)).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    }
  });
});

describe('replay: faults', () => {
  const pings = fixtureFile('text-pings');

  it('dropAfter events errors like a dropped connection, after exactly n events', async () => {
    const { chunks, error } = await readChunks(replay(pings, { dropAfter: { events: 7 } }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('network error');
    expect(decodeAll(chunks)).toBe(firstEvents(pings, 7));
    const state = await accumulate(replay(pings, { dropAfter: { events: 7 } }));
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('network_error');
    expect(state.message).toEqual((await accumulate(firstEvents(pings, 7))).message);
  });

  it("dropMode 'close' ends the body cleanly instead (interrupted, stream_interrupted)", async () => {
    const { chunks, error } = await readChunks(
      replay(pings, { dropAfter: { events: 7 }, dropMode: 'close' }),
    );
    expect(error).toBeUndefined();
    expect(decodeAll(chunks)).toBe(firstEvents(pings, 7));
    const state = await accumulate(replay(pings, { dropAfter: { events: 7 }, dropMode: 'close' }));
    expect(state.status).toBe('interrupted');
    expect(state.error?.type).toBe('stream_interrupted');
  });

  it.each(['error', 'close'] as const)(
    'dropAfter bytes cuts mid-line and inside a multi-byte character (%s), keeping the prefix',
    async (dropMode) => {
      const body = encoder.encode(bodyOf(pings));
      const dash = encoder.encode('—');
      let at = -1;
      for (let i = 0; i < body.length - 2 && at < 0; i++) {
        if (body[i] === dash[0] && body[i + 1] === dash[1] && body[i + 2] === dash[2]) at = i;
      }
      expect(at).toBeGreaterThan(0);
      const cut = at + 1; // one byte into the em dash, in the middle of a data: line
      for (const chunking of ['event', { minBytes: 1, maxBytes: 16 }] as const) {
        const { chunks, error } = await readChunks(
          replay(pings, { dropAfter: { bytes: cut }, dropMode, chunking, seed: 11 }),
        );
        expect(error === undefined).toBe(dropMode === 'close');
        expect(concat(chunks)).toEqual(body.subarray(0, cut));
        const state = await accumulate(
          replay(pings, { dropAfter: { bytes: cut }, dropMode, chunking, seed: 11 }),
        );
        expect(state.status).toBe('interrupted');
        // Every event before the cut is kept; the cut one is not half-applied.
        const before = new TextDecoder().decode(body.subarray(0, cut));
        const complete = before.slice(0, before.lastIndexOf('\n\n') + 2);
        expect(state.message).toEqual(endStream(await accumulate(complete)).message);
        const text = (state.message?.content[0]?.block as { text?: string } | undefined)?.text;
        expect(
          text?.endsWith(
            ' after initialization while **`let`** bindings can.\n\nNote that `const` does not make objects',
          ),
        ).toBe(true);
      }
    },
  );

  it('errorAfter injects an API error event with a request_id, then ends the body', async () => {
    const { chunks, error } = await readChunks(
      replay(pings, { errorAfter: { events: 6 }, requestId: 'req_test_1' }),
    );
    expect(error).toBeUndefined();
    const text = decodeAll(chunks);
    expect(text.startsWith(firstEvents(pings, 6))).toBe(true);
    const last = splitSegments(text).at(-1);
    expect(last?.type).toBe('error');
    expect(last?.json).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_test_1',
    });
    const state = await accumulate(
      replay(pings, { errorAfter: { events: 6 }, requestId: 'req_test_1' }),
    );
    expect(state.status).toBe('error');
    expect(state.error).toMatchObject({
      type: 'overloaded_error',
      requestId: 'req_test_1',
      retryable: true,
    });
    const custom = await accumulate(
      replay(pings, {
        errorAfter: { events: 6, error: { type: 'api_error', message: 'Internal server error' } },
      }),
    );
    expect(custom.error).toMatchObject({ type: 'api_error', message: 'Internal server error' });
    expect(custom.error?.requestId).toMatch(/^req_/);
  });

  it('stallAfter with ms pauses after n events, then sends the rest', async () => {
    vi.useFakeTimers();
    const reader = replay(pings, { stallAfter: { events: 5, ms: 30_000 } }).getReader();
    const got: Uint8Array[] = [];
    const pump = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        got.push(value);
      }
    })();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(decodeAll(got)).toBe(firstEvents(pings, 5));
    await vi.advanceTimersByTimeAsync(1);
    await pump;
    expect(decodeAll(got)).toBe(bodyOf(pings));
  });

  it('stallAfter past 2^31-1 ms waits that long instead of firing at once', async () => {
    vi.useFakeTimers();
    const ms = 2 ** 31 + 5_000;
    const reader = replay(pings, { stallAfter: { events: 2, ms } }).getReader();
    const got: Uint8Array[] = [];
    const pump = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        got.push(value);
      }
    })();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(decodeAll(got)).toBe(firstEvents(pings, 2));
    await vi.advanceTimersByTimeAsync(ms - 60_001);
    expect(decodeAll(got)).toBe(firstEvents(pings, 2));
    await vi.advanceTimersByTimeAsync(1);
    await pump;
    expect(decodeAll(got)).toBe(bodyOf(pings));
  });

  it('a scenario stall of Infinity-like length (stall-after-events:N:<huge>) never ends early', async () => {
    vi.useFakeTimers();
    const { stallAfter } = parseScenario('text-pings;fault=stall-after-events:3:99999999999999');
    const reader = replay(pings, { ...(stallAfter ? { stallAfter } : {}) }).getReader();
    const got: Uint8Array[] = [];
    let ended = false;
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          return;
        }
        got.push(value);
      }
    })();
    await vi.advanceTimersByTimeAsync(10 * 2 ** 31);
    expect(decodeAll(got)).toBe(firstEvents(pings, 3));
    expect(ended).toBe(false);
    await reader.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stallAfter without ms hangs until cancelled; cancelling leaves no timer behind', async () => {
    vi.useFakeTimers();
    const reader = replay(pings, { stallAfter: { events: 3 }, tokensPerSecond: 100 }).getReader();
    const got: Uint8Array[] = [];
    let ended = false;
    const pump = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          return;
        }
        got.push(value);
      }
    })();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(decodeAll(got)).toBe(firstEvents(pings, 3));
    expect(ended).toBe(false);
    await reader.cancel();
    await pump;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancelling mid-pacing clears the pending timer', async () => {
    vi.useFakeTimers();
    const stream = replay(pings, { firstByteDelayMs: 100, tokensPerSecond: 1 });
    const reader = stream.getReader();
    await vi.advanceTimersByTimeAsync(100);
    // message_start, ping, content_block_start, ping: then the first delta waits a second.
    for (let i = 0; i < 4; i++) await reader.read();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await reader.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborting the signal errors the stream with the reason and clears timers', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reader = replay(pings, { tokensPerSecond: 1, signal: controller.signal }).getReader();
    for (let i = 0; i < 4; i++) await reader.read();
    const pending = reader.read(); // the first delta, due in a second
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new DOMException('stop', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a fault at 0 events fires before any byte; one never reached fires at the end', async () => {
    const none = await readChunks(replay(pings, { dropAfter: { events: 0 } }));
    expect(none.chunks).toHaveLength(0);
    expect(none.error).toBeInstanceOf(TypeError);
    const late = await readChunks(replay(pings, { dropAfter: { events: 10_000 } }));
    expect(decodeAll(late.chunks)).toBe(bodyOf(pings));
    expect(late.error).toBeInstanceOf(TypeError);
    // The answer was whole (message_stop arrived), so the late drop does not matter to it.
    expect((await accumulate(replay(pings, { dropAfter: { events: 10_000 } }))).status).toBe(
      'complete',
    );
  });

  it('counts pings and unknown events as events, comments not', async () => {
    const text = fixtureFile('no-event-lines');
    const { chunks } = await readChunks(
      replay(text, { dropAfter: { events: 2 }, dropMode: 'close' }),
    );
    let state = createStreamState();
    const events = splitSegments(decodeAll(chunks)).filter((segment) => segment.isEvent);
    for (const segment of events)
      state = reduceStream(state, toStreamEvent(segment.eventName, segment.data ?? ''));
    expect(events).toHaveLength(2);
    expect(decodeAll(chunks)).toContain(': keep-alive');
  });
});
