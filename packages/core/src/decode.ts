/**
 * Server-sent-events decoding for a streamed Messages response.
 *
 * Framing follows the WHATWG "interpret an event stream" algorithm; each dispatched
 * message becomes a typed {@link StreamEvent}. Bad input never throws: it surfaces as an
 * `invalid_event` so the consumer sees what arrived instead of a crash mid-stream.
 *
 * The hot path is written for throughput: the decoder keeps only the unterminated tail
 * between chunks, finds line ends with `indexOf` on the new text alone (never re-scanning
 * what it has already processed), and reads the usual `event:` / `data:` lines in place
 * without per-line regexes or intermediate arrays.
 */
import type { InvalidEvent, MessageStreamEvent, StreamEvent } from './protocol.js';

/** An SSE line end: CRLF, CR or LF (the event-stream grammar's three). */
export const SSE_LINE_END = /\r\n|\r|\n/;

/**
 * Splits SSE text into its lines, by the same line ends the decoder reads. For tools that
 * hold a whole stream as text (fixtures, recordings); streams go through the decoder.
 */
export const splitSseLines = (text: string): string[] => text.split(SSE_LINE_END);

/** Everything a transport might hand over as a response body. */
export type EventStreamBody =
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Uint8Array
  | string;

const LF = 10;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;
const STREAM_OPTIONS: TextDecodeOptions = { stream: true };

const noop = (): void => {};

function invalid(event: string | null, data: string, reason: string): InvalidEvent {
  return { type: 'invalid_event', event, data, reason };
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Turns one SSE message (event name or null, data text) into a typed event. Used by
 * transports that parse SSE framing themselves (fetch-event-source).
 *
 * When the `event:` name and the JSON `type` disagree, the JSON `type` wins: it is what
 * the payload says it is, and gateways are known to omit or rewrite the SSE name while
 * passing the body through untouched. The name is only a fallback for a payload that
 * carries no `type` of its own.
 */
export function toStreamEvent(eventName: string | null, data: string): StreamEvent {
  const delta = parseCompactDelta(data);
  if (delta !== undefined) return delta;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return invalid(eventName, data, `data is not valid JSON: ${message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return invalid(eventName, data, `data is ${describeJson(parsed)}, not a JSON object`);
  }
  const object = parsed as Record<string, unknown>;
  let type = object.type;
  if (typeof type !== 'string') {
    if (eventName === null) return invalid(eventName, data, 'event has no type');
    // The object is freshly parsed and ours alone, so naming it in place loses nothing.
    object.type = eventName;
    type = eventName;
  }
  switch (type) {
    case 'content_block_delta':
    case 'message_start':
    case 'content_block_start':
    case 'content_block_stop':
    case 'message_delta':
    case 'message_stop':
    case 'ping':
    case 'error':
      // Inner shape is the reducer's to validate; copying here would only cost time.
      return object as unknown as MessageStreamEvent;
    default:
      return { type: 'unknown_event', event: eventName, data: object };
  }
}

const DELTA_PREFIX = '{"type":"content_block_delta","index":';

/**
 * `text.startsWith(part, at)`, in a form V8 runs several times faster: its startsWith took
 * ~200 ns per call on stream text, this ~60 ns without allocating (a search backwards from
 * `at` matches there first, and otherwise scans at most `at` characters).
 */
const hasAt = (text: string, at: number, part: string): boolean =>
  text.lastIndexOf(part, at) === at;
/** The delta types worth a fast path, by the text between the index and the string value. */
const DELTA_SHAPES = [
  { head: ',"delta":{"type":"text_delta","text":', key: 0x65, field: 'text' },
  {
    head: ',"delta":{"type":"input_json_delta","partial_json":',
    key: 0x6e,
    field: 'partial_json',
  },
  { head: ',"delta":{"type":"thinking_delta","thinking":', key: 0x68, field: 'thinking' },
] as const;

/**
 * Deltas are nearly every event of a stream, and the API writes them in one compact
 * layout. For exactly that layout the envelope is matched as text and only the string value
 * goes through JSON.parse, which spares parsing and allocating the envelope per event.
 * Anything else (other key order, spacing, extra keys, a string that is not one literal)
 * returns undefined and takes the general path, so the result always equals JSON.parse's.
 */
function parseCompactDelta(data: string): StreamEvent | undefined {
  if (!hasAt(data, 0, DELTA_PREFIX)) return undefined;
  let pos = DELTA_PREFIX.length;
  const first = data.charCodeAt(pos);
  if (first < 48 || first > 57) return undefined;
  let index = first - 48;
  pos++;
  if (first !== 48) {
    for (let c = data.charCodeAt(pos); c >= 48 && c <= 57; c = data.charCodeAt(++pos)) {
      index = index * 10 + (c - 48);
    }
  }
  if (index > Number.MAX_SAFE_INTEGER) return undefined;
  // The second letter of the delta type tells the shapes apart (t[e]xt, t[h]inking,
  // i[n]put_json), so only one of them is compared.
  const shape = DELTA_SHAPES.find((s) => s.key === data.charCodeAt(pos + 19));
  if (shape !== undefined && hasAt(data, pos, shape.head)) {
    const from = pos + shape.head.length;
    const to = data.length - 2;
    if (data.charCodeAt(from) !== 34 /* " */ || !hasAt(data, to - 1, '"}}') || to <= from)
      return undefined;
    let value: unknown;
    try {
      // Succeeds only if the slice is one string literal, i.e. the whole data is exactly
      // the compact layout.
      value = JSON.parse(data.slice(from, to));
    } catch {
      return undefined;
    }
    if (typeof value !== 'string') return undefined;
    return shape.field === 'text'
      ? { type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } }
      : shape.field === 'partial_json'
        ? {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: value },
          }
        : {
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking: value },
          };
  }
  return undefined;
}

/**
 * An event dispatched only because the stream ended: if its data is not readable, the
 * likely reason is that the stream was cut inside it, and the diagnostic says so.
 */
export function asLastEvent(event: StreamEvent): StreamEvent {
  if (event.type === 'invalid_event') {
    event.reason = `stream truncated: the last event ended without its blank line and its ${event.reason}`;
  }
  return event;
}

/**
 * The incremental, synchronous core, for transports that receive chunks themselves.
 *
 * One instance decodes one stream. After {@link EventStreamDecoder.end} it is back in its
 * initial state and may decode another.
 */
export class EventStreamDecoder {
  // `ignoreBOM: true` keeps a BOM in the decoded text so that one rule strips it for byte
  // and string chunks alike (a stream may mix both).
  private decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** True once a byte chunk went through `decoder`, which may then hold a partial character. */
  private bytesPending = false;
  /** True until the first non-empty text arrived: only there may a BOM be dropped. */
  private atStart = true;
  /** The previous text ended in CR: an LF opening the next one belongs to that line end. */
  private skipLF = false;
  /** The start of a line whose end has not arrived yet. */
  private tail = '';
  private eventName: string | null = null;
  private data = '';
  /** Whether any `data` line arrived: `data:` with an empty value still dispatches. */
  private hasData = false;

  /** Feed a chunk; returns the events completed by it (possibly none). */
  push(chunk: Uint8Array | string): StreamEvent[] {
    const out: StreamEvent[] = [];
    let text: string;
    if (typeof chunk === 'string') {
      if (this.bytesPending) {
        // Bytes left hanging mid-character cannot be completed by a string: flush them.
        this.bytesPending = false;
        text = this.decoder.decode() + chunk;
      } else {
        text = chunk;
      }
    } else {
      this.bytesPending = true;
      text = this.decoder.decode(chunk, STREAM_OPTIONS);
    }
    if (text.length > 0) this.feed(text, out);
    return out;
  }

  /**
   * The body ended: flush. A final event that lacks its terminating blank line is still
   * dispatched if its data is complete JSON; if its data is not valid JSON it becomes an
   * invalid_event whose reason says the stream was truncated. Returns those events.
   *
   * (The WHATWG algorithm discards such an event; we keep it because a complete final
   * event is worth having and a cut-off one is worth reporting.)
   */
  end(): StreamEvent[] {
    const out: StreamEvent[] = [];
    if (this.bytesPending) {
      this.bytesPending = false;
      const rest = this.decoder.decode();
      if (rest.length > 0) this.feed(rest, out);
    }
    if (this.tail.length > 0) {
      const line = this.tail;
      this.tail = '';
      this.line(line, 0, line.length, out);
    }
    if (this.hasData) {
      out.push(asLastEvent(toStreamEvent(this.eventName, this.data)));
    }
    this.atStart = true;
    this.skipLF = false;
    this.eventName = null;
    this.data = '';
    this.hasData = false;
    return out;
  }

  private feed(text: string, out: StreamEvent[]): void {
    const len = text.length;
    let pos = 0;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === BOM) pos = 1;
    } else if (this.skipLF) {
      this.skipLF = false;
      if (text.charCodeAt(0) === LF) pos = 1;
    }
    // Next LF and CR at or after `pos` (len = none left). Each is searched again only
    // once passed, so every character is scanned at most once per terminator kind.
    let lf = -1;
    let cr = -1;
    while (pos < len) {
      if (lf < pos) {
        lf = text.indexOf('\n', pos);
        if (lf < 0) lf = len;
      }
      if (cr < pos) {
        cr = text.indexOf('\r', pos);
        if (cr < 0) cr = len;
      }
      let end: number;
      let next: number;
      if (lf < cr) {
        end = lf;
        next = lf + 1;
      } else if (cr < len) {
        end = cr;
        if (cr + 1 < len) {
          next = text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
        } else {
          next = len;
          this.skipLF = true;
        }
      } else {
        break;
      }
      if (this.tail.length > 0) {
        const line = this.tail + text.slice(pos, end);
        this.tail = '';
        this.line(line, 0, line.length, out);
      } else {
        this.line(text, pos, end, out);
      }
      pos = next;
    }
    if (pos < len) {
      const rest = pos === 0 ? text : text.slice(pos);
      this.tail = this.tail.length > 0 ? this.tail + rest : rest;
    }
  }

  /** Interprets the line `text[start, end)`; `text[end]`, if any, is CR or LF. */
  private line(text: string, start: number, end: number, out: StreamEvent[]): void {
    if (start === end) {
      if (this.hasData) {
        out.push(toStreamEvent(this.eventName, this.data));
        this.data = '';
        this.hasData = false;
      }
      this.eventName = null;
      return;
    }
    const first = text.charCodeAt(start);
    if (first === COLON) return;
    // Fast paths for the two fields that matter, read in place. A match cannot run past
    // `end`: the character there is a line terminator, never ':'.
    if (
      first === 100 /* d */ &&
      text.charCodeAt(start + 1) === 97 /* a */ &&
      text.charCodeAt(start + 2) === 116 /* t */ &&
      text.charCodeAt(start + 3) === 97 /* a */ &&
      text.charCodeAt(start + 4) === COLON
    ) {
      this.appendData(text, start + 5, end);
      return;
    }
    if (first === 101 /* e */ && hasAt(text, start, 'event:')) {
      this.setEventName(text, start + 6, end);
      return;
    }
    // General case (no colon, or a field we only need to recognise): slice the line first
    // so the colon search stays within it.
    const line = text.slice(start, end);
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const valueStart = colon < 0 ? line.length : colon + 1;
    if (field === 'data') this.appendData(line, valueStart, line.length);
    else if (field === 'event') this.setEventName(line, valueStart, line.length);
    // `id`, `retry` and unknown fields are ignored: nothing here reconnects.
  }

  private appendData(text: string, valueStart: number, end: number): void {
    let from = valueStart;
    if (from < end && text.charCodeAt(from) === SPACE) from++;
    const value = text.slice(from, end);
    if (this.hasData) {
      this.data = `${this.data}\n${value}`;
    } else {
      this.data = value;
      this.hasData = true;
    }
  }

  private setEventName(text: string, valueStart: number, end: number): void {
    let from = valueStart;
    if (from < end && text.charCodeAt(from) === SPACE) from++;
    // An empty name means "no name" (the spec's default type), so the JSON type decides.
    this.eventName = from < end ? text.slice(from, end) : null;
  }
}

/** Where {@link EventIterator} gets its chunks. */
export interface ChunkSource {
  /** The next chunk, or undefined once the body has ended. */
  read(): Promise<Uint8Array | string | undefined>;
  /** The consumer stopped early: let the body go. Never rejects. */
  cancel(): Promise<void>;
}

function wholeSource(body: string | Uint8Array): ChunkSource {
  let sent = false;
  return {
    read: () => {
      if (sent) return Promise.resolve(undefined);
      sent = true;
      return Promise.resolve(body);
    },
    cancel: () => Promise.resolve(),
  };
}

function readableStreamSource(body: ReadableStream<Uint8Array>): ChunkSource {
  const reader = body.getReader();
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    reader.releaseLock();
  };
  return {
    read: () =>
      reader.read().then(
        (result) => {
          if (!result.done) return result.value;
          release();
          return undefined;
        },
        (error: unknown) => {
          release();
          throw error;
        },
      ),
    cancel: async () => {
      if (released) return;
      const cancelled = reader.cancel();
      release();
      await cancelled.catch(noop);
    },
  };
}

function asyncIterableSource(body: AsyncIterable<Uint8Array | string>): ChunkSource {
  const candidate = body as Partial<AsyncIterable<unknown> & Iterable<unknown>>;
  if (
    typeof candidate?.[Symbol.asyncIterator] !== 'function' &&
    typeof candidate?.[Symbol.iterator] !== 'function'
  ) {
    // Not a body at all: fail on read, like a body whose reader fails, rather than here.
    const failure = Promise.reject(new TypeError('The body is not a stream, iterable or string.'));
    failure.catch(noop);
    return { read: () => failure as never, cancel: () => Promise.resolve() };
  }
  // A plain (sync) iterable of chunks is accepted too: an array of strings in a test, say.
  const iterator =
    typeof candidate[Symbol.asyncIterator] === 'function'
      ? body[Symbol.asyncIterator]()
      : (async function* () {
          yield* candidate as Iterable<Uint8Array | string>;
        })();
  return {
    read: () => iterator.next().then((result) => (result.done ? undefined : result.value)),
    cancel: async () => {
      try {
        await iterator.return?.();
      } catch {
        // The consumer is leaving; a body that fails to close has nothing left to tell it.
      }
    },
  };
}

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
  private readonly decoder = new EventStreamDecoder();
  private events: StreamEvent[] = [];
  private index = 0;
  /** The body ended or failed, or the consumer returned: read no more. */
  private finished = false;
  /** A read in progress; later `next()` calls wait for it. */
  private pending: Promise<unknown> | null = null;

  constructor(private readonly source: ChunkSource) {}

  next(): Promise<IteratorResult<StreamEvent, void>> {
    if (this.pending !== null) {
      const next = (): Promise<IteratorResult<StreamEvent, void>> => this.next();
      return this.pending.then(next, next);
    }
    if (this.index < this.events.length) {
      return Promise.resolve({ done: false, value: this.events[this.index++] as StreamEvent });
    }
    if (this.finished) return Promise.resolve(done());
    const filling = this.fill().finally(() => {
      if (this.pending === filling) this.pending = null;
    });
    this.pending = filling;
    return filling;
  }

  private async fill(): Promise<IteratorResult<StreamEvent, void>> {
    for (;;) {
      let chunk: Uint8Array | string | undefined;
      try {
        chunk = await this.source.read();
      } catch (error) {
        this.finished = true;
        throw error;
      }
      if (this.finished) return done(); // return() was called while reading
      let events: StreamEvent[];
      if (chunk === undefined) {
        this.finished = true;
        events = this.decoder.end();
      } else {
        events = this.decoder.push(chunk);
      }
      if (events.length > 0) {
        this.events = events;
        this.index = 1;
        return { done: false, value: events[0] as StreamEvent };
      }
      if (chunk === undefined) return done();
    }
  }

  async return(): Promise<IteratorResult<StreamEvent, void>> {
    this.events = [];
    this.index = 0;
    if (!this.finished) {
      this.finished = true;
      await this.source.cancel();
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

function isReadableStream(body: unknown): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream | null)?.getReader === 'function';
}

/**
 * Yields typed stream events from raw SSE bytes. Never throws for bad input (a body whose
 * reader itself rejects — a network error — does propagate that rejection: the caller
 * decides what a dropped connection means).
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

/** Reads any body chunk by chunk; for consumers that batch events per chunk themselves. */
export function openChunkSource(body: EventStreamBody | null | undefined): ChunkSource {
  // A response without a body (204, HEAD) is an empty stream, not an exception.
  if (body === null || body === undefined) return wholeSource('');
  return typeof body === 'string' || body instanceof Uint8Array
    ? wholeSource(body)
    : isReadableStream(body)
      ? readableStreamSource(body)
      : asyncIterableSource(body);
}
