import type { StreamEvent } from './protocol.js';

/**
 * A check, chunk by chunk, for bytes a decoder could not read. A TextDecoder that is not
 * fatal reads each bad sequence as U+FFFD, so a U+FFFD in the text beyond the EF BF BD
 * sequences among the bytes (the stream's own, one cut between chunks too) stands for bytes
 * that are not UTF-8. A chunk without U+FFFD costs one search of its text.
 */
export function utf8Check(): (text: string, bytes: Uint8Array) => boolean {
  /** The stream's last bytes so far (a sequence may be cut between chunks). */
  let end = 0;
  return (text, bytes) => {
    let made = 0;
    const n = bytes.length;
    if (text.includes('\uFFFD')) {
      made = text.split('\uFFFD').length - 1;
      for (const byte of bytes) {
        end = ((end << 8) | byte) & 0xffffff;
        if (end === 0xefbfbd) made--;
      }
    } else if (n > 0) {
      end =
        n > 1
          ? ((bytes[n - 2] as number) << 8) | (bytes[n - 1] as number)
          : (end << 8) | (bytes[0] as number);
    }
    end &= 0xffff;
    return made > 0;
  };
}

/** What a stream with bytes that are not UTF-8 reports, once: its text is kept as decoded. */
export const notUtf8 = (): StreamEvent => ({
  type: 'invalid_event',
  event: null,
  data: '',
  reason: 'bytes that are not UTF-8 were read as U+FFFD',
});
