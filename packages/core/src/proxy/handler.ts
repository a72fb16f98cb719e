/**
 * `createMessagesProxy`: the fetch handler that holds the key and decides who may spend it.
 * Checks run cheapest first and before anything is read: method, cross-site, content type,
 * `authorize`, `rateLimit`, the declared size; then the body is read within the cap, parsed
 * and held to the request policy. The upstream answer streams back scrubbed of the key.
 */

import { isPlainObject } from '../object.js';
import { declaredTooLarge, discardBody, readBodyWithin } from './body.js';
import { errorResponse, ProxyRejection, rejectionResponse } from './errors.js';
import { crossSiteReason, hostCheck, hostRefusal, isJsonContentType } from './guard.js';
import { DEFAULT_MAX_REQUEST_BYTES, type MessagesProxyOptions } from './options.js';
import {
  allowsMcp,
  applyRequestPolicy,
  DEFAULT_FORWARDED_FIELDS,
  DEFAULT_MAX_SERVER_TOOL_USES,
  type RequestPolicy,
} from './policy.js';
import { scrubStream, scrubText } from './scrub.js';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_VERSION = '2023-06-01';
/** The smallest thinking budget the API takes. */
const MIN_THINKING_BUDGET = 1024;

/** Upstream response headers the client gets to see (plus `anthropic-ratelimit-*`). */
const PASSTHROUGH_HEADERS = new Set([
  'content-type',
  'request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'cache-control',
]);
const PASSTHROUGH_PREFIX = 'anthropic-ratelimit-';

/** Statuses whose Response may not have a body. */
const NULL_BODY_STATUSES = new Set([204, 205]);

/**
 * The status a handler answers with when the client went away before the upstream
 * answered (nginx's "client closed request"). Nobody reads it; the response just ends.
 */
const CLIENT_CLOSED_STATUS = 499;

/** Header names whose configured values are secrets to scrub like the key. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key']);

function modelPredicate(
  allowed: MessagesProxyOptions['allowedModels'],
): (model: string) => boolean {
  if (allowed === undefined) return () => true;
  if (typeof allowed === 'function') return allowed;
  const set = new Set(allowed);
  return (model) => set.has(model);
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value > 0)) {
    throw new RangeError(`createMessagesProxy: options.${name} must be a number > 0.`);
  }
  return value;
}

/**
 * A count option: its default when absent, else a whole number ≥ 1. `Number(env.X)` of an
 * unset variable is NaN, and a limit that quietly stops limiting must fail at creation.
 */
function wholeAtLeastOne<D extends number | undefined>(
  value: number | undefined,
  fallback: D,
  name: string,
): number | D {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value >= 1)) {
    throw new RangeError(`createMessagesProxy: options.${name} must be an integer ≥ 1.`);
  }
  return value;
}

function requestPolicy(options: MessagesProxyOptions): RequestPolicy {
  const mcpServers = options.allowedMcpServers ?? [];
  const fields = new Set(options.allowedFields ?? DEFAULT_FORWARDED_FIELDS);
  if (allowsMcp(mcpServers)) fields.add('mcp_servers');
  return {
    fields,
    serverTools: options.allowedServerTools ?? [],
    maxServerToolUses: wholeAtLeastOne(
      options.maxServerToolUses,
      DEFAULT_MAX_SERVER_TOOL_USES,
      'maxServerToolUses',
    ),
    mcpServers,
  };
}

const retryAfterHeaders = (ms: number | undefined): Record<string, string> =>
  ms === undefined || !Number.isFinite(ms) || ms < 0
    ? {}
    : { 'retry-after': String(Math.ceil(ms / 1000)), 'retry-after-ms': String(Math.ceil(ms)) };

/**
 * Creates the fetch handler. Throws (at creation, not per request) without an apiKey or
 * with an invalid limit.
 */
export function createMessagesProxy(
  options: MessagesProxyOptions,
): (request: Request) => Promise<Response> {
  if (typeof options?.apiKey !== 'string' || options.apiKey === '') {
    throw new TypeError('createMessagesProxy: options.apiKey is required.');
  }
  const endpoint = `${(options.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
  const version = options.anthropicVersion ?? DEFAULT_VERSION;
  const isAllowed = modelPredicate(options.allowedModels);
  const maxRequestBytes = positive(
    options.maxRequestBytes,
    DEFAULT_MAX_REQUEST_BYTES,
    'maxRequestBytes',
  );
  const policy = requestPolicy(options);
  const hostAllowed = hostCheck(options.allowedHosts);
  const maxTokens = wholeAtLeastOne(options.maxTokens, undefined, 'maxTokens');
  const secrets = [
    options.apiKey,
    ...Object.entries(options.headers ?? {})
      .filter(([name]) => SECRET_HEADERS.has(name.toLowerCase()))
      .flatMap(([, value]) => [value, value.replace(/^\s*\S+\s+/, '')])
      .filter((value) => value.length >= 8),
  ];
  const clientGone = () => new Response(null, { status: CLIENT_CLOSED_STATUS });

  /** The client request's checks up to the body; a response refuses it. */
  async function admit(request: Request): Promise<Response | undefined> {
    if (request.method !== 'POST') {
      return errorResponse(405, 'invalid_request_error', 'Only POST is allowed.', {
        allow: 'POST',
      });
    }
    const refusal =
      crossSiteReason(request, options.allowedOrigins) ?? hostRefusal(request, hostAllowed);
    if (refusal !== undefined) return errorResponse(403, 'permission_error', refusal);
    if (!isJsonContentType(request.headers)) {
      return errorResponse(
        415,
        'invalid_request_error',
        'The request body must be sent as content-type: application/json.',
      );
    }
    if (options.authorize && (await options.authorize(request)) !== true) {
      return errorResponse(401, 'authentication_error', 'This request is not authorized.');
    }
    if (options.rateLimit) {
      const decision = await options.rateLimit(request);
      if (decision?.allowed !== true) {
        return errorResponse(
          429,
          'rate_limit_error',
          'Too many requests through this proxy; try again later.',
          retryAfterHeaders(decision?.retryAfterMs),
        );
      }
    }
    if (declaredTooLarge(request.headers, maxRequestBytes)) return tooLarge();
    return undefined;
  }

  const tooLarge = () =>
    errorResponse(
      413,
      'request_too_large',
      `The request body is larger than this proxy accepts (${maxRequestBytes} bytes).`,
    );

  async function handle(request: Request): Promise<Response> {
    let refused: Response | undefined;
    try {
      refused = await admit(request);
    } catch (error) {
      discardBody(request);
      if (error instanceof ProxyRejection) return rejectionResponse(error);
      throw error;
    }
    if (refused) {
      discardBody(request);
      return refused;
    }

    const read = await readBodyWithin(request, maxRequestBytes);
    if (read.kind === 'too-large') return tooLarge();
    if (read.kind === 'unreadable') {
      if (request.signal.aborted) return clientGone();
      return errorResponse(400, 'invalid_request_error', 'The request body could not be read.');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      return errorResponse(400, 'invalid_request_error', 'The request body is not valid JSON.');
    }
    const checked = applyRequestPolicy(parsed, policy);
    if (!checked.ok) {
      return errorResponse(400, 'invalid_request_error', checked.violation.message);
    }
    let body = checked.body;

    if (!isAllowed(body.model)) {
      return errorResponse(
        403,
        'permission_error',
        `The model ${JSON.stringify(body.model)} is not available through this proxy.`,
      );
    }
    if (maxTokens !== undefined && body.max_tokens > maxTokens) {
      body = { ...body, max_tokens: maxTokens };
      // The API needs a thinking budget below max_tokens: lowered with it, the request would
      // go upstream only to be refused.
      const thinking = body.thinking as { type: string; budget_tokens?: unknown } | undefined;
      const budget = isPlainObject(thinking) ? thinking.budget_tokens : undefined;
      if (typeof budget === 'number' && budget >= maxTokens) {
        if (maxTokens <= MIN_THINKING_BUDGET) {
          return errorResponse(
            400,
            'invalid_request_error',
            `thinking needs max_tokens above ${MIN_THINKING_BUDGET}; this proxy allows at most ${maxTokens}.`,
          );
        }
        body = {
          ...body,
          thinking: { ...(thinking as { type: string }), budget_tokens: maxTokens - 1 },
        };
      }
    }
    if (options.transformRequest) {
      try {
        body = await options.transformRequest(body, request);
      } catch (error) {
        if (error instanceof ProxyRejection) return rejectionResponse(error);
        throw error;
      }
      if (!isPlainObject(body)) throw new TypeError('transformRequest returned no request body.');
    }

    const headers = new Headers();
    if (options.forwardBetaHeader) {
      const beta = request.headers.get('anthropic-beta');
      if (beta) headers.set('anthropic-beta', beta);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (name.toLowerCase() === 'anthropic-beta') headers.append(name, value);
      else headers.set(name, value);
    }
    headers.set('content-type', 'application/json');
    headers.set('anthropic-version', version);
    headers.set('x-api-key', options.apiKey);

    const upstreamFetch = options.fetch ?? fetch;
    let upstream: Response;
    try {
      upstream = await upstreamFetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: request.signal,
        // A redirect would carry the key (and on 307/308 the body) to wherever it points.
        redirect: 'manual',
      });
    } catch {
      if (request.signal.aborted) return clientGone();
      return errorResponse(502, 'api_error', 'The upstream Messages API could not be reached.');
    }
    return relay(upstream);
  }

  /** The upstream answer as the client gets it: allowed headers, scrubbed body. */
  async function relay(upstream: Response): Promise<Response> {
    const { status } = upstream;
    if (upstream.type === 'opaqueredirect' || (status >= 300 && status <= 399)) {
      await upstream.body?.cancel().catch(() => {});
      return errorResponse(
        502,
        'api_error',
        `The upstream answered with a redirect (${status || 'opaque'}); this proxy never follows redirects.`,
      );
    }
    const out = new Headers();
    upstream.headers.forEach((value, name) => {
      if (PASSTHROUGH_HEADERS.has(name) || name.startsWith(PASSTHROUGH_PREFIX)) {
        out.set(name, scrubText(value, secrets));
      }
    });
    if (/^\s*text\/event-stream/i.test(upstream.headers.get('content-type') ?? '')) {
      out.set('cache-control', 'no-cache');
      out.set('x-accel-buffering', 'no');
    }
    let responseBody = upstream.body;
    if (NULL_BODY_STATUSES.has(status) && responseBody) {
      await responseBody.cancel().catch(() => {});
      responseBody = null;
    }
    return new Response(responseBody?.pipeThrough(scrubStream(secrets)) ?? null, {
      status,
      headers: out,
    });
  }

  return async (request) => {
    try {
      return await handle(request);
    } catch {
      // Deliberately generic: whatever failed may carry configuration in its message.
      return errorResponse(500, 'api_error', 'The proxy failed unexpectedly.');
    }
  };
}
