/**
 * The browser transport: `@microsoft/fetch-event-source`, the library the kit is built on
 * in a page, adapted so that it behaves exactly like the plain-fetch path (see the traps
 * listed in its options below, and the transport contract both run in
 * test/transport.dom.test.ts and packages/mock/test/core-transport.test.ts).
 *
 * The library sends the request and owns its life (headers, `onopen`, abort, its retries
 * turned off); the body's events are framed by the same decoder as the plain-fetch path
 * (`sse.ts`), as the bytes arrive, and the library's own body reads end empty. Its parser
 * decodes every field of every line with a TextDecoder call of its own: each call makes a
 * browser string (an external string with a weak handle in Chromium), some 260,000 of them
 * for a 1 MB tool input, which every scavenge then scanned and a full collection cleared
 * (in a page, 65,536 events framed line by line took 170-300 ms and left a 41 ms full
 * collection; framed a read at a time, 18 ms and 5 ms).
 */
import { fetchEventSource } from '@microsoft/fetch-event-source';
import type { Attempt, AttemptEnd } from './attempt.js';
import { nextTask } from './next-task.js';
import type { StreamEvent } from './protocol.js';
import { EventStreamDecoder } from './sse.js';
import type { HeaderRecord } from './transport.js';

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
  attempt.touch();
  await fetchEventSource(attempt.url, {
    method: 'POST',
    headers,
    body,
    signal: controller.signal,
    // A hidden tab must not abort and re-POST a billed request.
    openWhenHidden: true,
    fetch: async (input, init) => decodeBody(attempt, await attempt.fetch(input, init), onEvent),
    // The default accepts any status with the right content type.
    onopen: (response) => attempt.accept(response),
    // Rethrowing stops the library's own retries (it retries forever otherwise); ours
    // decide, and only before the first byte.
    onerror: (error) => {
      throw error;
    },
  });
  // The library resolves silently when its signal aborts; tell the reasons apart here.
  if (controller.signal.aborted) return attempt.settle(controller.signal.reason);
  return { kind: 'stream', cause: { type: 'eof' } };
}

/** Bytes decoded at a time. */
const SLICE_BYTES = 4096;
/** Slices decoded in one task before the rest waits for a new one. */
const SLICE_BUDGET_MS = 4;

/**
 * Decodes a response body into events as the library reads it, and hands the library a
 * body that ends empty when this one ends (or fails as it fails):
 * - each chunk restarts the idle clock and marks progress (no retry once bytes arrived);
 * - the events go to `onEvent` as the plain-fetch path delivers them (the same decoder: a
 *   last event without its blank line is kept, an event over MAX_SSE_EVENT_CHARS dropped
 *   with one diagnostic, bytes that are not UTF-8 reported once at the end), none after an
 *   abort;
 * - a large chunk is decoded in slices, and after SLICE_BUDGET_MS of them the rest waits
 *   for a new task. A network read returns everything that arrived since the last one:
 *   while the page was busy that is often hundreds of events, and decoding and reducing
 *   them all at once was one task of 50-150 ms (over a real connection, a fast answer
 *   arrived in 35 reads). Between slices the page paints and takes input.
 */
function decodeBody(
  attempt: Attempt,
  response: Response,
  onEvent: (event: StreamEvent) => void,
): Response {
  if (response.body === null || !response.ok) return response;
  const reader = response.body.getReader();
  const decoder = new EventStreamDecoder();
  const aborted = () => attempt.controller.signal.aborted;
  const deliver = (events: readonly StreamEvent[]) => {
    // A callback may stop the stream; the rest is not delivered then.
    for (const event of events) if (!aborted()) onEvent(event);
  };
  const stop = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    void reader.cancel().catch(() => {});
    controller.error(attempt.controller.signal.reason);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      // The library's first read runs to the body's end: it gets no bytes, only the end.
      pull: async (controller) => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (aborted()) return stop(controller);
            if (done) {
              deliver(decoder.end());
              return controller.close();
            }
            attempt.received();
            let sliceStart = performance.now();
            for (let at = 0; at < value.length; at += SLICE_BYTES) {
              if (at > 0 && performance.now() - sliceStart >= SLICE_BUDGET_MS) {
                await nextTask();
                if (aborted()) return stop(controller);
                sliceStart = performance.now();
              }
              deliver(decoder.push(value.subarray(at, at + SLICE_BYTES)));
              if (aborted()) return stop(controller);
            }
          }
        } catch (error) {
          // A complete last event may sit before the reset without its blank line.
          if (!aborted()) deliver(decoder.end());
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
