/**
 * The request policy: which top-level fields, server tools and MCP servers a client may
 * send through the key, and the bounds its numbers must keep. Everything not listed is
 * refused with a 400 naming the field, never silently dropped (the client would otherwise
 * get an answer to a different request than the one it sent).
 */

import { isPlainObject } from '../object.js';
import type { MessageRequest } from '../protocol.js';

/**
 * The top-level fields the kit sends (`streamMessage`, resume, the React store), forwarded
 * by default. `mcp_servers` is added when `allowedMcpServers` allows any server.
 */
export const DEFAULT_FORWARDED_FIELDS: readonly string[] = Object.freeze([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'metadata',
  'stream',
]);

/** Default cap on a server tool's `max_uses` (also set on server tools that give none). */
export const DEFAULT_MAX_SERVER_TOOL_USES = 5;

export interface RequestPolicy {
  readonly fields: ReadonlySet<string>;
  readonly serverTools: readonly string[] | ((type: string) => boolean);
  readonly maxServerToolUses: number;
  readonly mcpServers: readonly string[] | ((url: string) => boolean);
}

/** A refused field: `field` is its path (`tools[1].max_uses`), `message` says why. */
export interface PolicyViolation {
  readonly field: string;
  readonly message: string;
}

interface Refusal {
  readonly ok: false;
  readonly violation: PolicyViolation;
}

export type PolicyResult = { readonly ok: true; readonly body: MessageRequest } | Refusal;

const refuse = (field: string, why: string): Refusal => ({
  ok: false,
  violation: { field, message: `${field}: ${why}` },
});

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

const inRange = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/**
 * Matches a versioned tool type against an entry: `web_search` allows `web_search_20250305`
 * (a family: the entry, `_`, then only a date), `web_search_20250305` only itself.
 */
function toolTypeAllowed(type: string, rule: RequestPolicy['serverTools']): boolean {
  if (typeof rule === 'function') return rule(type) === true;
  return rule.some(
    (entry) =>
      type === entry ||
      (type.startsWith(`${entry}_`) && /^\d+$/.test(type.slice(entry.length + 1))),
  );
}

function mcpUrlAllowed(url: string, rule: RequestPolicy['mcpServers']): boolean {
  if (typeof rule === 'function') return rule(url) === true;
  let normalized: string;
  try {
    normalized = new URL(url).href;
  } catch {
    return false;
  }
  return rule.some((entry) => {
    try {
      return new URL(entry).href === normalized;
    } catch {
      return false;
    }
  });
}

/** Whether any MCP server could pass: then `mcp_servers` is a forwarded field. */
export function allowsMcp(rule: RequestPolicy['mcpServers']): boolean {
  return typeof rule === 'function' || rule.length > 0;
}

/**
 * Anthropic-defined tools the app runs itself (bash, the text editor, computer use, memory):
 * Anthropic gives their schema, the client runs them, so they cost what a custom tool costs.
 */
const CLIENT_TOOL_TYPE = /^(?:bash|text_editor|computer|memory)_\d/;

/** A tool with a `type` other than `custom` runs on Anthropic's side (search, fetch, code). */
const isServerTool = (tool: Record<string, unknown>): boolean =>
  tool.type !== undefined &&
  tool.type !== 'custom' &&
  !(typeof tool.type === 'string' && CLIENT_TOOL_TYPE.test(tool.type));

/** The server tools whose definition takes `max_uses` (code execution takes none). */
const USE_LIMITED_TYPE = /^(?:web_search|web_fetch)(?:_|$)/;

function checkTools(
  tools: unknown,
  policy: RequestPolicy,
): Refusal | { readonly ok: true; readonly tools: unknown[] } {
  if (!Array.isArray(tools)) return refuse('tools', 'must be an array.');
  const out: unknown[] = [];
  for (const [i, tool] of tools.entries()) {
    const at = `tools[${i}]`;
    if (!isPlainObject(tool)) return refuse(at, 'must be an object.');
    if (!isServerTool(tool)) {
      out.push(tool);
      continue;
    }
    if (typeof tool.type !== 'string') return refuse(`${at}.type`, 'must be a string.');
    if (!toolTypeAllowed(tool.type, policy.serverTools)) {
      return refuse(
        `${at}.type`,
        `the server tool ${JSON.stringify(tool.type)} is not allowed by this proxy (allowedServerTools).`,
      );
    }
    if (!USE_LIMITED_TYPE.test(tool.type)) {
      out.push(tool);
      continue;
    }
    const uses = tool.max_uses;
    if (uses !== undefined && (!isInteger(uses) || uses < 1)) {
      return refuse(`${at}.max_uses`, 'must be a positive integer.');
    }
    const capped =
      uses === undefined ? policy.maxServerToolUses : Math.min(uses, policy.maxServerToolUses);
    out.push(capped === uses ? tool : { ...tool, max_uses: capped });
  }
  return { ok: true, tools: out };
}

function checkMcpServers(servers: unknown, policy: RequestPolicy): Refusal | undefined {
  if (!Array.isArray(servers)) return refuse('mcp_servers', 'must be an array.');
  for (const [i, server] of servers.entries()) {
    const at = `mcp_servers[${i}]`;
    if (!isPlainObject(server)) return refuse(at, 'must be an object.');
    if (typeof server.url !== 'string') return refuse(`${at}.url`, 'must be a string.');
    if (!mcpUrlAllowed(server.url, policy.mcpServers)) {
      return refuse(
        `${at}.url`,
        `the MCP server ${JSON.stringify(server.url)} is not allowed by this proxy (allowedMcpServers).`,
      );
    }
  }
  return undefined;
}

/** Type and range checks of the fields the API bounds, before the key is spent on them. */
function checkValues(body: Record<string, unknown>): Refusal | undefined {
  if (typeof body.model !== 'string' || body.model === '') {
    return refuse('model', 'a non-empty string is required.');
  }
  if (!Array.isArray(body.messages)) return refuse('messages', 'an array is required.');
  if (!isInteger(body.max_tokens) || body.max_tokens < 1) {
    return refuse('max_tokens', 'a positive integer is required.');
  }
  const { system, temperature, top_p, top_k, stop_sequences, stream, metadata } = body;
  if (system !== undefined && typeof system !== 'string' && !Array.isArray(system)) {
    return refuse('system', 'must be a string or an array of text blocks.');
  }
  if (temperature !== undefined && !inRange(temperature, 0, 1)) {
    return refuse('temperature', 'must be a number from 0 to 1.');
  }
  if (top_p !== undefined && !inRange(top_p, 0, 1)) {
    return refuse('top_p', 'must be a number from 0 to 1.');
  }
  if (top_k !== undefined && (!isInteger(top_k) || top_k < 0)) {
    return refuse('top_k', 'must be a non-negative integer.');
  }
  if (
    stop_sequences !== undefined &&
    (!Array.isArray(stop_sequences) || !stop_sequences.every((s) => typeof s === 'string'))
  ) {
    return refuse('stop_sequences', 'must be an array of strings.');
  }
  if (stream !== undefined && typeof stream !== 'boolean') {
    return refuse('stream', 'must be a boolean.');
  }
  if (metadata !== undefined && !isPlainObject(metadata)) {
    return refuse('metadata', 'must be an object.');
  }
  for (const name of ['tool_choice', 'thinking'] as const) {
    const value = body[name];
    if (value === undefined) continue;
    if (!isPlainObject(value) || typeof value.type !== 'string') {
      return refuse(name, 'must be an object with a string type.');
    }
  }
  if (isPlainObject(body.thinking) && body.thinking.budget_tokens !== undefined) {
    const budget = body.thinking.budget_tokens;
    if (!isInteger(budget) || budget < 1) {
      return refuse('thinking.budget_tokens', 'must be a positive integer.');
    }
  }
  return undefined;
}

/**
 * Checks a parsed body against the policy. Returns the body to forward (server tools'
 * `max_uses` capped) or the first violation. Never throws for any JSON value; a throwing
 * predicate in the policy does throw (the handler answers 500).
 */
export function applyRequestPolicy(parsed: unknown, policy: RequestPolicy): PolicyResult {
  if (!isPlainObject(parsed)) return refuse('body', 'the request body must be a JSON object.');
  for (const name of Object.keys(parsed)) {
    if (!policy.fields.has(name)) {
      return refuse(name, 'this field is not forwarded by this proxy (allowedFields).');
    }
  }
  const invalid = checkValues(parsed);
  if (invalid) return invalid;
  let body = parsed;
  if (parsed.tools !== undefined) {
    const checked = checkTools(parsed.tools, policy);
    if (!checked.ok) return checked;
    body = { ...body, tools: checked.tools };
  }
  if (parsed.mcp_servers !== undefined) {
    const refused = checkMcpServers(parsed.mcp_servers, policy);
    if (refused) return refused;
  }
  return { ok: true, body: body as MessageRequest };
}
