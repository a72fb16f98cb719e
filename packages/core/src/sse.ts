/**
 * SSE framing: text or bytes to messages, following the WHATWG "interpret an event stream"
 * algorithm; each dispatched message is typed by `toStreamEvent`.
 *
 * The hot path is written for throughput: the decoder keeps only the unterminated tail
 * between chunks, finds line ends with `indexOf` on the new text alone (never re-scanning
 * what it has already processed), and reads the usual `event:` / `data:` lines in place
 * without per-line regexes or intermediate arrays (`pnpm bench` measures it against a bare
 * decode-split-parse loop).
 */
import { asLastEvent, hasAt, toStreamEvent } from './events.js';
import type { StreamEvent } from './protocol.js';
import { notUtf8, utf8Check } from './utf8-check.js';

// Character codes are written as numbers, not named constants: esbuild keeps the constants
// of a module that imports anything as variables in every bundle (see partial-json.ts).
const STREAM_OPTIONS: TextDecodeOptions = { stream: true };
const NO_BYTES = new Uint8Array(0);

/** An SSE line end: CRLF, CR or LF (the event-stream grammar's three). */
export const SSE_LINE_END = /\r\n|\r|\n/;

/**
 * Splits SSE text into its lines, by the same line ends the decoder reads. For tools that
 * hold a whole stream as text (fixtures, recordings); streams go through the decoder.
 */
export const splitSseLines = (text: string): string[] => text.split(SSE_LINE_END);

/**
 * The most characters one event may hold (its data lines, or one line without its end)
 * before it is dropped: 32 Mi, the API's whole request limit. A stream that never ends its
 * line or its event would otherwise grow the decoder without bound.
 */
export const MAX_SSE_EVENT_CHARS = 32 * 1024 * 1024;
/**
 * What is reported for an event over `max` characters: the limit, and its start, as much of
 * it as a diagnostic keeps of any event (`MAX_DIAGNOSTIC_EVENT_CHARS`, 2,048).
 */
export const droppedEvent = (event: string | null, start: string, max: number): StreamEvent => ({
  type: 'invalid_event',
  event,
  data: start.slice(0, 2_048),
  reason: `the event is over ${max} characters, so it was dropped (its start is kept)`,
});

export interface EventStreamDecoderOptions {
  /** The most characters one event may hold. Default `MAX_SSE_EVENT_CHARS`. */
  readonly maxEventChars?: number;
}

/**
 * The incremental, synchronous core, for transports that receive chunks themselves.
 *
 * One instance decodes one stream. After {@link EventStreamDecoder.end} it is back in its
 * initial state and may decode another. An event over `maxEventChars` becomes one
 * `invalid_event` (its start as `data`, the reason naming the limit), and what follows of it
 * is skipped up to the blank line that ends it.
 */
export class EventStreamDecoder {
  readonly #max: number;
  /** The current event went over the limit: its lines are skipped until a blank line. */
  #dropping = false;
  /** Inside a line that went over the limit: skipped until its line end. */
  #inDroppedLine = false;

  constructor(options: EventStreamDecoderOptions = {}) {
    this.#max = options.maxEventChars ?? MAX_SSE_EVENT_CHARS;
  }

  // `ignoreBOM: true` keeps a BOM in the decoded text so that one rule strips it for byte
  // and string chunks alike (a stream may mix both).
  #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** True once a byte chunk went through `decoder`, which may then hold a partial character. */
  #bytesPending = false;
  /**
   * Bytes that are not UTF-8 are reported once, at the stream's end (so the browser
   * transport, which sees the bytes before its library reads them, reports at the same
   * place); null once some were seen.
   */
  #utf8: ReturnType<typeof utf8Check> | null = utf8Check();
  /** True until the first non-empty text arrived: only there may a BOM be dropped. */
  #atStart = true;
  /** The previous text ended in CR: an LF opening the next one belongs to that line end. */
  #skipLF = false;
  /** The start of a line whose end has not arrived yet. */
  #tail = '';
  #eventName: string | null = null;
  /** The data lines so far, or null before the first (`data:` with no value still dispatches). */
  #data: string | null = null;

  /** Feed a chunk; returns the events completed by it (possibly none). */
  push(chunk: Uint8Array | string): StreamEvent[] {
    const out: StreamEvent[] = [];
    let text: string;
    /** What the decoder made of bytes: checked for bytes that are not UTF-8. */
    let decoded = '';
    if (typeof chunk === 'string') {
      if (this.#bytesPending) {
        // Bytes left hanging mid-character cannot be completed by a string: flush them.
        this.#bytesPending = false;
        decoded = this.#decoder.decode();
      }
      text = decoded + chunk;
    } else {
      this.#bytesPending = true;
      text = decoded = this.#decoder.decode(chunk, STREAM_OPTIONS);
    }
    if (text.length > 0) this.#feed(text, out);
    this.#checkUtf8(decoded, typeof chunk === 'string' ? NO_BYTES : chunk);
    return out;
  }

  #checkUtf8(text: string, bytes: Uint8Array): void {
    if (this.#utf8?.(text, bytes)) this.#utf8 = null;
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
    let rest = '';
    if (this.#bytesPending) {
      this.#bytesPending = false;
      rest = this.#decoder.decode();
      if (rest.length > 0) this.#feed(rest, out);
    }
    if (this.#tail.length > 0) {
      const line = this.#tail;
      this.#tail = '';
      this.#line(line, 0, line.length, out);
    }
    if (this.#data !== null && !this.#dropping) {
      out.push(asLastEvent(toStreamEvent(this.#eventName, this.#data)));
    }
    // A character cut off by the stream's end is bytes that are not UTF-8 too.
    this.#checkUtf8(rest, NO_BYTES);
    if (this.#utf8 === null) out.push(notUtf8());
    this.#dropping = false;
    this.#inDroppedLine = false;
    this.#utf8 = utf8Check();
    this.#atStart = true;
    this.#skipLF = false;
    this.#eventName = null;
    this.#data = null;
    return out;
  }

  #feed(text: string, out: StreamEvent[]): void {
    const len = text.length;
    let pos = 0;
    if (this.#atStart) {
      this.#atStart = false;
      if (text.charCodeAt(0) === 0xfeff /* BOM */) pos = 1;
    } else if (this.#skipLF) {
      this.#skipLF = false;
      if (text.charCodeAt(0) === 10 /* \n */) pos = 1;
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
          next = text.charCodeAt(cr + 1) === 10 /* \n */ ? cr + 2 : cr + 1;
        } else {
          next = len;
          this.#skipLF = true;
        }
      } else {
        break;
      }
      if (this.#inDroppedLine) {
        // The end of a line that went over the limit: it was reported, and is not read.
        this.#inDroppedLine = false;
      } else if (this.#tail.length > 0) {
        const line = this.#tail + text.slice(pos, end);
        this.#tail = '';
        this.#line(line, 0, line.length, out);
      } else {
        this.#line(text, pos, end, out);
      }
      pos = next;
    }
    if (pos < len && !this.#inDroppedLine) {
      const rest = pos === 0 ? text : text.slice(pos);
      this.#tail = this.#tail.length > 0 ? this.#tail + rest : rest;
      if (this.#tail.length + (this.#data?.length ?? 0) > this.#max) {
        this.#drop(this.#tail, out);
        this.#tail = '';
        this.#inDroppedLine = true;
      }
    }
  }

  /** The current event went over the limit: report its start once, keep nothing more of it. */
  #drop(start: string, out: StreamEvent[]): void {
    if (!this.#dropping) {
      out.push(droppedEvent(this.#eventName, this.#data ?? start, this.#max));
    }
    this.#dropping = true;
    this.#data = null;
  }

  /** Interprets the line `text[start, end)`; `text[end]`, if any, is CR or LF. */
  #line(text: string, start: number, end: number, out: StreamEvent[]): void {
    if (start === end) {
      if (this.#dropping) {
        this.#dropping = false;
      } else if (this.#data !== null) {
        out.push(toStreamEvent(this.#eventName, this.#data));
        this.#data = null;
      }
      this.#eventName = null;
      return;
    }
    const first = text.charCodeAt(start);
    if (first === 58 /* : */ || this.#dropping) return;
    // Fast paths for the two fields that matter, read in place. A match cannot run past
    // `end`: the character there is a line terminator, never ':'.
    if (
      first === 100 /* d */ &&
      text.charCodeAt(start + 1) === 97 /* a */ &&
      text.charCodeAt(start + 2) === 116 /* t */ &&
      text.charCodeAt(start + 3) === 97 /* a */ &&
      text.charCodeAt(start + 4) === 58 /* : */
    ) {
      this.#appendData(text, start + 5, end, out);
      return;
    }
    if (first === 101 /* e */ && hasAt(text, start, 'event:')) {
      this.#setEventName(text, start + 6, end);
      return;
    }
    // General case (no colon, or a field we only need to recognise): slice the line first
    // so the colon search stays within it.
    const line = text.slice(start, end);
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const valueStart = colon < 0 ? line.length : colon + 1;
    if (field === 'data') this.#appendData(line, valueStart, line.length, out);
    else if (field === 'event') this.#setEventName(line, valueStart, line.length);
    // `id`, `retry` and unknown fields are ignored: nothing here reconnects.
  }

  #appendData(text: string, valueStart: number, end: number, out: StreamEvent[]): void {
    const value = fieldValue(text, valueStart, end);
    this.#data = this.#data === null ? value : `${this.#data}\n${value}`;
    if (this.#data.length > this.#max) this.#drop('', out);
  }

  #setEventName(text: string, valueStart: number, end: number): void {
    // An empty name means "no name" (the spec's default type), so the JSON type decides.
    this.#eventName = fieldValue(text, valueStart, end) || null;
  }
}

/** A field's value: `text[valueStart, end)` without the one space that may follow the colon. */
const fieldValue = (text: string, valueStart: number, end: number): string =>
  text.slice(
    valueStart < end && text.charCodeAt(valueStart) === 32 /* space */
      ? valueStart + 1
      : valueStart,
    end,
  );
