import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatScenario,
  httpErrorKinds,
  parseScenario,
  type Scenario,
  ScenarioError,
} from '../src/index.js';

describe('scenario grammar', () => {
  it('reads a fixture alone, or nothing at all', () => {
    expect(parseScenario('spec-thinking')).toEqual({ fixture: 'spec-thinking' });
    expect(parseScenario('')).toEqual({});
    expect(parseScenario(' ; speed=slow ')).toEqual({ speed: 'slow' });
  });

  it('reads every stream fault', () => {
    expect(parseScenario('x;fault=drop-after-events:5')).toEqual({
      fixture: 'x',
      dropAfter: { events: 5 },
      dropMode: 'error',
    });
    expect(parseScenario('x;fault=close-after-bytes:1234')).toEqual({
      fixture: 'x',
      dropAfter: { bytes: 1234 },
      dropMode: 'close',
    });
    expect(parseScenario('x;fault=error-after-events:3')).toEqual({
      fixture: 'x',
      errorAfter: { events: 3 },
    });
    expect(parseScenario('x;fault=error-after-events:3:api_error')).toEqual({
      fixture: 'x',
      errorAfter: { events: 3, error: { type: 'api_error', message: 'Internal server error' } },
    });
    expect(parseScenario('x;fault=stall-after-events:4')).toEqual({
      fixture: 'x',
      stallAfter: { events: 4 },
    });
    expect(parseScenario('x;fault=stall-after-events:4:2500,drop-after-events:6')).toEqual({
      fixture: 'x',
      stallAfter: { events: 4, ms: 2500 },
      dropAfter: { events: 6 },
      dropMode: 'error',
    });
  });

  it('reads HTTP faults by kind or by status, and network-error', () => {
    expect(parseScenario(';fault=http:rate-limit')).toEqual({ http: 'rate-limit' });
    expect(parseScenario(';fault=http:429')).toEqual({ http: 'rate-limit' });
    expect(parseScenario(';fault=http:401')).toEqual({ http: 'token-revoked' });
    expect(parseScenario(';fault=http:502')).toEqual({ http: 'html-502' });
    expect(parseScenario(';fault=http:200')).toEqual({ http: 'json-200' });
    expect(parseScenario(';fault=network-error')).toEqual({ networkError: true });
    for (const kind of httpErrorKinds) expect(parseScenario(`;fault=http:${kind}`).http).toBe(kind);
  });

  it('reads speed, seed, chunking, times and retry-after-ms, ignoring spaces', () => {
    expect(
      parseScenario(
        ' long-markdown ; speed = realistic ; seed=7 ; chunking=3-9 ; times=2 ; retry-after-ms=10 ',
      ),
    ).toEqual({
      fixture: 'long-markdown',
      speed: 'realistic',
      seed: 7,
      chunking: { minBytes: 3, maxBytes: 9 },
      times: 2,
      retryAfterMs: 10,
    });
    expect(parseScenario(';chunking=event').chunking).toBe('event');
    expect(parseScenario(';chunking=random').chunking).toEqual({ minBytes: 1, maxBytes: 64 });
  });

  it.each([
    ['x;fault=explode', /Unknown fault "explode"/],
    ['x;fault=drop-after-events:five', /whole number/],
    ['x;fault=http:418', /Unknown HTTP fault "418"/],
    ['x;speed=ludicrous', /speed must be one of fast, realistic, slow/],
    ['x;chunking=9-3', /chunking must be/],
    ['x;chunking=0-3', /chunking must be/],
    ['x;colour=blue', /Unknown scenario parameter "colour"/],
    ['x;speed', /Expected key=value/],
    ['speed=fast', /starts with a fixture name/],
    ['x;fault=http:429,drop-after-events:1', /cannot be combined/],
    ['x;fault=http:429,network-error', /cannot be combined|Choose one/],
  ])('rejects %s with a message saying why', (text, message) => {
    expect(() => parseScenario(text)).toThrow(ScenarioError);
    expect(() => parseScenario(text)).toThrow(message);
  });

  it('formats a scenario so that parsing gives it back (property)', () => {
    const count = fc.nat({ max: 100_000 });
    const scenario: fc.Arbitrary<Scenario> = fc
      .record(
        {
          fixture: fc.constantFrom('text-pings', 'long-markdown', 'my-recording'),
          speed: fc.constantFrom('fast', 'realistic', 'slow'),
          seed: fc.nat(),
          chunking: fc.oneof(
            fc.constant('event' as const),
            fc
              .tuple(fc.integer({ min: 1, max: 50 }), fc.nat({ max: 50 }))
              .map(([minBytes, more]) => ({ minBytes, maxBytes: minBytes + more })),
          ),
          times: count,
          retryAfterMs: count,
          stream: fc.record(
            {
              dropAfter: fc.oneof(
                count.map((events) => ({ events })),
                count.map((bytes) => ({ bytes })),
              ),
              stallAfter: fc.oneof(
                count.map((events) => ({ events })),
                fc.tuple(count, count).map(([events, ms]) => ({ events, ms })),
              ),
              errorAfter: count.map((events) => ({ events })),
            },
            { requiredKeys: [] },
          ),
          http: fc.constantFrom(...httpErrorKinds),
          networkError: fc.constant(true),
        },
        { requiredKeys: [] },
      )
      .map(({ stream, http, networkError, ...rest }) => {
        // At most one kind of fault: stream faults, an HTTP fault, or a network error.
        if (stream && Object.keys(stream).length > 0) {
          return {
            ...rest,
            ...stream,
            ...(stream.dropAfter ? { dropMode: 'error' as const } : {}),
          };
        }
        if (http) return { ...rest, http };
        if (networkError) return { ...rest, networkError };
        return rest;
      });
    fc.assert(
      fc.property(scenario, (value) => {
        expect(parseScenario(formatScenario(value))).toEqual(value);
      }),
    );
  });
});
