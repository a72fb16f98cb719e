import { type AttemptEnd, runAttempt } from './attempt.js';
import { amountOr, MAX_TIMER_MS } from './defaults.js';
import { endStream } from './end.js';
import { createStreamError, type StreamError } from './errors.js';
import { errorText } from './object.js';
import type { MessageRequest, StreamEvent } from './protocol.js';
import { reduceStream } from './reduce.js';
import { requestBody } from './request-body.js';
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
  /**
   * No bytes for this long ends the stream as `interrupted` (resumable). Default 60 s; 0
   * disables it (NaN or a negative keeps the default).
   */
  readonly idleTimeoutMs?: number;
  /** Every decoded event, with the state it produced; called before `onState` gets that state. */
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
    body = requestBody(request);
  } catch (cause) {
    // A request that cannot be serialized (a cycle, a BigInt) is the caller's error, told as one.
    const message = errorText(cause);
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
      const before = state;
      state = reduceStream(state, event);
      // The event before the state it made: a listener of both (a store that batches its
      // updates) has seen every event a state holds by the time that state is published.
      options.onEvent?.(event, state);
      if (state !== before) options.onState?.(state);
    };
    let end: AttemptEnd;
    try {
      end = await runAttempt(body, options, onEvent);
    } catch (cause) {
      // Only a bug in a callback can get here; the answer so far is kept all the same.
      end = {
        kind: 'stream',
        cause: { type: 'network', message: errorText(cause) },
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

/**
 * Each field falls back to its default on its own: `{ retries: undefined }` keeps 2, and so
 * does a value that is no count or wait (`amountOr`: `attempt >= NaN` is never true, so
 * `Number(process.env.UNSET)` retried without end).
 */
function retryOptions(given: RetryOptions | false | undefined): Required<RetryOptions> {
  const options = { ...DEFAULT_RETRY };
  if (given === false) options.retries = 0;
  else {
    for (const key of Object.keys(options) as (keyof RetryOptions)[]) {
      options[key] = amountOr(given?.[key], options[key]);
    }
  }
  return options;
}

function retryDelay(
  end: { error: StreamError; retryAfterMs?: number },
  attempt: number,
  retry: Required<RetryOptions>,
  random: () => number,
): number | undefined {
  const asked = end.error.retryAfterMs;
  // A wait longer than a timer can hold (MAX_TIMER_MS, ~24.8 days) would fire at once and
  // re-POST immediately: it is refused like any wait over maxRetryAfterMs.
  if (asked !== undefined) {
    return asked <= retry.maxRetryAfterMs && asked <= MAX_TIMER_MS ? asked : undefined;
  }
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt, MAX_TIMER_MS);
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
