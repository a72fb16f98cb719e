/**
 * Display text for values from the wire. Blocks, tool inputs and results are untrusted and can
 * have any shape (a newer API, a proxy, a bug): these never throw, and always return a string,
 * which React renders as text.
 */

/** Core's one plain-object check, for the parts that read wire values. */
export { isPlainObject } from '@message-stream/core';

/** A wire value's field, or `undefined` when reading it throws (a hostile getter). */
export function readKey(record: Record<string, unknown>, key: string): unknown {
  try {
    return record[key];
  } catch {
    return undefined;
  }
}

/** The value if it is a non-empty string, else `undefined`. */
export function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * JSON for display, indented by `indent` (2 by default). Never throws: circular values,
 * BigInts and throwing getters fall back to a best-effort string.
 */
export function toJson(value: unknown, indent: number | undefined = 2): string {
  if (value === undefined) return '';
  try {
    const seen = new WeakSet<object>();
    const json = JSON.stringify(
      value,
      (_key, v: unknown) => {
        if (typeof v === 'bigint') return `${v.toString()}n`;
        if (v !== null && typeof v === 'object') {
          if (seen.has(v)) return '[Circular]';
          seen.add(v);
        }
        return v;
      },
      indent,
    );
    return json ?? toText(value);
  } catch {
    return toText(value);
  }
}

/** Any value as text: strings as they are, everything else through `String`, safely. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
