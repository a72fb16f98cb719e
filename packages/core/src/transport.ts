import { fetchEventSource } from '@microsoft/fetch-event-source';
import { asLastEvent, EventStreamDecoder, openChunkSource, toStreamEvent } from './decode.js';
import { DEFAULT_ENDPOINT, DEFAULT_IDLE_TIMEOUT_MS } from './defaults.js';
import { type EndCause, endStream } from './end.js';
import { createStreamError, errorFromResponse, type StreamError } from './errors.js';
import type { MessageRequest, StreamEvent } from './protocol.js';
import { reduceStream } from './reduce.js';
import { createStreamState, type StreamState } from './state.js';

export type HeaderRecord = Record<string, string>;

export interface RetryOptions {
  /** Further attempts after the first; default 2. */
  readonly retries?: number;
  /** The first backoff delay; doubled per attempt, with jitter. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** The longest backoff delay. Default 8 s. */
  readonly maxDelayMs?: number;
  /** A server asking for a longer wait than this is not retried here. Default 60 s. */
  readonly maxRetryAfterMs?: number;
}

export interface StreamMessageOptions {
  /** Where to POST; default `/v1/messages` on the same origin, so a proxy can hold the key. */
  readonly endpoint?: string;
  /** Extra headers, or a function returning them per attempt (short-lived tokens). */
  readonly headers?: HeaderRecord | (() => HeaderRecord | Promise<HeaderRecord>);
  readonly signal?: AbortSignal;
  /** The fetch to use; default the global one. */
  readonly fetch?: typeof fetch;
  /** Retries before the first byte of an answer; `false` for none. */
  readonly retry?: RetryOptions | false;
  /** No bytes for this long ends the stream as `interrupted` (resumable). Default 60 s; 0 disables. */
  readonly idleTimeoutMs?: number;
  /** Every decoded event, with the state it produced. */
  readonly onEvent?: (event: StreamEvent, state: StreamState) => void;
  /** Every new state, including the final one. */
  readonly onState?: (state: StreamState) => void;
  /** Called before each retry, with the error that caused it and the wait. */
  readonly onRetry?: (info: { attempt: number; delayMs: number; error: StreamError }) => void;
  /**
   * `auto` (default) uses fetch-event-source where it can run (a browser page) and plain
   * fetch elsewhere (Node, workers, SSR); both behave the same.
   */
  readonly transport?: 'auto' | 'fetch-event-source' | 'fetch';
  /** Used by tests to make backoff deterministic. */
  readonly random?: () => number;
}

const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Why one attempt ended, before it is turned into a final state. */
type AttemptEnd =
  | { readonly kind: 'stream'; readonly cause: EndCause }
  /** Failed before any byte of an answer: may be retried. */
  | { readonly kind: 'failed'; readonly error: StreamError; readonly retryAfterMs?: number }
  | { readonly kind: 'aborted' };

/**
 * Sends a Messages request with `stream: true` and drives the reducer. Resolves to the
 * final state; it never rejects for a network, HTTP or protocol failure, because those are
 * states (`error`, `interrupted`, `aborted`) that keep whatever arrived.
 *
 * Exactly one billed request per call unless a retry is allowed: retries happen only before
 * the first byte of an answer, for network errors and retryable statuses; once an event has
 * arrived, continuing is resume's job.
 */
export async function streamMessage(
  request: MessageRequest,
  options: StreamMessageOptions = {},
): Promise<StreamState> {
  const retry = retryOptions(options.retry);
  const random = options.random ?? Math.random;
  let state = createStreamState();
  const publish = (next: StreamState) => {
    if (next !== state) {
      state = next;
      options.onState?.(state);
    }
  };
  if (options.signal?.aborted) {
    // fetch-event-source would send the request anyway: an aborted signal never fires.
    publish(endStream(state, { type: 'abort' }));
    return state;
  }
  let body: string;
  try {
    body = JSON.stringify({ ...request, stream: true });
  } catch (cause) {
    // A request that cannot be serialized (a cycle, a BigInt) is the caller's error, told as one.
    const message = cause instanceof Error ? cause.message : String(cause);
    publish(
      endStream(state, {
        type: 'error',
        error: createStreamError({
          type: 'invalid_request_error',
          message: `The request could not be serialized: ${message}`,
          retryable: false,
        }),
      }),
    );
    return state;
  }
  for (let attempt = 0; ; attempt++) {
    const onEvent = (event: StreamEvent) => {
      const next = reduceStream(state, event);
      publish(next);
      options.onEvent?.(event, next);
    };
    let end: AttemptEnd;
    try {
      end = await runAttempt(body, options, onEvent);
    } catch (cause) {
      // Only a bug in a callback can get here; the answer so far is kept all the same.
      end = {
        kind: 'stream',
        cause: { type: 'network', message: cause instanceof Error ? cause.message : String(cause) },
      };
    }
    if (end.kind === 'aborted') {
      publish(endStream(state, { type: 'abort' }));
      return state;
    }
    if (end.kind === 'stream') {
      publish(endStream(state, end.cause));
      return state;
    }
    const delayMs = retryDelay(end, attempt, retry, random);
    if (attempt >= retry.retries || !end.error.retryable || delayMs === undefined) {
      publish(endStream(state, { type: 'error', error: end.error }));
      return state;
    }
    options.onRetry?.({ attempt: attempt + 1, delayMs, error: end.error });
    if (!(await sleep(delayMs, options.signal))) {
      publish(endStream(state, { type: 'abort' }));
      return state;
    }
  }
}

/** Each field falls back to its default on its own: `{ retries: undefined }` keeps 2. */
function retryOptions(given: RetryOptions | false | undefined): Required<RetryOptions> {
  if (given === false) return { ...DEFAULT_RETRY, retries: 0 };
  return {
    retries: given?.retries ?? DEFAULT_RETRY.retries,
    baseDelayMs: given?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: given?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    maxRetryAfterMs: given?.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
  };
}

function retryDelay(
  end: { error: StreamError; retryAfterMs?: number },
  attempt: number,
  retry: Required<RetryOptions>,
  random: () => number,
): number | undefined {
  const asked = end.error.retryAfterMs;
  if (asked !== undefined) return asked <= retry.maxRetryAfterMs ? asked : undefined;
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
  // "Equal jitter": at least half the ceiling, so retries never bunch up at zero.
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Waits, unless aborted first; resolves to whether the wait completed. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const canUseFetchEventSource = (): boolean =>
  typeof window !== 'undefined' &&
  typeof document !== 'undefined' &&
  typeof document.addEventListener === 'function';

async function resolveHeaders(options: StreamMessageOptions): Promise<HeaderRecord> {
  const extra = typeof options.headers === 'function' ? await options.headers() : options.headers;
  // A plain object throughout: fetch-event-source copies headers with Object.assign, which
  // would silently drop the entries of a Headers instance. Names are lower-cased so a
  // caller's `Content-Type` replaces the default instead of joining it.
  const headers: HeaderRecord = { 'content-type': 'application/json', accept: 'text/event-stream' };
  for (const [name, value] of Object.entries(extra ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * One HTTP attempt, on whichever transport fits. Both report the same way: events through
 * `onEvent`, the end through the returned value.
 */
async function runAttempt(
  body: string,
  options: StreamMessageOptions,
  onEvent: (event: StreamEvent) => void,
): Promise<AttemptEnd> {
  const mode =
    options.transport === 'fetch' || options.transport === 'fetch-event-source'
      ? options.transport
      : canUseFetchEventSource()
        ? 'fetch-event-source'
        : 'fetch';
  const attempt = new Attempt(options);
  try {
    const headers = await resolveHeaders(options);
    if (attempt.controller.signal.aborted) return { kind: 'aborted' };
    return mode === 'fetch'
      ? await attempt.viaFetch(body, headers, onEvent)
      : await attempt.viaFetchEventSource(body, headers, onEvent);
  } catch (error) {
    return attempt.settle(error);
  } finally {
    attempt.dispose();
  }
}

/** What one attempt knows while it runs: its abort reasons, its idle timer, its progress. */
class Attempt {
  readonly controller = new AbortController();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private idled = false;
  private disposed = false;
  /** The body wrapper added the blank line that ends the stream's last event. */
  private endedByUs = false;
  /** Bytes of an accepted (2xx, event-stream) answer have arrived: no more retries. */
  receivedBytes = false;
  private readonly unlink: () => void;
  private readonly fetch: typeof fetch;
  private readonly url: string;

  constructor(private readonly options: StreamMessageOptions) {
    const outer = options.signal;
    const abort = () => this.controller.abort(outer?.reason);
    outer?.addEventListener('abort', abort, { once: true });
    this.unlink = () => outer?.removeEventListener('abort', abort);
    if (outer?.aborted) this.controller.abort(outer.reason);
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.url = options.endpoint ?? DEFAULT_ENDPOINT;
  }

  /** Restarts the idle clock; called for every chunk of bytes. */
  touch(): void {
    // A body read after the attempt ended (the library drains it) must not re-arm the clock.
    if (this.disposed) return;
    const ms = this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    if (!(ms > 0) || ms === Number.POSITIVE_INFINITY) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idled = true;
      this.controller.abort();
    }, ms);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    this.unlink();
  }

  /** Turns how an attempt stopped into its end. */
  settle(error: unknown): AttemptEnd {
    // The caller stopping wins over whatever the stop interrupted (an error body being read).
    if (this.options.signal?.aborted && !this.idled) return { kind: 'aborted' };
    if (error instanceof ResponseError) return { kind: 'failed', error: error.error };
    if (this.idled) {
      return {
        kind: 'stream',
        cause: { type: 'idle_timeout', ms: this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS },
      };
    }
    if (this.options.signal?.aborted) return { kind: 'aborted' };
    const message = error instanceof Error ? error.message : String(error);
    if (!this.receivedBytes) {
      return {
        kind: 'failed',
        error: createStreamError({ type: 'network_error', message: message || 'fetch failed' }),
      };
    }
    return { kind: 'stream', cause: { type: 'network', message } };
  }

  /** Checks a response before any byte of it is read as an answer; throws ResponseError. */
  async accept(response: Response): Promise<void> {
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new ResponseError(errorFromResponse(response.status, response.headers, text));
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith('text/event-stream')) {
      const text = await response.text().catch(() => '');
      throw new ResponseError(
        createStreamError({
          type: 'invalid_response',
          message: `Expected text/event-stream, got ${type || 'no content type'}${text ? `: ${text.slice(0, 200)}` : ''}`,
          status: response.status,
          requestId: response.headers.get('request-id') ?? undefined,
          retryable: false,
        }),
      );
    }
    this.touch();
  }

  async viaFetch(
    body: string,
    headers: HeaderRecord,
    onEvent: (event: StreamEvent) => void,
  ): Promise<AttemptEnd> {
    this.touch();
    const response = await this.fetch(this.url, {
      method: 'POST',
      headers,
      body,
      signal: this.controller.signal,
    });
    await this.accept(response);
    if (response.body === null) return { kind: 'stream', cause: { type: 'eof' } };
    const source = openChunkSource(response.body);
    const decoder = new EventStreamDecoder();
    const signal = this.controller.signal;
    const onAbort = () => void source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    let ended = false;
    try {
      for (;;) {
        let chunk: Uint8Array | string | undefined;
        try {
          chunk = await source.read();
        } catch (error) {
          // A complete last event may sit before the reset without its blank line: deliver
          // it, so a message_stop there still makes the answer complete.
          if (!signal.aborted) for (const event of decoder.end()) onEvent(event);
          throw error;
        }
        if (signal.aborted) return this.settle(signal.reason);
        if (chunk !== undefined) {
          this.receivedBytes = true;
          this.touch();
        }
        const events = chunk === undefined ? decoder.end() : decoder.push(chunk);
        for (const event of events) {
          // A callback may stop the stream; the rest of this chunk is not delivered then.
          if (signal.aborted) return this.settle(signal.reason);
          onEvent(event);
        }
        if (chunk === undefined) {
          ended = true;
          return { kind: 'stream', cause: { type: 'eof' } };
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      // Leaving early (a throwing callback, an abort) must not leave the connection open.
      if (!ended) void source.cancel();
    }
  }

  async viaFetchEventSource(
    body: string,
    headers: HeaderRecord,
    onEvent: (event: StreamEvent) => void,
  ): Promise<AttemptEnd> {
    this.touch();
    await fetchEventSource(this.url, {
      method: 'POST',
      headers,
      body,
      signal: this.controller.signal,
      // A hidden tab must not abort and re-POST a billed request.
      openWhenHidden: true,
      fetch: async (input, init) => this.countBytes(await this.fetch(input, init)),
      // The default accepts any status with the right content type.
      onopen: (response) => this.accept(response),
      onmessage: (message) => {
        // The library goes on reading after an abort; nothing after it is delivered (the
        // plain-fetch path stops at once, mid-chunk included).
        if (this.controller.signal.aborted) return;
        // The library dispatches at every blank line, even one that only closes a comment;
        // an event without data carries nothing (WHATWG does not dispatch it either).
        if (message.data === '') return;
        const event = toStreamEvent(message.event || null, message.data);
        onEvent(this.endedByUs ? asLastEvent(event) : event);
      },
      // Rethrowing stops the library's own retries (it retries forever otherwise); ours
      // decide, and only before the first byte.
      onerror: (error) => {
        throw error;
      },
    });
    // The library resolves silently when its signal aborts; tell the reasons apart here.
    if (this.controller.signal.aborted) return this.settle(this.controller.signal.reason);
    return { kind: 'stream', cause: { type: 'eof' } };
  }

  /**
   * Wraps a response body so each chunk restarts the idle clock and marks progress, and so
   * the library sees every complete event: it drops a final event that lacks its blank
   * line, where our decoder keeps it. Ending the body with one, also before a dropped
   * connection's error, makes both transports agree (an empty event is skipped).
   */
  private countBytes(response: Response): Response {
    if (response.body === null || !response.ok) return response;
    const reader = response.body.getReader();
    let failure: { error: unknown } | undefined;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        // Erroring a stream discards what it still holds, so the closing blank line goes
        // out on one read and the error on the next.
        if (failure !== undefined) return controller.error(failure.error);
        const aborted = () => this.controller.signal.aborted;
        try {
          const { done, value } = await reader.read();
          if (aborted()) {
            void reader.cancel().catch(() => {});
            return controller.error(this.controller.signal.reason);
          }
          if (done) {
            this.endedByUs = true;
            controller.enqueue(BLANK_LINE);
            controller.close();
            return;
          }
          this.receivedBytes = true;
          this.touch();
          controller.enqueue(value);
        } catch (error) {
          if (aborted()) return controller.error(error);
          failure = { error };
          this.endedByUs = true;
          controller.enqueue(BLANK_LINE);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
}

const BLANK_LINE = new TextEncoder().encode('\n\n');

/** A response that was refused before its body was read as an answer. */
class ResponseError extends Error {
  constructor(readonly error: StreamError) {
    super(error.message);
  }
}
