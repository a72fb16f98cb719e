/**
 * Recording: the raw bytes of a live stream, teed into fixture text while the app reads
 * them, so a production bug can be saved and replayed byte for byte.
 */

/** How a recorded body ended. */
export type RecordEnd =
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly error: unknown }
  | { readonly type: 'cancel'; readonly reason: unknown };

/** Where `recordStream` puts what passes through. */
export interface RecordSink {
  /** Every chunk, as it arrived (a copy: the reader downstream may keep the original). */
  write?(chunk: Uint8Array): void;
  /** Once, when the body ends, fails or is cancelled by its reader. */
  close?(end: RecordEnd): void;
}

/**
 * A pass-through for a body: the returned stream yields exactly the chunks of `body`, and
 * the sink sees each one. Unlike `tee()`, nothing is buffered for a slow second reader;
 * an error or a cancel passes through both ways.
 */
export function recordStream(
  body: ReadableStream<Uint8Array>,
  sink: RecordSink | ((chunk: Uint8Array) => void),
): ReadableStream<Uint8Array> {
  const target: RecordSink = typeof sink === 'function' ? { write: sink } : sink;
  const reader = body.getReader();
  let closed = false;
  const close = (end: RecordEnd) => {
    if (closed) return;
    closed = true;
    target.close?.(end);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        close({ type: 'error', error });
        controller.error(error);
        return;
      }
      if (result.done) {
        close({ type: 'end' });
        controller.close();
        return;
      }
      target.write?.(result.value.slice());
      controller.enqueue(result.value);
    },
    async cancel(reason) {
      close({ type: 'cancel', reason });
      await reader.cancel(reason);
    },
  });
}

/** What a fixture says about itself, beside its text. */
export interface FixtureMeta {
  /** One word, kebab-case: what the fixture is called in scenarios. */
  readonly name: string;
  /** One sentence: what happened in this stream. */
  readonly description?: string;
  /** The request body the stream answered, for a catalog entry. */
  readonly request?: unknown;
}

/** A recorded stream, ready for `writeFixture` or the `fixtures` option of the handlers. */
export interface RecordedFixture {
  readonly name: string;
  readonly description: string;
  readonly request?: unknown;
  /** The fixture text: header comments, then the body exactly as received (as UTF-8). */
  readonly text: string;
  /** How the body ended: a production drop is recorded as the truncated body it was. */
  readonly end: RecordEnd['type'];
  readonly status: number;
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * Fixture text from a body: `: name:` and `: description:` comment lines, a blank line,
 * then the body. Decoders ignore comments, so the result is still a valid event stream.
 */
export function toFixtureText(
  body: string,
  meta: Pick<FixtureMeta, 'name' | 'description'>,
): string {
  const lines = [`: name: ${oneLine(meta.name)}`];
  if (meta.description) lines.push(`: description: ${oneLine(meta.description)}`);
  return `${lines.join('\n')}\n\n${body}`;
}

/**
 * Tees a live response into a fixture: use the returned `response` as you would have used
 * the original (same status, headers and bytes); `fixture` resolves once its body ends,
 * fails or is cancelled, with everything that arrived.
 */
export function teeToFixture(
  response: Response,
  meta: FixtureMeta,
): { response: Response; fixture: Promise<RecordedFixture> } {
  const decoder = new TextDecoder();
  let text = '';
  let resolve!: (fixture: RecordedFixture) => void;
  const fixture = new Promise<RecordedFixture>((done) => {
    resolve = done;
  });
  const description = meta.description ?? `Recorded response (HTTP ${response.status}).`;
  const finish = (end: RecordEnd['type']) => {
    text += decoder.decode();
    resolve({
      name: meta.name,
      description,
      ...(meta.request !== undefined ? { request: meta.request } : {}),
      text: toFixtureText(text, { name: meta.name, description }),
      end,
      status: response.status,
    });
  };
  if (response.body === null) {
    finish('end');
    return { response, fixture };
  }
  const body = recordStream(response.body, {
    write: (chunk) => {
      text += decoder.decode(chunk, { stream: true });
    },
    close: (end) => finish(end.type),
  });
  return {
    response: new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    }),
    fixture,
  };
}

/**
 * A fetch that records every streamed answer it returns (`text/event-stream`): hand it to
 * `streamMessage({ fetch })` in a build you are debugging, and save what `onFixture` gets.
 */
export function recordingFetch(
  onFixture: (fixture: RecordedFixture) => void,
  options: {
    readonly fetch?: typeof fetch;
    /** The fixture's name per request; default `recording-<n>`. */
    readonly name?: (request: unknown, n: number) => string;
  } = {},
): typeof fetch {
  let n = 0;
  return async (input, init) => {
    const response = await (options.fetch ?? globalThis.fetch)(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith('text/event-stream')) return response;
    n++;
    let request: unknown;
    try {
      request = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
      request = undefined;
    }
    const url = input instanceof Request ? input.url : String(input);
    const recorded = teeToFixture(response, {
      name: options.name?.(request, n) ?? `recording-${n}`,
      description: `Recorded from POST ${url} (HTTP ${response.status}).`,
      request,
    });
    void recorded.fixture.then(onFixture);
    return recorded.response;
  };
}
