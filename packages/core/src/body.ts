/**
 * Body sources: whatever a transport hands over as a response body (a ReadableStream, an
 * async or plain iterable of chunks, bytes, a string, nothing at all), read chunk by chunk
 * through one small interface.
 */

/** Everything a transport might hand over as a response body. */
export type EventStreamBody =
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Uint8Array
  | string;

const noop = (): void => {};

/** Where {@link EventIterator} gets its chunks. */
export interface ChunkSource {
  /** The next chunk, or undefined once the body has ended. */
  read(): Promise<Uint8Array | string | undefined>;
  /** The consumer stopped early: let the body go. Never rejects. */
  cancel(): Promise<void>;
}

/** `cancel` of a source that holds nothing to let go. */
const nothingToCancel = async (): Promise<void> => {};

function wholeSource(body: string | Uint8Array): ChunkSource {
  let chunk: string | Uint8Array | undefined = body;
  return {
    read: async () => {
      const next = chunk;
      chunk = undefined;
      return next;
    },
    cancel: nothingToCancel,
  };
}

/** A body that fails on every read, like one whose reader fails, rather than when opened. */
function failingSource(error: unknown): ChunkSource {
  return { read: () => Promise.reject(error), cancel: nothingToCancel };
}

function readableStreamSource(body: ReadableStream<Uint8Array>): ChunkSource {
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch (error) {
    // A locked (or otherwise unreadable) stream fails on the first read, like any bad body,
    // instead of throwing from a function that promises an iterator.
    return failingSource(error);
  }
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
    return failingSource(new TypeError('The body is not a stream, iterable or string.'));
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

function isReadableStream(body: unknown): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream | null)?.getReader === 'function';
}

/** Reads any body chunk by chunk; for consumers that batch events per chunk themselves. */
export function openChunkSource(body: EventStreamBody | null | undefined): ChunkSource {
  // A response without a body (204, HEAD) is an empty stream, not an exception.
  if (body === null || body === undefined) return wholeSource('');
  // isView rather than instanceof: bytes made in another realm (an iframe, jsdom) are bytes too.
  return typeof body === 'string' || ArrayBuffer.isView(body)
    ? wholeSource(body as string | Uint8Array)
    : isReadableStream(body)
      ? readableStreamSource(body)
      : asyncIterableSource(body);
}
