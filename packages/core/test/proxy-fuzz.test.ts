/**
 * The proxy under random bodies and headers (issue 14, tests): whatever arrives, the handler
 * answers (never throws), forwards only what the policy allows, and never shows the key.
 * Fixed seed (`FUZZ_SEED` replays another), bounded runs and time; a failure prints the seed,
 * the path and the shrunk case (fast-check's report).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMessagesProxy,
  DEFAULT_FORWARDED_FIELDS,
  DEFAULT_MAX_SERVER_TOOL_USES,
} from '../src/proxy.js';
import { KEY, sse, visibleText } from './support/proxy-http.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x1414);
const RUNS = 400;

const ALLOWED_SERVER_TOOL = 'web_search';

// ---------------------------------------------------------------------------------------
// Bodies

const numberish = fc.oneof(
  fc.integer({ min: -5, max: 70_000 }),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, 1, 0.5, 1.0000001, -0, 2 ** 53, 1e308),
  fc.string({ maxLength: 4 }),
  fc.constant(null),
);

const tool = fc.oneof(
  fc.record({ name: fc.string({ maxLength: 8 }), input_schema: fc.constant({ type: 'object' }) }),
  fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(
          'web_search_20250305',
          'web_fetch_20250910',
          'code_execution_20250825',
          'custom',
          'web_search',
          'web_search_x',
        ),
        fc.string({ maxLength: 12 }),
        numberish,
      ),
      name: fc.string({ maxLength: 8 }),
      max_uses: numberish,
    },
    { requiredKeys: ['type'] },
  ),
  fc.anything({ maxDepth: 1 }),
);

const unit = fc.double({ min: 0, max: 1, noNaN: true });

/** Valid values of the default fields (server tools only of the allowed type). */
const validFields = fc.record(
  {
    system: fc.string({ maxLength: 20 }),
    tools: fc.array(
      fc.oneof(
        fc.record({ name: fc.string({ maxLength: 8 }), input_schema: fc.constant({}) }),
        fc.record(
          {
            type: fc.constantFrom('web_search_20250305', 'web_search'),
            name: fc.constant('web_search'),
            max_uses: fc.integer({ min: 1, max: 1000 }),
          },
          { requiredKeys: ['type'] },
        ),
      ),
      { maxLength: 3 },
    ),
    tool_choice: fc.constant({ type: 'auto' }),
    thinking: fc.record({
      type: fc.constant('enabled'),
      budget_tokens: fc.integer({ min: 1, max: 5000 }),
    }),
    temperature: unit,
    top_p: unit,
    top_k: fc.nat({ max: 500 }),
    stop_sequences: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    metadata: fc.constant({ user_id: 'u' }),
    stream: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Keys a client might try to smuggle through, the default ones, and random ones. */
const anyKey = fc.oneof(
  fc.constantFrom(
    'mcp_servers',
    'service_tier',
    'container',
    'context_management',
    'betas',
    '__proto__',
    'constructor',
    'x-api-key',
    'api_key',
  ),
  fc.constantFrom(...DEFAULT_FORWARDED_FIELDS),
  fc.string({ maxLength: 10 }),
);
const anyValue = fc.oneof(
  numberish,
  fc.array(tool, { maxLength: 3 }),
  fc.anything({ maxDepth: 2 }),
);

/**
 * A request object: valid, then (half the time) one field set to a random value, which may
 * be a field the proxy must refuse, a value out of range, or still a valid request.
 */
const structuredBody = fc
  .tuple(validFields, fc.option(fc.tuple(anyKey, anyValue), { freq: 2 }))
  .map(([fields, corruption]) => {
    const body: Record<string, unknown> = {
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'hi' }],
      ...fields,
    };
    if (corruption !== null) {
      // defineProperty, so a '__proto__' key is an own property, as JSON.parse would make it.
      Object.defineProperty(body, corruption[0], {
        value: corruption[1],
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return JSON.stringify(body);
  });

const encoder = new TextEncoder();
/** Bodies as text where they are text, so a shrunk case prints readably. */
const requestBody = fc.oneof(
  { weight: 5, arbitrary: structuredBody },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  {
    // A valid body cut short or with a byte flipped.
    weight: 1,
    arbitrary: fc
      .tuple(structuredBody, fc.nat(), fc.integer({ min: 0, max: 255 }))
      .map(([text, at, byte]) => {
        const bytes = encoder.encode(text);
        const i = at % Math.max(1, bytes.length);
        return at % 2 === 0 ? bytes.subarray(0, i) : bytes.map((b, j) => (j === i ? byte : b));
      }),
  },
);

// ---------------------------------------------------------------------------------------
// Headers

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 24,
});

/** Headers the checks look at (each refuses some values), then the rest (none should matter). */
const decisivePair = fc.oneof(
  fc.tuple(
    fc.constant('content-type'),
    fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'text/plain',
        'application/json-seq',
        '',
      ),
      printable,
    ),
  ),
  fc.tuple(
    fc.constant('origin'),
    fc.constantFrom('http://proxy.test', 'https://evil.example', 'null', ''),
  ),
  fc.tuple(
    fc.constant('sec-fetch-site'),
    fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none', 'SAME-ORIGIN'),
  ),
  fc.tuple(fc.constant('content-length'), fc.oneof(fc.nat().map(String), printable)),
);
const otherPair = fc.oneof(
  fc.tuple(
    fc.constantFrom('x-api-key', 'authorization', 'anthropic-version', 'anthropic-beta', 'cookie'),
    printable,
  ),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), printable),
);
const randomPairs = fc.array(
  fc.oneof({ weight: 1, arbitrary: decisivePair }, { weight: 5, arbitrary: otherPair }),
  { maxLength: 4 },
);

/** Random header pairs, mostly on top of what the kit's same-origin page sends. */
const SAME_ORIGIN_JSON: [string, string][] = [
  ['content-type', 'application/json'],
  ['sec-fetch-site', 'same-origin'],
];
const headerPairs = fc.oneof(
  { weight: 3, arbitrary: randomPairs.map((pairs) => [...SAME_ORIGIN_JSON, ...pairs]) },
  { weight: 1, arbitrary: randomPairs },
);

// ---------------------------------------------------------------------------------------
// Upstream answers (some echo the key)

type Upstream = 'sse' | 'echo-body' | 'echo-split' | 'echo-header' | 'redirect' | 'throws';
const upstreamKind = fc.constantFrom<Upstream>(
  'sse',
  'echo-body',
  'echo-split',
  'echo-header',
  'redirect',
  'throws',
);

function answer(kind: Upstream): Response {
  switch (kind) {
    case 'sse':
      return sse();
    case 'echo-body':
      return new Response(`{"error":{"message":"bad key ${KEY}"}}`, { status: 401 });
    case 'echo-split': {
      const text = encoder.encode(`data: ${KEY} ${KEY}\n\n`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < text.length; i += 7) controller.enqueue(text.subarray(i, i + 7));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    case 'echo-header':
      return new Response('{}', {
        status: 500,
        headers: { 'request-id': KEY, 'retry-after': KEY, 'x-other': KEY },
      });
    case 'redirect':
      return new Response(KEY, { status: 307, headers: { location: `https://x.test/?k=${KEY}` } });
    case 'throws':
      throw new TypeError(`connect failed with ${KEY}`);
  }
}

// ---------------------------------------------------------------------------------------

/** The policy, re-stated from the options the handler gets (an independent oracle). */
function expectAllowed(body: Record<string, unknown>) {
  for (const name of Object.keys(body)) expect(DEFAULT_FORWARDED_FIELDS).toContain(name);
  expect(typeof body.model).toBe('string');
  expect(Number.isSafeInteger(body.max_tokens) && (body.max_tokens as number) >= 1).toBe(true);
  for (const name of ['temperature', 'top_p'] as const) {
    if (body[name] !== undefined) {
      expect(body[name]).toBeGreaterThanOrEqual(0);
      expect(body[name]).toBeLessThanOrEqual(1);
    }
  }
  if (body.top_k !== undefined) expect(Number.isSafeInteger(body.top_k)).toBe(true);
  for (const tool of (body.tools as Record<string, unknown>[] | undefined) ?? []) {
    if (tool.type === undefined || tool.type === 'custom') continue;
    // The Anthropic-defined tools the app runs itself pass like custom tools.
    if (/^(?:bash|text_editor|computer|memory)_\d/.test(String(tool.type))) continue;
    expect(String(tool.type)).toMatch(/^web_search(_\d+)?$/);
    expect(Number.isSafeInteger(tool.max_uses)).toBe(true);
    expect(tool.max_uses).toBeGreaterThanOrEqual(1);
    expect(tool.max_uses).toBeLessThanOrEqual(DEFAULT_MAX_SERVER_TOOL_USES);
  }
}

describe('proxy fuzz: random bodies, headers and upstream answers', () => {
  it(`never throws, never forwards a disallowed field, never leaks the key (seed ${SEED})`, async () => {
    let forwarded = 0;
    await fc.assert(
      fc.asyncProperty(requestBody, headerPairs, upstreamKind, async (body, pairs, kind) => {
        const sent: { headers: Headers; body: Record<string, unknown> }[] = [];
        const upstream = (async (_input: RequestInfo | URL, init?: RequestInit) => {
          sent.push({ headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
          return answer(kind);
        }) as typeof fetch;
        const handler = createMessagesProxy({
          apiKey: KEY,
          fetch: upstream,
          allowedHosts: ['proxy.test'],
          allowedServerTools: [ALLOWED_SERVER_TOOL],
        });
        const headers = new Headers({ host: 'proxy.test' });
        for (const [name, value] of pairs) headers.append(name, value);
        const request = new Request('http://proxy.test/v1/messages', {
          method: 'POST',
          headers,
          body,
        });

        const response = await handler(request); // must not reject
        expect(response).toBeInstanceOf(Response);
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThanOrEqual(599);
        expect(response.headers.has('location')).toBe(false);
        const visible = await visibleText(response);
        expect(visible).not.toContain(KEY);

        expect(sent.length).toBeLessThanOrEqual(1);
        const call = sent[0];
        if (call === undefined) return;
        forwarded++;
        expectAllowed(call.body);
        expect(call.headers.get('x-api-key')).toBe(KEY);
        expect(call.headers.get('anthropic-version')).toBe('2023-06-01');
        for (const name of ['authorization', 'cookie', 'anthropic-beta', 'origin']) {
          expect(call.headers.has(name)).toBe(false);
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 12_000, markInterruptAsFailure: false },
    );
    // Not vacuous: a fair share of the random requests got through the checks.
    expect(forwarded).toBeGreaterThan(RUNS / 10);
  }, 15_000);
});
