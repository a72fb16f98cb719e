/** Reading the client's request body without ever holding more than the cap. */

export type BodyRead =
  | { readonly kind: 'ok'; readonly text: string }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable' };

/**
 * Whether a declared `content-length` is already over the cap (so the body need not be
 * read at all). A missing or malformed header is not: the streamed count decides then.
 */
export function declaredTooLarge(headers: Headers, maxBytes: number): boolean {
  const declared = headers.get('content-length');
  if (declared === null || !/^\s*\d+\s*$/.test(declared)) return false;
  return Number(declared) > maxBytes;
}

/**
 * The body as text, counted while it streams in: past `maxBytes` the read stops, the
 * stream is cancelled and what was read is dropped, so a huge body costs at most the cap
 * plus one chunk of memory.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<BodyRead> {
  if (request.body === null) return { kind: 'ok', text: '' };
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    return { kind: 'unreadable' }; // already read or locked
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        chunks.length = 0;
        await reader.cancel().catch(() => {});
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'unreadable' };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { kind: 'ok', text: new TextDecoder().decode(bytes) };
}

/** Lets go of a body the proxy refused before reading it (a node request then drains). */
export function discardBody(request: Request): void {
  if (request.body !== null && !request.bodyUsed && !request.body.locked) {
    request.body.cancel().catch(() => {});
  }
}
