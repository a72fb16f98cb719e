/**
 * A non-null, non-array object: what a JSON object parses to. The kit's one such check; the
 * reducer, the resume merge, the proxy and the partial-JSON reader all use it.
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A string with something in it: the kit's one such check. */
export const isNonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value !== '';

/** What a caught value says: an Error's message, anything else as a string. */
export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

// Defined beside the parser, which must import nothing (see partial-json.ts).
export { setOwn } from './partial-json.js';
