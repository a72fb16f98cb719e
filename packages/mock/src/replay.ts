/**
 * The replay engine: a fixture's text back out as the byte stream of a live response, with
 * realistic pacing and the failures real connections have. Every front end (MSW handlers,
 * the Node server, `createMockFetch`) serves what this returns.
 */
import { createRandom, DEFAULT_SEED, randomId } from './random.js';
import { eachSegment, parseFixtureHeader, type Segment, sseEvent } from './sse.js';

/**
 * How bytes are cut into chunks. `'event'`: one chunk per SSE event, as most servers flush.
 * `{ minBytes, maxBytes }`: random sizes (seeded), as a network delivers them: a chunk
 * boundary can fall anywhere, mid-line and inside a multi-byte UTF-8 character, which is
 * what a decoder has to survive.
 */
export type Chunking = 'event' | { readonly minBytes: number; readonly maxBytes: number };

/** Timing of a replay. All default to "as fast as possible". */
export interface ReplayPacing {
  /** Wait before the first byte (time to first token). Default 0. */
  readonly firstByteDelayMs?: number;
  /**
   * Pace `content_block_delta` events at this rate, one delta counted as one token; the other
   * events go out with the delta before them. 0 or Infinity (default): no pacing.
   */
  readonly tokensPerSecond?: number;
  /**
   * Each delay is scaled by a random factor in [1 - jitter, 1 + jitter] (seeded), so deltas
   * do not tick like a metronome. 0..1, default 0.
   */
  readonly jitter?: number;
  /** Default `'event'`. Random chunks never span a pause: each burst is cut on its own. */
  readonly chunking?: Chunking;
}

/** An in-stream API error, as `event: error` carries it. */
export interface ApiErrorBody {
  readonly type: string;
  readonly message: string;
}

/**
 * Failures during the stream. Events are counted as a decoder dispatches them (pings and
 * unknown events count; comments do not); "after n events" means the first n are delivered
 * whole. A fault whose count is never reached fires at the end of the body instead.
 */
export interface ReplayFaults {
  /**
   * Cut the connection after n events, or after n bytes of the body (which can be mid-line
   * and inside a multi-byte character).
   */
  readonly dropAfter?: { readonly events: number } | { readonly bytes: number };
  /**
   * How a drop looks to the reader: `'error'` (default) errors the stream with
   * `TypeError('network error')`, like a reset connection; `'close'` ends it cleanly, like a
   * proxy that closes the response early. The error comes one macrotask (`setTimeout` 0)
   * after the last bytes, so readers behind a tee get them first; under fake timers, advance
   * the clock to see it.
   */
  readonly dropMode?: 'error' | 'close';
  /**
   * Send an `event: error` after n events (the API's shape, with a `request_id`), then end
   * the body, as the API does when it fails mid-answer. Default error: `overloaded_error`.
   */
  readonly errorAfter?: { readonly events: number; readonly error?: ApiErrorBody };
  /**
   * Send nothing for `ms` after n events, then go on; without `ms` (or Infinity), hang until
   * the reader cancels. A stall longer than a client's idle timeout is how a dead upstream
   * looks to it.
   */
  readonly stallAfter?: { readonly events: number; readonly ms?: number };
}

export interface ReplayOptions extends ReplayPacing, ReplayFaults {
  /** Seed of the chunking, jitter and generated ids. Default: a fixed seed. */
  readonly seed?: number;
  /** The `request_id` of an injected error event. Default: generated from the seed. */
  readonly requestId?: string;
  /**
   * Replay the fixture's header comments (`: name:`, `: description:`) too. Default false:
   * a server sends only the body.
   */
  readonly keepHeader?: boolean;
  /** Aborting stops the replay: timers are cleared and the stream errors with the reason. */
  readonly signal?: AbortSignal;
}

/** What a replay does, step by step. */
type Step =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'hang' }
  | { readonly kind: 'end'; readonly mode: 'close' | 'error' };

const encoder = new TextEncoder();

/** The default in-stream error: what the API sends when it is overloaded mid-answer. */
export const DEFAULT_STREAM_ERROR: ApiErrorBody = {
  type: 'overloaded_error',
  message: 'Overloaded',
};

/** The longest delay `setTimeout` honours (2^31-1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Replays fixture text as a byte stream. Without options the bytes are the fixture body,
 * exactly, one chunk per event, as fast as the reader reads (backpressure is respected).
 * Cancelling the stream (or aborting `signal`) clears every timer; nothing is left running.
 * Timers are the global `setTimeout`, looked up when used, so fake timers control them.
 */
export function replay(
  fixtureText: string,
  options: ReplayOptions = {},
): ReadableStream<Uint8Array> {
  const random = createRandom(options.seed ?? DEFAULT_SEED);
  const body = options.keepHeader ? fixtureText : parseFixtureHeader(fixtureText).body;
  const requestId = options.requestId ?? randomId('req_011CMock', random);
  const steps = plan(eachSegment(body), options, random, requestId);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const pause = (ms: number | undefined) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      if (ms === undefined) return;
      // setTimeout fires at once past 2^31-1 ms: a longer wait is armed in slices, so a
      // stall of a month (or Infinity) waits that long instead of ending at once.
      const arm = (left: number) => {
        const slice = Math.min(left, MAX_TIMER_MS);
        timer = setTimeout(() => {
          if (left > slice) return arm(left - slice);
          timer = undefined;
          wake = undefined;
          resolve();
        }, slice);
      };
      arm(Number.isNaN(ms) ? 0 : Math.max(0, ms));
    });
  const signal = options.signal;
  let unlink = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal === undefined) return;
      const onAbort = () => {
        if (stopped) return;
        stop();
        controller.error(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      unlink = () => signal.removeEventListener('abort', onAbort);
    },
    async pull(controller) {
      while (!stopped) {
        const next = steps.next();
        const step: Step = next.done ? { kind: 'end', mode: 'close' } : next.value;
        switch (step.kind) {
          case 'bytes':
            controller.enqueue(step.bytes);
            return;
          case 'wait':
            await pause(step.ms);
            break;
          case 'hang':
            await pause(undefined);
            break;
          case 'end':
            if (step.mode === 'error') {
              // One macrotask first: a reader behind a tee or a pipe (MSW clones every
              // mocked response) gets the last bytes before the error discards its queue.
              await pause(0);
              if (stopped) return;
            }
            stop();
            unlink();
            if (step.mode === 'close') controller.close();
            else controller.error(new TypeError('network error'));
            return;
        }
      }
    },
    cancel() {
      stop();
      unlink();
    },
  });
}

/** Cuts bytes into chunks: per event, or random sizes across a burst. */
class Chunker {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private target = 0;

  constructor(
    private readonly chunking: Chunking,
    private readonly random: () => number,
  ) {
    if (chunking !== 'event') {
      const { minBytes, maxBytes } = chunking;
      if (!(minBytes >= 1 && maxBytes >= minBytes)) {
        throw new RangeError(
          `chunking needs 1 <= minBytes <= maxBytes, got ${minBytes}..${maxBytes}`,
        );
      }
    }
    this.nextTarget();
  }

  private nextTarget(): void {
    if (this.chunking === 'event') return;
    const { minBytes, maxBytes } = this.chunking;
    this.target =
      Math.floor(minBytes) +
      Math.floor(this.random() * (Math.floor(maxBytes) - Math.floor(minBytes) + 1));
  }

  *push(bytes: Uint8Array): Generator<Step> {
    if (bytes.length === 0) return;
    if (this.chunking === 'event') {
      yield { kind: 'bytes', bytes };
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
    while (this.size >= this.target) {
      yield { kind: 'bytes', bytes: this.take(this.target) };
      this.nextTarget();
    }
  }

  *flush(): Generator<Step> {
    if (this.size > 0) yield { kind: 'bytes', bytes: this.take(this.size) };
  }

  private take(n: number): Uint8Array {
    const chunk = new Uint8Array(n);
    let offset = 0;
    while (offset < n) {
      const part = this.parts[0] as Uint8Array;
      const count = Math.min(part.length, n - offset);
      chunk.set(part.subarray(0, count), offset);
      offset += count;
      if (count === part.length) this.parts.shift();
      else this.parts[0] = part.subarray(count);
    }
    this.size -= n;
    return chunk;
  }
}

/** The replay as a lazy list of steps: bytes, pauses and the end. */
function* plan(
  segments: Iterable<Segment>,
  options: ReplayOptions,
  random: () => number,
  requestId: string,
): Generator<Step> {
  const chunker = new Chunker(options.chunking ?? 'event', random);
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0));
  const scale = (ms: number) => (jitter > 0 ? ms * (1 + jitter * (2 * random() - 1)) : ms);
  const tps = options.tokensPerSecond ?? 0;
  const tokenMs = tps > 0 && Number.isFinite(tps) ? 1000 / tps : 0;
  const firstByteMs = options.firstByteDelayMs ?? 0;
  const drop = options.dropAfter;
  const dropMode = options.dropMode ?? 'error';
  const dropEvents = drop !== undefined && 'events' in drop ? drop.events : undefined;
  const dropBytes = drop !== undefined && 'bytes' in drop ? drop.bytes : undefined;
  const { errorAfter, stallAfter } = options;

  let events = 0;
  let sent = 0;
  let started = false;
  let stalled = false;

  const errorEvent = () =>
    encoder.encode(
      sseEvent({
        type: 'error',
        error: { ...(errorAfter?.error ?? DEFAULT_STREAM_ERROR) },
        request_id: requestId,
      }),
    );

  /** The faults due once `events` events are out; returns the end, if one is due. */
  function* checkpoint(atEnd: boolean): Generator<Step, Step | undefined> {
    if (stallAfter !== undefined && !stalled && (stallAfter.events <= events || atEnd)) {
      stalled = true;
      yield* chunker.flush();
      const ms = stallAfter.ms;
      yield ms === undefined || ms === Number.POSITIVE_INFINITY
        ? { kind: 'hang' }
        : { kind: 'wait', ms: Math.max(0, ms) };
    }
    if (errorAfter !== undefined && (errorAfter.events <= events || atEnd)) {
      yield* chunker.push(errorEvent());
      yield* chunker.flush();
      return { kind: 'end', mode: 'close' };
    }
    if ((dropEvents !== undefined && dropEvents <= events) || (drop !== undefined && atEnd)) {
      yield* chunker.flush();
      return { kind: 'end', mode: dropMode };
    }
    return undefined;
  }

  if (firstByteMs > 0) yield { kind: 'wait', ms: scale(firstByteMs) };
  const early = yield* checkpoint(false);
  if (early) {
    yield early;
    return;
  }
  for (const segment of segments) {
    // The first event goes out with the first byte; later deltas each take a token's time.
    if (tokenMs > 0 && started && segment.isEvent && segment.type === 'content_block_delta') {
      yield* chunker.flush();
      yield { kind: 'wait', ms: scale(tokenMs) };
    }
    if (segment.isEvent) started = true;
    let bytes = encoder.encode(segment.text);
    if (dropBytes !== undefined && sent + bytes.length >= dropBytes) {
      bytes = bytes.subarray(0, Math.max(0, dropBytes - sent));
      yield* chunker.push(bytes);
      yield* chunker.flush();
      yield { kind: 'end', mode: dropMode };
      return;
    }
    sent += bytes.length;
    yield* chunker.push(bytes);
    if (segment.isEvent) {
      events++;
      const end = yield* checkpoint(false);
      if (end) {
        yield end;
        return;
      }
    }
  }
  const end = yield* checkpoint(true);
  yield* chunker.flush();
  yield end ?? { kind: 'end', mode: 'close' };
}

/** Named pacings, for scenarios and handler options. */
export type Speed = 'fast' | 'realistic' | 'slow';

/**
 * - `fast`: no delays, one chunk per event (tests).
 * - `realistic`: 600 ms to the first byte, 50 deltas per second with ±50 % jitter, random
 *   chunks of 16–256 bytes (demos).
 * - `slow`: 2 s to the first byte, 8 deltas per second, same jitter and chunks (watching a
 *   stream build up, loading states).
 */
export const speeds: Readonly<Record<Speed, ReplayPacing>> = {
  fast: { firstByteDelayMs: 0, tokensPerSecond: 0, jitter: 0, chunking: 'event' },
  realistic: {
    firstByteDelayMs: 600,
    tokensPerSecond: 50,
    jitter: 0.5,
    chunking: { minBytes: 16, maxBytes: 256 },
  },
  slow: {
    firstByteDelayMs: 2000,
    tokensPerSecond: 8,
    jitter: 0.5,
    chunking: { minBytes: 16, maxBytes: 256 },
  },
};
