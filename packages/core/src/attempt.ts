/**
 * One HTTP attempt of `streamMessage`: its abort reasons, idle timer and progress, the
 * checks a response must pass before its body is read as an answer, and the plain-fetch
 * transport. The browser transport is in `fetch-event-source.ts`.
 */
import { openChunkSource } from './body.js';
import { amountOr, DEFAULT_ENDPOINT, DEFAULT_IDLE_TIMEOUT_MS, MAX_TIMER_MS } from './defaults.js';
import type { EndCause } from './end.js';
import { createStreamError, errorFromResponse, type StreamError } from './errors.js';
import { canUseFetchEventSource, viaFetchEventSource } from './fetch-event-source.js';
import { errorText } from './object.js';
import type { StreamEvent } from './protocol.js';
import { EventStreamDecoder } from './sse.js';
import type { HeaderRecord, StreamMessageOptions } from './transport.js';

/** Why one attempt ended, before it is turned into a final state. */
export type AttemptEnd =
  | { readonly kind: 'stream'; readonly cause: EndCause }
  /** Failed before any byte of an answer: may be retried. */
  | { readonly kind: 'failed'; readonly error: StreamError; readonly retryAfterMs?: number }
  | { readonly kind: 'aborted' };

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
export async function runAttempt(
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
    const relative = relativeEndpointError(attempt.url, options);
    if (relative !== undefined) return { kind: 'failed', error: relative };
    let headers: HeaderRecord;
    try {
      headers = await resolveHeaders(options);
    } catch (cause) {
      // The caller's own callback failed: no request was sent, and sending it again would
      // fail the same way, so it is its own error and not retried.
      const message = errorText(cause);
      return {
        kind: 'failed',
        error: createStreamError({
          type: 'headers_error',
          message: `The headers() callback failed: ${message}`,
          retryable: false,
        }),
      };
    }
    if (attempt.controller.signal.aborted) return { kind: 'aborted' };
    return mode === 'fetch'
      ? await attempt.viaFetch(body, headers, onEvent)
      : await viaFetchEventSource(attempt, body, headers, onEvent);
  } catch (error) {
    return attempt.settle(error);
  } finally {
    attempt.dispose();
  }
}

/**
 * A relative endpoint where nothing can resolve it: outside a page (Node, a worker without
 * a location) the global fetch has no base URL and would fail with a bare network error. An
 * injected `fetch` may resolve it itself (a mock does), so it is left to it.
 */
function relativeEndpointError(
  url: string,
  options: StreamMessageOptions,
): StreamError | undefined {
  if (options.fetch !== undefined || parses(url)) return undefined;
  const base = (globalThis as { location?: { href?: unknown } }).location?.href;
  if (typeof base === 'string' && parses(url, base)) return undefined;
  return createStreamError({
    type: 'invalid_endpoint',
    message: `The endpoint "${url}" is a relative URL, and there is no page here to resolve it against. Pass an absolute one (e.g. "https://example.com${url.startsWith('/') ? url : `/${url}`}"), or a fetch that resolves it.`,
    retryable: false,
  });
}

/** `URL.canParse`, for runtimes that predate it. */
function parses(url: string, base?: string): boolean {
  try {
    new URL(url, base);
    return true;
  } catch {
    return false;
  }
}

/** What of an error body is read: an API error is a few hundred bytes, a proxy's page more. */
const ERROR_BODY_BYTES = 64 * 1024;

/** The idle timeout asked for (0 turns it off); anything but a wait keeps the default. */
const idleTimeoutOf = ({ idleTimeoutMs }: StreamMessageOptions): number =>
  amountOr(idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);

/**
 * The start of a body that is not an answer, then the rest cancelled: an endless or huge
 * error page must not be read whole (nor keep the connection, and its bill, open).
 */
async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    while (size < ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      const part = value.subarray(0, ERROR_BODY_BYTES - size);
      size += part.length;
      text += decoder.decode(part, { stream: true });
    }
  } catch {
    return text;
  }
  void reader.cancel().catch(() => {});
  return text;
}

/** What one attempt knows while it runs: its abort reasons, its idle timer, its progress. */
export class Attempt {
  readonly controller = new AbortController();
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Date.now() of the last chunk: the idle clock counts from here. */
  #lastActivity = 0;
  #idled = false;
  #disposed = false;
  /** Bytes of an accepted (2xx, event-stream) answer have arrived: no more retries. */
  receivedBytes = false;
  readonly #unlink: () => void;
  readonly fetch: typeof fetch;
  readonly url: string;

  readonly #options: StreamMessageOptions;

  constructor(options: StreamMessageOptions) {
    this.#options = options;
    const outer = options.signal;
    const abort = () => this.controller.abort(outer?.reason);
    outer?.addEventListener('abort', abort, { once: true });
    this.#unlink = () => outer?.removeEventListener('abort', abort);
    if (outer?.aborted) this.controller.abort(outer.reason);
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.url = options.endpoint ?? DEFAULT_ENDPOINT;
  }

  /** Bytes of the answer arrived: restart the idle clock; no more retries. */
  received(): void {
    this.receivedBytes = true;
    this.touch();
  }

  /**
   * Restarts the idle clock; called for every chunk of bytes. A chunk only notes the time:
   * the one timer, when it fires, waits again for what is left of the timeout (a timer set
   * and cleared per chunk cost a page reading 65,000 chunks 0.4 s).
   */
  touch(): void {
    // A body read after the attempt ended (the library drains it) must not re-arm the clock.
    if (this.#disposed) return;
    const ms = idleTimeoutOf(this.#options);
    // Past MAX_TIMER_MS a timer fires at once: such a timeout means "never", like Infinity.
    if (!(ms > 0) || ms > MAX_TIMER_MS) return;
    this.#lastActivity = Date.now();
    if (this.#idleTimer === undefined) this.#waitIdle(ms, ms);
  }

  #waitIdle(ms: number, wait: number): void {
    this.#idleTimer = setTimeout(() => {
      const quiet = Date.now() - this.#lastActivity;
      // A clock set back makes `quiet` negative: wait a whole timeout, never longer.
      if (quiet < ms) return this.#waitIdle(ms, Math.min(ms, ms - quiet));
      this.#idled = true;
      this.controller.abort();
    }, wait);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#idleTimer);
    this.#unlink();
  }

  /** Turns how an attempt stopped into its end. */
  settle(error: unknown): AttemptEnd {
    // The caller stopping wins over whatever the stop interrupted (an error body being read).
    if (this.#options.signal?.aborted && !this.#idled) return { kind: 'aborted' };
    if (error instanceof ResponseError) return { kind: 'failed', error: error.error };
    if (this.#idled) {
      return {
        kind: 'stream',
        cause: { type: 'idle_timeout', ms: idleTimeoutOf(this.#options) },
      };
    }
    if (this.#options.signal?.aborted) return { kind: 'aborted' };
    const message = errorText(error);
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
      const text = await bodyStart(response);
      throw new ResponseError(errorFromResponse(response.status, response.headers, text));
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith('text/event-stream')) {
      const text = await bodyStart(response);
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
        if (chunk !== undefined) this.received();
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
}

/** A response that was refused before its body was read as an answer. */
export class ResponseError extends Error {
  constructor(readonly error: StreamError) {
    super(error.message);
  }
}
