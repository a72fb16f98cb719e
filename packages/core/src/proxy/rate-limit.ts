/** Per-client rate limiting: the hook's contract, and a small in-memory token bucket. */

/** What a `rateLimit` hook decides for one request. */
export interface RateLimitDecision {
  /** `false` answers 429 `rate_limit_error`; nothing is sent upstream. */
  readonly allowed: boolean;
  /** When a refused client may try again; sent as `retry-after` (seconds) and `retry-after-ms`. */
  readonly retryAfterMs?: number;
}

export interface TokenBucketOptions {
  /** Requests a client may make in a burst (the bucket's size). Must be ≥ 1. */
  readonly capacity: number;
  /** Tokens added back per second, per client. Must be > 0. */
  readonly refillPerSecond: number;
  /**
   * Clients remembered at once; past it the least recently seen one is forgotten (and gets
   * a full bucket next time). Bounds memory against many distinct keys. Default 10,000.
   */
  readonly maxClients?: number;
  /** The clock, in ms. Default `Date.now`. */
  readonly now?: () => number;
}

export interface TokenBucket {
  /**
   * Takes `cost` tokens (default 1) from `client`'s bucket if it has them; a refusal takes
   * none and says how long until there are enough. A cost above `capacity` is never allowed.
   */
  take(client: string, cost?: number): RateLimitDecision;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * An in-memory token bucket per client key, for one process. Several instances behind a
 * load balancer each keep their own buckets (a client gets the limit once per instance):
 * keep the buckets in a shared store instead (see the README's Redis note).
 */
export function createTokenBucket(options: TokenBucketOptions): TokenBucket {
  const { capacity, refillPerSecond } = options;
  if (!(Number.isFinite(capacity) && capacity >= 1)) {
    throw new RangeError('createTokenBucket: capacity must be a finite number ≥ 1.');
  }
  if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) {
    throw new RangeError('createTokenBucket: refillPerSecond must be a finite number > 0.');
  }
  const maxClients = options.maxClients ?? 10_000;
  // NaN would never evict: the buckets would grow with every client seen.
  if (!(Number.isSafeInteger(maxClients) && maxClients >= 1)) {
    throw new RangeError('createTokenBucket: maxClients must be an integer ≥ 1.');
  }
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  return {
    take(client, cost = 1) {
      const time = now();
      const known = buckets.get(client);
      const bucket: Bucket = known ?? { tokens: capacity, at: time };
      const elapsed = Math.max(0, time - bucket.at);
      bucket.tokens = Math.min(capacity, bucket.tokens + (elapsed / 1000) * refillPerSecond);
      bucket.at = time;
      // Re-inserted on every use: the Map's first key is then the least recently seen.
      buckets.delete(client);
      buckets.set(client, bucket);
      if (buckets.size > maxClients) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      if (bucket.tokens >= cost) {
        bucket.tokens -= cost;
        return { allowed: true };
      }
      const retryAfterMs = Math.ceil(((cost - bucket.tokens) / refillPerSecond) * 1000);
      return { allowed: false, retryAfterMs };
    },
  };
}
