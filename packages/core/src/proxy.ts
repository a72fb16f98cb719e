/**
 * A server-side proxy for the Messages API, so a browser can stream a response without
 * ever holding the API key, and so only the app's own pages, users and requests can spend
 * it (see `MessagesProxyOptions`: every protection is on by default).
 *
 * `createMessagesProxy` is a standard fetch handler (`(Request) => Promise<Response>`) for
 * Next.js route handlers, Hono, Deno, Bun and Cloudflare; `toNodeHandler` adapts it to
 * `node:http`. The module uses only web globals at runtime (`node:http` is imported for
 * types only), so it stays importable in edge runtimes.
 *
 * The upstream body, success or error, is streamed through as it arrives: the proxy never
 * buffers, parses or re-encodes it; it only replaces the key if the upstream echoes it.
 */
export { ProxyRejection } from './proxy/errors.js';
export type { HostRule, OriginRule } from './proxy/guard.js';
export { createMessagesProxy } from './proxy/handler.js';
export { toNodeHandler } from './proxy/node.js';
export { DEFAULT_MAX_REQUEST_BYTES, type MessagesProxyOptions } from './proxy/options.js';
export { DEFAULT_FORWARDED_FIELDS, DEFAULT_MAX_SERVER_TOOL_USES } from './proxy/policy.js';
export {
  createTokenBucket,
  type RateLimitDecision,
  type TokenBucket,
  type TokenBucketOptions,
} from './proxy/rate-limit.js';
