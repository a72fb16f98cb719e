import type { MessageRequest } from './protocol.js';

/**
 * The JSON of each frozen message, by object. A conversation's history goes out again with
 * every message, and stringifying a thousand turns on each send was tens of milliseconds of
 * one task; a frozen message object (the React store freezes the ones it builds) is read once.
 * A frozen message must not change underneath either (its nested content included).
 */
const messageJson = new WeakMap<object, string>();

function jsonOfMessage(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || !Object.isFrozen(message)) {
    return JSON.stringify(message);
  }
  let json = messageJson.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    if (json !== undefined) messageJson.set(message, json);
  }
  return json;
}

/**
 * Serializes frozen messages now, so a later request that sends them reuses their JSON: a
 * client can do it in idle time for a long history it restored, instead of in the first
 * send's task. Messages that are not frozen are skipped (they are serialized per request).
 * Throws what `JSON.stringify` throws (a cycle, a BigInt); the request would fail the same way.
 */
export function prepareMessagesJson(messages: readonly unknown[]): void {
  for (const message of messages) {
    if (message !== null && typeof message === 'object' && Object.isFrozen(message))
      jsonOfMessage(message);
  }
}

const hasToJson = (value: unknown): boolean =>
  typeof (value as { toJSON?: unknown } | null)?.toJSON === 'function';

/**
 * `JSON.stringify({ ...request, stream: true })`, the same string, with frozen messages
 * serialized once (see `messageJson`). Throws what `JSON.stringify` throws (a cycle, a BigInt).
 * Joined once from its pieces: wrapping the joined messages in brackets and joining again
 * copied a thousand turns' megabyte twice more.
 */
export function requestBody(request: MessageRequest): string {
  const body: Record<string, unknown> = { ...request, stream: true };
  const messages = body.messages;
  if (!Array.isArray(messages) || hasToJson(request) || hasToJson(messages)) {
    return JSON.stringify(body);
  }
  const parts: string[] = ['{'];
  for (const key of Object.keys(body)) {
    if (key === 'messages') {
      parts.push(parts.length > 1 ? ',"messages":[' : '"messages":[');
      // By index, not map: a hole is `null` in JSON, as an undefined or a function entry is.
      for (let i = 0; i < messages.length; i++) {
        if (i > 0) parts.push(',');
        parts.push(jsonOfMessage(messages[i]) ?? 'null');
      }
      parts.push(']');
      continue;
    }
    const value = JSON.stringify(body[key]);
    // As JSON.stringify does: a property whose value has no JSON (undefined, a function) is left out.
    if (value !== undefined)
      parts.push(`${parts.length > 1 ? ',' : ''}${JSON.stringify(key)}:${value}`);
  }
  parts.push('}');
  return parts.join('');
}
