/** `createTokenBucket`, the in-memory per-client limiter the README's rateLimit recipe uses. */
import { describe, expect, it } from 'vitest';
import { createMessagesProxy, createTokenBucket } from '../src/proxy.js';
import { expectApiError, KEY, post, recordingFetch, validBody } from './support/proxy-http.js';

/** A clock the test moves by hand. */
function manualClock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('createTokenBucket', () => {
  it('allows a burst of capacity, then refuses with the wait until the next token', () => {
    const clock = manualClock();
    const bucket = createTokenBucket({ capacity: 2, refillPerSecond: 1, now: clock.now });
    expect(bucket.take('a')).toEqual({ allowed: true });
    expect(bucket.take('a')).toEqual({ allowed: true });
    expect(bucket.take('a')).toEqual({ allowed: false, retryAfterMs: 1000 });
    clock.advance(400);
    expect(bucket.take('a')).toEqual({ allowed: false, retryAfterMs: 600 });
    clock.advance(600);
    expect(bucket.take('a')).toEqual({ allowed: true });
  });

  it('keeps one bucket per client and never refills past capacity', () => {
    const clock = manualClock();
    const bucket = createTokenBucket({ capacity: 1, refillPerSecond: 10, now: clock.now });
    expect(bucket.take('a').allowed).toBe(true);
    expect(bucket.take('b').allowed).toBe(true);
    expect(bucket.take('a').allowed).toBe(false);
    clock.advance(60_000);
    expect(bucket.take('a').allowed).toBe(true);
    expect(bucket.take('a').allowed).toBe(false);
  });

  it('takes a cost', () => {
    const clock = manualClock();
    const bucket = createTokenBucket({ capacity: 10, refillPerSecond: 2, now: clock.now });
    expect(bucket.take('a', 8).allowed).toBe(true);
    expect(bucket.take('a', 4)).toEqual({ allowed: false, retryAfterMs: 1000 });
  });

  it('forgets the least recently seen client past maxClients (memory stays bounded)', () => {
    const clock = manualClock();
    const bucket = createTokenBucket({
      capacity: 1,
      refillPerSecond: 0.001,
      maxClients: 2,
      now: clock.now,
    });
    bucket.take('a');
    bucket.take('b');
    bucket.take('a'); // refused, but 'a' is now the most recently seen
    bucket.take('c'); // evicts 'b'
    expect(bucket.take('a').allowed).toBe(false);
    expect(bucket.take('b').allowed).toBe(true); // a fresh bucket
  });

  it.each([
    { capacity: 0, refillPerSecond: 1 },
    { capacity: 1, refillPerSecond: 0 },
    { capacity: Number.NaN, refillPerSecond: 1 },
    { capacity: 1, refillPerSecond: Number.POSITIVE_INFINITY },
    // NaN would never evict: one bucket kept per client ever seen.
    { capacity: 1, refillPerSecond: 1, maxClients: Number.NaN },
    { capacity: 1, refillPerSecond: 1, maxClients: 0 },
  ])('throws a RangeError for %j', (options) => {
    expect(() => createTokenBucket(options)).toThrow(RangeError);
  });
});

describe('the README recipe: rateLimit on a token bucket per user', () => {
  it('lets each user make a burst of 2, then answers 429 with retry-after', async () => {
    const clock = manualClock();
    const bucket = createTokenBucket({ capacity: 2, refillPerSecond: 0.5, now: clock.now });
    const up = recordingFetch();
    const handler = createMessagesProxy({
      apiKey: KEY,
      fetch: up.fetch,
      authorize: (request) => request.headers.has('x-user'),
      rateLimit: (request) => bucket.take(request.headers.get('x-user') ?? ''),
    });
    const as = (user: string) => handler(post(validBody(), { 'x-user': user }));
    expect((await as('ann')).status).toBe(200);
    expect((await as('ann')).status).toBe(200);
    const third = await as('ann');
    expect(third.headers.get('retry-after')).toBe('2');
    await expectApiError(third, 429, 'rate_limit_error');
    expect((await as('bob')).status).toBe(200);
    clock.advance(2000);
    expect((await as('ann')).status).toBe(200);
    expect(up.calls).toHaveLength(4);
  });
});
