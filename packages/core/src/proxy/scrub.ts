/**
 * Scrubbing the proxy's secrets out of what the upstream sends back: a gateway or a
 * misconfigured upstream can echo the key in an error body or a header. The body is
 * scrubbed as it streams, on bytes (a secret split across chunks, or a chunk split inside
 * a multi-byte character, changes nothing), holding back only a trailing run that could be
 * the start of a secret, so event-stream chunks still pass the moment they arrive.
 */

export const REDACTED = '[redacted]';

const encoder = new TextEncoder();

/** Secrets worth scrubbing: non-empty, longest first (so a longer one wins an overlap). */
function secretBytes(secrets: readonly string[]): Uint8Array[] {
  return [...new Set(secrets.filter((s) => s.length > 0))]
    .sort((a, b) => b.length - a.length)
    .map((s) => encoder.encode(s));
}

function matchesAt(data: Uint8Array, at: number, secret: Uint8Array): boolean {
  if (at + secret.length > data.length) return false;
  for (let i = 0; i < secret.length; i++) if (data[at + i] !== secret[i]) return false;
  return true;
}

/** Whether `data` from `at` to its end is a proper prefix of `secret`. */
function prefixAt(data: Uint8Array, at: number, secret: Uint8Array): boolean {
  const length = data.length - at;
  if (length <= 0 || length >= secret.length) return false;
  for (let i = 0; i < length; i++) if (data[at + i] !== secret[i]) return false;
  return true;
}

/** Replaces every secret in a string (headers, whole texts). */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** A byte transform that replaces each secret with `[redacted]`. */
export function scrubStream(secrets: readonly string[]): TransformStream<Uint8Array, Uint8Array> {
  const patterns = secretBytes(secrets);
  const redacted = encoder.encode(REDACTED);
  let carry = new Uint8Array(0);

  /** Scrubs `data`, keeping back (unless `final`) a tail that may begin a secret. */
  const scrub = (data: Uint8Array, final: boolean, emit: (bytes: Uint8Array) => void) => {
    let start = 0; // first byte not yet emitted
    for (let at = 0; at < data.length; at++) {
      const secret = patterns.find((p) => p[0] === data[at] && matchesAt(data, at, p));
      if (secret !== undefined) {
        if (at > start) emit(data.subarray(start, at));
        emit(redacted);
        at += secret.length - 1;
        start = at + 1;
        continue;
      }
      if (!final && patterns.some((p) => p[0] === data[at] && prefixAt(data, at, p))) {
        if (at > start) emit(data.subarray(start, at));
        carry = data.slice(at);
        return;
      }
    }
    if (start === 0 && data.length > 0) emit(data);
    else if (start < data.length) emit(data.subarray(start));
    carry = new Uint8Array(0);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let data = chunk;
      if (carry.length > 0) {
        data = new Uint8Array(carry.length + chunk.length);
        data.set(carry);
        data.set(chunk, carry.length);
      }
      scrub(data, false, (bytes) => controller.enqueue(bytes));
    },
    flush(controller) {
      if (carry.length > 0) scrub(carry, true, (bytes) => controller.enqueue(bytes));
    },
  });
}
