/**
 * The one mock endpoint every front end shares: a standard `Request` in, a `Response` out.
 * MSW handlers return it, the Node server writes it to a socket, `createMockFetch` hands it
 * to the caller.
 */
import {
  accumulate,
  type MessageParam,
  type MessageRequest,
  toMessage,
} from '@message-stream/core';
import { fixtures as catalog, isFixtureName, loadContinuation, loadFixture } from './catalog.js';
import { followUpText } from './follow-up.js';
import { apiError, httpError } from './http-errors.js';
import { fixtureForPrompt } from './pick.js';
import { createRandom, DEFAULT_SEED, randomId } from './random.js';
import { type ReplayPacing, replay, type Speed, speeds } from './replay.js';
import {
  type Continuation,
  contentText,
  continuationText,
  detectContinuation,
  pastAnswer,
} from './resume.js';
import { hasFault, parseScenario, type Scenario, ScenarioError } from './scenario.js';

/** A fixture's text, or a function loading it (called once per request that needs it). */
export type FixtureSource = string | (() => string | Promise<string>);

export interface MockOptions {
  /**
   * The scenario for requests that name none (no header, no `?scenario=`, no `mock:`
   * model), e.g. `'long-markdown;speed=realistic'` for a story. Parameters of a request's
   * own scenario win.
   */
  readonly scenario?: string | Scenario;
  /** The fixture when nothing selects one. Default `text-pings`. */
  readonly defaultFixture?: string;
  /** Pacing when the scenario names no speed. Default `'fast'`. */
  readonly speed?: Speed | ReplayPacing;
  /** Seed when the scenario names none. Default: a fixed seed. */
  readonly seed?: number;
  /**
   * More fixtures (or replacements), by name: a recording of a production bug, say.
   * Selected like the shipped ones (scenario, `mock:` model, last message naming them).
   */
  readonly fixtures?: Readonly<Record<string, FixtureSource>>;
  /** Recognises user-message continuations; group 1 is the partial answer. Default: core's instruction. */
  readonly continuationPattern?: RegExp;
  /** Told about every request answered with a fixture (or a fault). */
  readonly onRequest?: (info: MockRequestInfo) => void;
}

/** What the mock decided for one request. */
export interface MockRequestInfo {
  readonly fixture: string;
  readonly scenario: Scenario;
  /** Whether the scenario's faults were applied (`times` can switch them off). */
  readonly faulted: boolean;
  readonly continuation: Continuation | null;
  readonly body: MessageRequest;
}

/** The header that selects a scenario. */
export const SCENARIO_HEADER = 'x-mock-scenario';
/** The model prefix that selects a scenario: `mock:<scenario>`. */
export const MODEL_PREFIX = 'mock:';
const DEFAULT_FIXTURE = 'text-pings';
/** What `MockRequestInfo.fixture` says for a follow-up answer written from the request. */
const FOLLOW_UP = 'follow-up';

/**
 * The fixture a request selects when its scenario names none, from its last user message
 * (the one just typed): a fixture's name (`spec-thinking`, or `/spec-thinking`: handy in a
 * demo chat); else a catalog fixture's own prompt (send a fixture's request, get that
 * fixture); else the fixture whose topic the words share (`fixtureForPrompt`: "weather in
 * Paris" gets the weather tool call); else a first user message that is a fixture's prompt;
 * else undefined.
 */
export function fixtureForMessages(
  messages: readonly MessageParam[],
  extra: Readonly<Record<string, unknown>> = {},
): string | undefined {
  const users = messages.filter((message) => message?.role === 'user');
  const lastText = contentText(users[users.length - 1]?.content).trim();
  const name = lastText.replace(/^\//, '');
  if (name !== '' && (isFixtureName(name) || Object.hasOwn(extra, name))) return name;
  const first = contentText(users[0]?.content).trim();
  return (
    (lastText === '' ? undefined : (byPrompt(lastText) ?? fixtureForPrompt(lastText))) ??
    (first === '' ? undefined : byPrompt(first))
  );
}

/** The first catalog fixture whose request opens with exactly this user message. */
function byPrompt(text: string): string | undefined {
  return catalog.find((entry) => {
    const opening = entry.request.messages.find((message) => message.role === 'user');
    return contentText(opening?.content).trim() === text;
  })?.name;
}

/**
 * A request that follows up an answer rather than asking anew: tool results sent back
 * (a last user message of tool_result blocks only), or an answer sent back to continue it
 * (a last assistant message, when it is not a resume).
 */
function isFollowUp(messages: readonly MessageParam[] | undefined): boolean {
  const last = messages?.[messages.length - 1];
  if (last?.role === 'assistant') return true;
  return (
    last?.role === 'user' &&
    Array.isArray(last.content) &&
    last.content.length > 0 &&
    last.content.every((block) => block?.type === 'tool_result')
  );
}

/** The scenario string a request carries: header, then `?scenario=`, then a `mock:` model. */
export function scenarioOf(request: Request, model: unknown): string | undefined {
  const header = request.headers.get(SCENARIO_HEADER);
  if (header !== null) return header;
  const query = new URL(request.url, 'http://mock.invalid').searchParams.get('scenario');
  if (query !== null) return query;
  if (typeof model === 'string' && model.startsWith(MODEL_PREFIX)) {
    return model.slice(MODEL_PREFIX.length);
  }
  return undefined;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};

/**
 * A function answering `POST /v1/messages` requests like the API would, from fixtures: the
 * engine behind `createMockHandlers`, `createReplayServer` and `createMockFetch`.
 *
 * Per request: the scenario (see `parseScenario`) picks the fixture, faults and pacing; a
 * continuation (see `detectContinuation`) is answered with the rest of the fixture, with no
 * faults (so a resume after an injected drop succeeds). A malformed body or scenario, or an
 * unknown fixture, gets a 400 `invalid_request_error` saying why. A request without
 * `stream: true` gets the fixture's final message as JSON, as the API would.
 */
export function createMockResponder(
  options: MockOptions = {},
): (request: Request) => Promise<Response> {
  const respond = createResponder(options);
  return (request) => respond(request, null);
}

/**
 * The responder, also taking a body already in hand as text (`createMockFetch` given a string
 * body): copying a thousand turns' megabyte into a `Request` and reading it back out cost
 * more than parsing it.
 */
function createResponder(
  options: MockOptions,
): (request: Request, bodyText: string | null) => Promise<Response> {
  const counts = new Map<string, number>();
  const extra = options.fixtures ?? {};
  let served = 0;
  const defaults: Scenario =
    typeof options.scenario === 'string'
      ? parseScenario(options.scenario)
      : (options.scenario ?? {});

  const load = async (name: string): Promise<string> => {
    const source = extra[name];
    if (source !== undefined) return typeof source === 'string' ? source : source();
    return loadFixture(name);
  };

  return async (request, bodyText) => {
    const number = ++served;
    if (request.method !== 'POST') {
      return apiError(
        405,
        'invalid_request_error',
        `Method ${request.method} not allowed; use POST.`,
      );
    }
    let body: MessageRequest;
    try {
      body = JSON.parse(bodyText ?? (await request.text())) as MessageRequest;
      if (body === null || typeof body !== 'object' || !Array.isArray(body.messages)) {
        throw new Error('messages: Field required');
      }
    } catch (error) {
      return apiError(
        400,
        'invalid_request_error',
        `Invalid request body: ${(error as Error).message}`,
      );
    }

    const raw = scenarioOf(request, body.model);
    let scenario: Scenario;
    try {
      scenario = raw === undefined ? defaults : { ...defaults, ...parseScenario(raw) };
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error;
      return apiError(
        400,
        'invalid_request_error',
        `Invalid mock scenario "${raw}": ${error.message}`,
      );
    }

    const continuation = detectContinuation(body, options.continuationPattern);
    const followUp = continuation === null && isFollowUp(body.messages);
    // A follow-up with no `then=` gets an answer written from the request (see followUpText).
    const written = followUp && scenario.followUp === undefined;
    const fixture = followUp
      ? (scenario.followUp ?? FOLLOW_UP)
      : (scenario.fixture ??
        fixtureForMessages(continuation?.messages ?? body.messages, extra) ??
        options.defaultFixture ??
        DEFAULT_FIXTURE);
    if (!written && !isFixtureName(fixture) && !Object.hasOwn(extra, fixture)) {
      return apiError(
        400,
        'invalid_request_error',
        `Unknown mock fixture "${fixture}". Known: ${[...catalog.map((entry) => entry.name), ...Object.keys(extra)].join(', ')}.`,
      );
    }

    // Faults: never on a continuation or a follow-up; with `times`, only on the first n.
    let faulted = continuation === null && !followUp && hasFault(scenario);
    if (faulted && scenario.times !== undefined) {
      const key = raw ?? '';
      const count = counts.get(key) ?? 0;
      counts.set(key, count + 1);
      faulted = count < scenario.times;
    }
    options.onRequest?.({ fixture, scenario, faulted, continuation, body });

    const seed = (scenario.seed ?? options.seed ?? DEFAULT_SEED) >>> 0;
    const requestId = randomId('req_011CMock', createRandom(seed + number));
    if (faulted && scenario.networkError) return Response.error();
    if (faulted && scenario.http !== undefined) {
      return httpError(scenario.http, {
        requestId,
        ...(scenario.retryAfterMs !== undefined ? { retryAfterMs: scenario.retryAfterMs } : {}),
        ...(typeof body.model === 'string' ? { model: body.model } : {}),
      });
    }

    let text: string;
    try {
      text = written
        ? followUpText(body.messages, {
            seed: seed + number,
            ...(typeof body.model === 'string' ? { model: body.model } : {}),
          })
        : await load(fixture);
      if (continuation !== null) {
        // The whole answer sent back (Continue after max_tokens): the rest comes from the
        // fixture's own continuation, when it has one; else from the fixture after the cut.
        const past = pastAnswer(text, continuation.partialText);
        const more = past === undefined ? undefined : await loadContinuation(fixture);
        text =
          more === undefined
            ? continuationText(text, continuation.partialText, { seed: seed + number })
            : continuationText(more, past as string, { seed: seed + number });
      }
    } catch (error) {
      return apiError(
        500,
        'api_error',
        `Could not load fixture "${fixture}": ${(error as Error).message}`,
        requestId,
      );
    }
    const headers = { 'request-id': requestId, 'x-mock-fixture': fixture };

    if (body.stream !== true) {
      const message = toMessage(await accumulate(text));
      return new Response(JSON.stringify(message), {
        status: 200,
        headers: { 'content-type': 'application/json', ...headers },
      });
    }

    const speed = scenario.speed ?? options.speed ?? 'fast';
    const pacing = typeof speed === 'string' ? speeds[speed] : speed;
    const stream = replay(text, {
      ...pacing,
      ...(scenario.chunking !== undefined ? { chunking: scenario.chunking } : {}),
      seed,
      requestId,
      signal: request.signal,
      ...(faulted
        ? {
            dropAfter: scenario.dropAfter,
            dropMode: scenario.dropMode,
            errorAfter: scenario.errorAfter,
            stallAfter: scenario.stallAfter,
          }
        : {}),
    });
    return new Response(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  };
}

/**
 * A `fetch` served by the mock, with no network and no MSW: pass it as
 * `streamMessage(request, { fetch: createMockFetch() })`. Relative URLs are fine; aborting
 * the signal rejects a pending call and errors the body, as a real fetch does.
 */
export function createMockFetch(options: MockOptions = {}): typeof fetch {
  const respond = createResponder(options);
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const copied =
      input instanceof Request
        ? {
            method: input.method,
            headers: input.headers,
            signal: input.signal,
            ...(input.method === 'GET' || input.method === 'HEAD'
              ? {}
              : { body: await input.text() }),
          }
        : {};
    const merged: RequestInit = { ...copied, ...init };
    // A string body (what the kit's transport sends) is handed over as it is; any other kind
    // is read back from the Request, as a server would read it.
    const method = (merged.method ?? 'GET').toUpperCase();
    const bodyText =
      typeof merged.body === 'string' && method !== 'GET' && method !== 'HEAD' ? merged.body : null;
    const request = new Request(
      new URL(url, 'http://localhost/'),
      bodyText === null ? merged : { ...merged, body: null },
    );
    if (request.signal.aborted) throw request.signal.reason;
    const response = await respond(request, bodyText);
    if (response.type === 'error') throw new TypeError('fetch failed');
    return response;
  };
}
