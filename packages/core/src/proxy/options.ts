import type { MessageRequest } from '../protocol.js';
import type { HostRule, OriginRule } from './guard.js';
import type { RateLimitDecision } from './rate-limit.js';

/**
 * The Messages API's own request size limit, 32 MB (taken as 32 MiB, 33,554,432 bytes); a
 * larger body would be refused upstream with `413 request_too_large` anyway.
 */
export const DEFAULT_MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/**
 * Options of `createMessagesProxy`. Every protection is on by default and refuses what it
 * was not asked to allow; each option below says its default.
 */
export interface MessagesProxyOptions {
  /** Server-side secret; sent upstream as `x-api-key`, never echoed to the client. Required. */
  apiKey: string;
  /** Default `'https://api.anthropic.com'`; the handler POSTs to `${baseURL}/v1/messages`. */
  baseURL?: string;
  /** Default `'2023-06-01'`. */
  anthropicVersion?: string;

  // --- Who may call ----------------------------------------------------------------------

  /**
   * Origins (`'https://app.example.com'`) whose pages may call the proxy cross-site, or a
   * predicate on the `Origin` header. Default: none, so only same-origin pages (by
   * `Sec-Fetch-Site: same-origin`, or an `Origin` equal to the request URL's) and clients
   * without a browser (no `Origin` nor `Sec-Fetch-Site`: curl, servers) get through; any
   * other is answered 403 `permission_error`. Behind a reverse proxy that rewrites `Host`,
   * list your public origin here for browsers that do not send `Sec-Fetch-Site`.
   */
  allowedOrigins?: OriginRule;
  /**
   * Host names a browser page may reach the proxy under (the request's `Host`, port aside):
   * `['app.example.com']`, `'.example.com'` for a domain and its subdomains, a predicate, or
   * `true` for any (behind a server that checks `Host` itself). Default: only `localhost`
   * (and `*.localhost`) and IP addresses, so a deployed app lists its own name; others are
   * answered 403 `permission_error`. This stops DNS rebinding: a page on a name the attacker
   * controls that resolves to your machine passes a same-origin check, but not this one.
   * Requests with neither `Origin` nor `Sec-Fetch-Site` (curl, servers) are not checked; a
   * page's request without `Host` is refused. Names compare as the header does (case, punycode,
   * a trailing dot, the port aside); an entry with a scheme, port, path or `*` throws at creation.
   */
  allowedHosts?: HostRule;
  /**
   * The app's own check of who is calling (a session cookie, a bearer token), run before
   * the body is read. Return `false` to answer 401 `authentication_error`, or throw a
   * `ProxyRejection` to answer something else. Default: none (everyone who passes the
   * cross-site check may spend the key; set this for anything on the internet).
   */
  authorize?: (request: Request) => boolean | Promise<boolean>;
  /**
   * Per-client rate limit, run after `authorize` and before the body is read. Refusing
   * answers 429 `rate_limit_error` with `retry-after`. Default: none. See
   * `createTokenBucket` for an in-memory one.
   */
  rateLimit?: (request: Request) => RateLimitDecision | Promise<RateLimitDecision>;
  /**
   * The largest request body accepted, in bytes: a larger `content-length` is answered 413
   * `request_too_large` without reading the body, and a body that streams in past it is cut
   * off there (never buffered past the cap). Default `DEFAULT_MAX_REQUEST_BYTES` (32 MiB,
   * the API's own limit). `Infinity` turns the cap off; 0, a negative or NaN throws.
   */
  maxRequestBytes?: number;

  // --- What may be asked ------------------------------------------------------------------

  /** Models the browser may ask for; others get 403 `permission_error`. Default: any. */
  allowedModels?: readonly string[] | ((model: string) => boolean);
  /**
   * Caps `max_tokens`: a larger request is lowered to this (not rejected), and a thinking
   * budget with it (to one below; a cap of 1,024 or less refuses a request with thinking, which
   * needs more). Default: no cap.
   */
  maxTokens?: number;
  /**
   * The top-level request fields forwarded; any other is answered 400 naming it. Default
   * `DEFAULT_FORWARDED_FIELDS` (what the kit sends: model, max_tokens, messages, system,
   * tools, tool_choice, thinking, temperature, top_p, top_k, stop_sequences, metadata,
   * stream). `mcp_servers` is added when `allowedMcpServers` allows any.
   */
  allowedFields?: readonly string[];
  /**
   * Server tools (tools with a `type`, run by Anthropic: web search, web fetch, code
   * execution…) a request may use, by type: `'web_search'` allows every
   * `web_search_YYYYMMDD` version, `'web_search_20250305'` only that one; or a predicate on
   * the type. Others are answered 400. Default: none. Custom tools (with `input_schema`, no
   * `type`) and the Anthropic-defined tools the app runs itself (`bash_…`, `text_editor_…`,
   * `computer_…`, `memory_…`) are always allowed.
   */
  allowedServerTools?: readonly string[] | ((type: string) => boolean);
  /**
   * The most uses a server tool may have: a larger `max_uses` is lowered to this, and a
   * server tool without `max_uses` gets it (web search and web fetch, the tools that take it).
   * Default `DEFAULT_MAX_SERVER_TOOL_USES` (5).
   */
  maxServerToolUses?: number;
  /**
   * MCP server URLs a request may connect through `mcp_servers`, or a predicate on the URL.
   * Default: none (`mcp_servers` is refused).
   */
  allowedMcpServers?: readonly string[] | ((url: string) => boolean);
  /**
   * Headers added upstream (e.g. anthropic-beta, or `authorization` for a gateway; its
   * value is scrubbed from responses like the key). `x-api-key`, `anthropic-version` and
   * `content-type` are always the proxy's own. Client-sent `anthropic-beta` passes through
   * only if `forwardBetaHeader` is true (and is then combined with one given here).
   */
  headers?: Record<string, string>;
  /** Forward the client's `anthropic-beta` header. Default `false`. */
  forwardBetaHeader?: boolean;
  /**
   * Last look at (or change of) the request body before it is sent: add metadata.user_id,
   * force a system prompt, reject by throwing a ProxyRejection. It sees the body after the
   * request policy, the model allowlist and the max_tokens cap; what it returns is sent as
   * is (it is the server's own code, so the policy does not apply to it).
   */
  transformRequest?: (
    body: MessageRequest,
    request: Request,
  ) => MessageRequest | Promise<MessageRequest>;
  /**
   * Injectable upstream fetch (defaults to the global one). It is called with
   * `redirect: 'manual'`; a 3xx it returns is answered 502, never followed.
   */
  fetch?: typeof fetch;
}
