/**
 * Optional recording of the raw bytes of each answer, so a user can attach the exact stream
 * of a bad answer to a bug report; the mock replays such a file as a fixture. Off unless an
 * app asks for it: it keeps response bodies in memory.
 */

/** One recorded response body, exactly as it arrived (decoded as UTF-8). */
export interface RecordedStream {
  /** The `message_start` id, which ties the bytes to the answer that shows them. */
  readonly messageId: string;
  readonly text: string;
}

export interface StreamRecorder {
  /** A fetch that records every event-stream body it returns; pass it as the transport's. */
  readonly fetch: typeof fetch;
  /** The stream that carried message `messageId`, if it was recorded and is still kept. */
  get(messageId: string): RecordedStream | undefined;
  /** Forgets every recording. */
  clear(): void;
}

export interface StreamRecorderOptions {
  /** The fetch to record; the global one by default. */
  readonly fetch?: typeof fetch;
  /** How many streams to keep, the newest; default 20. */
  readonly limit?: number;
}

const MESSAGE_ID = /"type"\s*:\s*"message_start"[\s\S]*?"id"\s*:\s*"([^"\\]+)"/;

/**
 * Creates a recorder. Recording never changes what the app reads: each chunk passes on as it
 * came, and a body that is not an event stream (an error page) is not touched.
 */
export function createStreamRecorder(options: StreamRecorderOptions = {}): StreamRecorder {
  const limit = Math.max(1, options.limit ?? 20);
  const kept = new Map<string, RecordedStream>();
  const keep = (messageId: string, text: string) => {
    kept.delete(messageId);
    kept.set(messageId, { messageId, text });
    while (kept.size > limit) {
      const oldest = kept.keys().next().value;
      if (oldest === undefined) break;
      kept.delete(oldest);
    }
  };

  const recording: typeof fetch = async (input, init) => {
    const base = options.fetch ?? globalThis.fetch;
    const response = await base(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (response.body === null || !type.includes('text/event-stream')) return response;
    const decoder = new TextDecoder();
    let text = '';
    let messageId: string | undefined;
    const save = () => {
      messageId ??= MESSAGE_ID.exec(text)?.[1];
      if (messageId !== undefined) keep(messageId, text);
    };
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          text += decoder.decode(chunk, { stream: true });
          save();
          controller.enqueue(chunk);
        },
        flush() {
          text += decoder.decode();
          save();
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return {
    fetch: recording,
    get: (messageId) => kept.get(messageId),
    clear: () => kept.clear(),
  };
}
