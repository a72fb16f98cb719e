/**
 * A non-null, non-array object: what a JSON object parses to. The kit's one such check; the
 * reducer, the resume merge, the proxy and the partial-JSON reader all use it.
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `target[key] = value` as `JSON.parse` would set it: `__proto__` becomes an own data
 * property instead of calling the inherited setter (which would swap the prototype).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}
