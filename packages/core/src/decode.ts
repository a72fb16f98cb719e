/**
 * `decodeEventStream`: a response body to an async iterator of typed events. Framing lives
 * in `sse.ts`, typing in `events.ts`, body sources in `body.ts`; this file joins them.
 */
import { type ChunkSource, type EventStreamBody, openChunkSource } from './body.js';
import type { StreamEvent } from './protocol.js';
import { EventStreamDecoder } from './sse.js';

const done = (): IteratorReturnResult<void> => ({ done: true, value: undefined });

/**
 * The iterator behind {@link decodeEventStream}. Hand-written rather than an
 * `async function*` because a generator pays an extra await per `yield`, which is most of
 * the decoder's own cost when events are small; here an event already decoded is served
 * with one resolved promise, and the awaiting happens once per chunk.
 *
 * Differences from a generator, both deliberate: `return()` cancels the body at once, even
 * while a read is in flight (so an abandoned stream frees its connection); and calls to
 * `next()` made before earlier ones settle are queued, so events still come out in order.
 */
class EventIterator implements AsyncGenerator<StreamEvent, void, undefined> {
  readonly #decoder = new EventStreamDecoder();
  #events: StreamEvent[] = [];
  #index = 0;
  /** The body ended or failed, or the consumer returned: read no more. */
  #finished = false;
  /** A read in progress; later `next()` calls wait for it. */
  #pending: Promise<unknown> | null = null;
  /** The body's failure, thrown once the events that arrived before it have been read. */
  #failure: { readonly error: unknown } | null = null;

  readonly #source: ChunkSource;

  constructor(source: ChunkSource) {
    this.#source = source;
  }

  next(): Promise<IteratorResult<StreamEvent, void>> {
    if (this.#pending !== null) {
      const next = (): Promise<IteratorResult<StreamEvent, void>> => this.next();
      return this.#pending.then(next, next);
    }
    if (this.#index < this.#events.length) {
      return Promise.resolve({ done: false, value: this.#events[this.#index++] as StreamEvent });
    }
    if (this.#failure !== null) {
      const { error } = this.#failure;
      this.#failure = null;
      return Promise.reject(error);
    }
    if (this.#finished) return Promise.resolve(done());
    const filling = this.#fill().finally(() => {
      if (this.#pending === filling) this.#pending = null;
    });
    this.#pending = filling;
    return filling;
  }

  async #fill(): Promise<IteratorResult<StreamEvent, void>> {
    for (;;) {
      let chunk: Uint8Array | string | undefined;
      try {
        chunk = await this.#source.read();
      } catch (error) {
        this.#finished = true;
        // A connection reset after a last event whose blank line never came: that event
        // arrived whole, so it is read (as accumulate reads it) before the failure is thrown.
        const rest = this.#decoder.end();
        if (rest.length === 0) throw error;
        this.#failure = { error };
        this.#events = rest;
        this.#index = 1;
        return { done: false, value: rest[0] as StreamEvent };
      }
      if (this.#finished) return done(); // return() was called while reading
      let events: StreamEvent[];
      if (chunk === undefined) {
        this.#finished = true;
        events = this.#decoder.end();
      } else {
        events = this.#decoder.push(chunk);
      }
      if (events.length > 0) {
        this.#events = events;
        this.#index = 1;
        return { done: false, value: events[0] as StreamEvent };
      }
      if (chunk === undefined) return done();
    }
  }

  async return(): Promise<IteratorResult<StreamEvent, void>> {
    this.#events = [];
    this.#index = 0;
    this.#failure = null;
    if (!this.#finished) {
      this.#finished = true;
      await this.#source.cancel();
    }
    return done();
  }

  async throw(error: unknown): Promise<IteratorResult<StreamEvent, void>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * Yields typed stream events from raw SSE bytes. Never throws for bad input (a body whose
 * reader itself rejects — a network error — does propagate that rejection, after every event
 * that arrived before it, a last one cut short included: the caller decides what a dropped
 * connection means).
 *
 * A ReadableStream is read through its own reader rather than async iteration so that a
 * consumer who stops early (`break`, `return()`) cancels the body deterministically; an
 * async iterable is closed through its `return()` likewise.
 */
export function decodeEventStream(
  body: EventStreamBody | null | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  return new EventIterator(openChunkSource(body));
}
