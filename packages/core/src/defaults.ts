/**
 * The kit's defaults, named once. Everything that needs one of these imports it from here,
 * so a default never differs between the transport, the store and the docs.
 */

/** Where `streamMessage` POSTs when no `endpoint` is given (same origin, so a proxy holds the key). */
export const DEFAULT_ENDPOINT = '/v1/messages';

/** No bytes for this long ends a stream as `interrupted` (resumable). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Tool round trips a chat runs on its own before it stops and asks (used by the react store). */
export const DEFAULT_MAX_TOOL_ROUNDTRIPS = 8;

/**
 * The longest delay `setTimeout` honours: past 2^31−1 ms it fires at once. A timeout or wait
 * longer than this is treated as "never" (a timeout) or refused (a retry wait).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `value` when it is a count or a wait (a number, 0 or more), else `fallback`: a NaN from an
 * unset env var (`Number(process.env.UNSET)`) or a negative keeps the default instead of
 * retrying without end or turning a timeout off.
 */
export const amountOr = (value: unknown, fallback: number): number =>
  typeof value === 'number' && value >= 0 ? value : fallback;
