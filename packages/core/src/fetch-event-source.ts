/**
 * The browser transport: `@microsoft/fetch-event-source`, the library the kit is built on
 * in a page, adapted so that it behaves exactly like the plain-fetch path (see the traps
 * listed in its options below, and the transport contract both run in
 * test/transport.dom.test.ts and packages/mock/test/core-transport.test.ts).
 */
import { fetchEventSource } from '@microsoft/fetch-event-source';
import type { Attempt, AttemptEnd } from './attempt.js';
import { asLastEvent, toStreamEvent } from './events.js';
import { nextTask } from './next-task.js';
import type { StreamEvent } from './protocol.js';
import { droppedEvent, MAX_SSE_EVENT_CHARS } from './sse.js';
import type { HeaderRecord } from './transport.js';
import { notUtf8, utf8Check } from './utf8-check.js';

/** Whether the library can run here: it needs a window and a document (it watches visibility). */
export const canUseFetchEventSource = (): boolean =>
  typeof window !== 'undefined' &&
  typeof document !== 'undefined' &&
  typeof document.addEventListener === 'function';

export async function viaFetchEventSource(
  attempt: Attempt,
  body: string,
  headers: HeaderRecord,
  onEvent: (event: StreamEvent) => void,
): Promise<AttemptEnd> {
  const { controller } = attempt;
  /**
   * The body wrapper added the blank line that ends the stream's last event; `bytes` handed
   * to the library since it last dispatched, and whether the wrapper ended an event that
   * went over MAX_SSE_EVENT_CHARS (the library would hold its data lines without bound), and
   * whether it read bytes that are not UTF-8.
   */
  const ending = { byUs: false, bytes: 0, forced: false, notUtf8: false };
  attempt.touch();
  try {
    await fetchEventSource(attempt.url, {
      method: 'POST',
      headers,
      body,
      signal: controller.signal,
      // A hidden tab must not abort and re-POST a billed request.
      openWhenHidden: true,
      fetch: async (input, init) =>
        wrapBody(attempt, await attempt.fetch(input, init), ending, (start) => {
          if (!controller.signal.aborted) {
            onEvent(droppedEvent(null, new TextDecoder().decode(start), MAX_SSE_EVENT_CHARS));
          }
        }),
      // The default accepts any status with the right content type.
      onopen: (response) => attempt.accept(response),
      onmessage: (message) => {
        // The library goes on reading after an abort; nothing after it is delivered (the
        // plain-fetch path stops at once, mid-chunk included).
        ending.bytes = 0;
        if (controller.signal.aborted) return;
        if (ending.forced) {
          ending.forced = false;
          if (message.data !== '') {
            onEvent(droppedEvent(message.event || null, message.data, MAX_SSE_EVENT_CHARS));
          }
          return;
        }
        // The library dispatches at every blank line, even one that only closes a comment;
        // an event without data carries nothing (WHATWG does not dispatch it either).
        if (message.data === '') return;
        const event = toStreamEvent(message.event || null, message.data);
        onEvent(ending.byUs ? asLastEvent(event) : event);
      },
      // Rethrowing stops the library's own retries (it retries forever otherwise); ours
      // decide, and only before the first byte.
      onerror: (error) => {
        throw error;
      },
    });
  } finally {
    // At the stream's end, after its last event, as the plain-fetch path's decoder reports.
    if (ending.notUtf8 && !controller.signal.aborted) onEvent(notUtf8());
  }
  // The library resolves silently when its signal aborts; tell the reasons apart here.
  if (controller.signal.aborted) return attempt.settle(controller.signal.reason);
  return { kind: 'stream', cause: { type: 'eof' } };
}

const BLANK_LINE = new TextEncoder().encode('\n\n');
const LF = 10;
const CR = 13;

/** Index just past the last CR or LF in `bytes`, or 0 when it holds none. */
function afterLastLineEnd(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const b = bytes[i];
    if (b === LF || b === CR) return i + 1;
  }
  return 0;
}

/** Bytes of whole lines handed to the library at a time. */
const SLICE_BYTES = 4096;
/** Slices handed over in one task before the rest waits for a new one. */
const SLICE_BUDGET_MS = 4;

/**
 * Where a slice of at most `size` bytes of `lines` (whole lines) ends: after its last line
 * end, or after the first one when a single line is longer.
 */
function sliceEnd(lines: Uint8Array, size: number): number {
  if (lines.length <= size) return lines.length;
  const cut = afterLastLineEnd(lines.subarray(0, size));
  if (cut > 0) return cut;
  const next = lines.subarray(size).findIndex((b) => b === LF || b === CR);
  return next === -1 ? lines.length : size + next + 1;
}

function concatBytes(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Wraps a response body for the library:
 * - each chunk restarts the idle clock and marks progress (no retry once bytes arrived);
 * - the library sees only whole lines. Its line buffer re-concatenates everything it holds
 *   with each new chunk, so a long `data:` line arriving in small chunks would cost time
 *   quadratic in its length. Here the bytes after a chunk's last line end are held back
 *   (a list of chunks, joined once when the line ends), so its buffer is always empty
 *   between chunks;
 * - the body ends with a blank line, also before a dropped connection's error: the library
 *   drops a final event that lacks one, where our decoder keeps it, and this makes both
 *   transports agree (an empty event is skipped);
 * - a large chunk is handed over in slices of whole lines, and after SLICE_BUDGET_MS of them
 *   the rest waits for a new task. A network read returns everything that arrived since the
 *   last one: while the page was busy that is often hundreds of events, and decoding and
 *   reducing them all at once was one task of 50-150 ms (over a real connection, a fast
 *   answer arrived in 35 reads). Between slices the page paints and takes input;
 * - bytes that are not UTF-8 are noted in `ending` (the library reads them as U+FFFD, and
 *   says nothing).
 */
function wrapBody(
  attempt: Attempt,
  response: Response,
  ending: { byUs: boolean; bytes: number; forced: boolean; notUtf8: boolean },
  onOverLongLine: (start: Uint8Array) => void,
): Response {
  if (response.body === null || !response.ok) return response;
  const reader = response.body.getReader();
  /** The library decodes line by line: the same bytes decoded here as one stream, to check. */
  const decoder = new TextDecoder();
  const utf8 = utf8Check();
  const checkUtf8 = (text: string, bytes: Uint8Array) => {
    if (utf8(text, bytes)) ending.notUtf8 = true;
  };
  let failure: { error: unknown } | undefined;
  /** Bytes of a line whose end has not arrived yet. */
  let held: Uint8Array[] = [];
  let heldSize = 0;
  /** Inside a line over MAX_SSE_EVENT_CHARS: reported once, skipped up to its end. */
  let dropping = false;
  /** Drops what is left of an over-long line from `value`; what follows it, if any. */
  const skipDropped = (value: Uint8Array): Uint8Array | undefined => {
    const end = value.findIndex((b) => b === LF || b === CR);
    if (end === -1) return undefined;
    dropping = false;
    const next = value[end] === CR && value[end + 1] === LF ? end + 2 : end + 1;
    return value.subarray(next);
  };
  const release = (upTo: Uint8Array, cut: number): Uint8Array => {
    const whole =
      held.length === 0
        ? upTo.subarray(0, cut)
        : concatBytes([...held, upTo.subarray(0, cut)], heldSize + cut);
    held = cut < upTo.length ? [upTo.subarray(cut)] : [];
    heldSize = upTo.length - cut;
    return whole;
  };
  const flush = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (heldSize > 0) controller.enqueue(concatBytes(held, heldSize));
    held = [];
    heldSize = 0;
    ending.byUs = true;
    controller.enqueue(BLANK_LINE);
  };
  /** Whole lines read but not handed over yet, and when the current run of slices began. */
  const lines = { rest: undefined as Uint8Array | undefined, since: 0 };
  const nextSlice = (all: Uint8Array): Uint8Array => {
    const cut = sliceEnd(all, SLICE_BYTES);
    lines.rest = cut < all.length ? all.subarray(cut) : undefined;
    return all.subarray(0, cut);
  };
  /** Hands over whole lines; an event past the limit is ended here, and reported dropped. */
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>, slice: Uint8Array) => {
    controller.enqueue(slice);
    ending.bytes += slice.length;
    if (ending.bytes > MAX_SSE_EVENT_CHARS && !ending.forced) {
      ending.forced = true;
      controller.enqueue(BLANK_LINE);
    }
  };
  const aborted = () => attempt.controller.signal.aborted;
  const stop = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    void reader.cancel().catch(() => {});
    controller.error(attempt.controller.signal.reason);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        // Erroring a stream discards what it still holds, so the closing blank line goes
        // out on one read and the error on the next.
        if (failure !== undefined) return controller.error(failure.error);
        if (lines.rest !== undefined) {
          if (performance.now() - lines.since >= SLICE_BUDGET_MS) {
            await nextTask();
            if (aborted()) return stop(controller);
            lines.since = performance.now();
          }
          enqueue(controller, nextSlice(lines.rest));
          return;
        }
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (aborted()) return stop(controller);
            if (done) {
              checkUtf8(decoder.decode(), new Uint8Array(0));
              flush(controller);
              controller.close();
              return;
            }
            attempt.received();
            checkUtf8(decoder.decode(value, { stream: true }), value);
            let bytes: Uint8Array | undefined = value;
            if (dropping) {
              bytes = skipDropped(bytes);
              if (bytes === undefined || bytes.length === 0) continue;
            }
            const cut = afterLastLineEnd(bytes);
            if (cut === 0) {
              held.push(bytes);
              heldSize += bytes.length;
              if (heldSize > MAX_SSE_EVENT_CHARS) {
                // A line that never ends would be held, then parsed, without bound.
                // Its start is in the first chunk held (one network read), not the whole line.
                onOverLongLine(held[0] ?? value);
                held = [];
                heldSize = 0;
                dropping = true;
              }
              continue; // no line ended: read on before handing anything over
            }
            lines.since = performance.now();
            enqueue(controller, nextSlice(release(bytes, cut)));
            return;
          }
        } catch (error) {
          if (aborted()) return controller.error(error);
          failure = { error };
          checkUtf8(decoder.decode(), new Uint8Array(0));
          flush(controller);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Pulled only when the library reads, that is once it has handled the slice before:
    // the time a run of slices took is then known when the next one is asked for.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
