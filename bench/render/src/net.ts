/**
 * The "network" both contenders read from: the mock's `createMockFetch` at full speed (no
 * pacing, one chunk per SSE event), with each read resolved in a task of its own.
 *
 * In a page, the mock's body is an in-memory stream whose reads all resolve as microtasks: a
 * reader would drain 5,000 events without ever yielding, and React would see one update. A
 * real network read always arrives in a new task, so every read here waits for one
 * (a MessageChannel message: no timer clamping, no delay when the thread is free).
 *
 * The request goes out the same way: the mock reads and parses the request body (at 1,000
 * turns, a megabyte of JSON) in a task after the one that sent it. That is a server's work;
 * run inside the sending task, it was counted in the contender's longest task.
 */
import { createMockFetch } from '@message-stream/mock';

export const FIXTURE = 'bench-render';

export interface NetTimes {
  /** performance.now() when the first chunk was handed to the reader. */
  firstByte: number;
  /** performance.now() when the last chunk (with the last byte) was handed to the reader. */
  lastByte: number;
  chunks: number;
  /** Bytes handed to the reader. */
  bytes: number;
}

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();

/** Resolves in a new task, as soon as the thread is free. */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

function perTaskReads(response: Response, times: NetTimes): Response {
  const source = response.body;
  if (source === null) return response;
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        await nextTask();
        if (done) {
          controller.close();
          return;
        }
        const now = performance.now();
        if (times.chunks === 0) times.firstByte = now;
        times.lastByte = now;
        times.chunks++;
        times.bytes += value.byteLength;
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * A fetch answering every request with `sse`. In the page (the default), through the mock,
 * one event per task. Over HTTP (`http` set: the answer's query), the bench's server writes
 * the same bytes to a real connection, one write per event, and Chromium's network stack
 * hands them over as a network does: a read returns what has arrived since the last one.
 */
export function benchFetch(sse: string, times: NetTimes, http?: string): typeof fetch {
  if (http !== undefined) {
    return async (_input, init) =>
      perTaskReads(
        await fetch(`/bench-answer?${http}`, {
          method: 'POST',
          body: init?.body ?? null,
          signal: init?.signal ?? null,
        }),
        times,
      );
  }
  const mock = createMockFetch({ fixtures: { [FIXTURE]: sse }, scenario: FIXTURE, speed: 'fast' });
  return async (input, init) => {
    await nextTask();
    return perTaskReads(await mock(input, init), times);
  };
}

/** What every contender asks for: the answer is the same whatever it says. */
export const MODEL = 'claude-opus-5';
export const MAX_TOKENS = 16384;
export const QUESTION = 'Write the rendering report.';

/** The request the hand-written contenders send (the peers' SDKs build their own). */
export const requestAnswer = (fetchImpl: typeof fetch): Promise<Response> =>
  fetchImpl('/v1/messages', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: MODEL,
      max_tokens: MAX_TOKENS,
      stream: true,
      messages: [{ role: 'user', content: QUESTION }],
    }),
  });
