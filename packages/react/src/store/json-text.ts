/**
 * JSON text of `value` that never throws on what JSON cannot hold: a BigInt is written as its
 * digits and a cycle as "[Circular]" (an object shared but not cyclic is written each time, as
 * JSON.stringify does). A tool's result is the app's own value; one that JSON.stringify
 * refused stopped every later save of the conversation.
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(jsonSafe(value, []));
  }
}

function jsonSafe(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value)) return '[Circular]';
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return jsonSafe(toJSON.call(value), ancestors);
  ancestors.push(value);
  const copy = Array.isArray(value)
    ? value.map((item) => jsonSafe(item, ancestors))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, jsonSafe(item, ancestors)]),
      );
  ancestors.pop();
  return copy;
}
