/** The seed used when none is given: replays are deterministic unless asked otherwise. */
export const DEFAULT_SEED = 20_251_129;

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on
 * every platform, so a chunking or jitter that broke a test can be replayed exactly.
 */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An id in the API's style (`req_011C…`, `msg_01…`), drawn from `random`. */
export function randomId(prefix: string, random: () => number, length = 22): string {
  let id = prefix;
  for (let i = 0; i < length; i++) id += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return id;
}
