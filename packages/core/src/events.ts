/**
 * Event typing: one SSE message (its `event:` name and `data:` text) to a typed
 * {@link StreamEvent}. Bad input never throws: it becomes an `invalid_event` that keeps the
 * raw text, so the consumer sees what arrived instead of a crash mid-stream.
 */

import { errorText } from './object.js';
import type { InvalidEvent, MessageStreamEvent, StreamEvent } from './protocol.js';

function invalid(event: string | null, data: string, reason: string): InvalidEvent {
  return { type: 'invalid_event', event, data, reason };
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Turns one SSE message (event name or null, data text) into a typed event (the decoder in
 * `sse.ts` calls it for each message it frames).
 *
 * When the `event:` name and the JSON `type` disagree, the JSON `type` wins: it is what
 * the payload says it is, and gateways are known to omit or rewrite the SSE name while
 * passing the body through untouched. The name is only a fallback for a payload that
 * carries no `type` of its own.
 */
export function toStreamEvent(eventName: string | null, data: string): StreamEvent {
  const delta = parseCompactDelta(data);
  if (delta !== undefined) return delta;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    const message = errorText(error);
    return invalid(eventName, data, `data is not valid JSON: ${message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return invalid(eventName, data, `data is ${describeJson(parsed)}, not a JSON object`);
  }
  const object = parsed as Record<string, unknown>;
  let type = object.type;
  if (typeof type !== 'string') {
    if (eventName === null) return invalid(eventName, data, 'event has no type');
    // The object is freshly parsed and ours alone, so naming it in place loses nothing.
    object.type = eventName;
    type = eventName;
  }
  switch (type) {
    case 'content_block_delta':
    case 'message_start':
    case 'content_block_start':
    case 'content_block_stop':
    case 'message_delta':
    case 'message_stop':
    case 'ping':
    case 'error':
      // Inner shape is the reducer's to validate; copying here would only cost time.
      return object as unknown as MessageStreamEvent;
    default:
      return { type: 'unknown_event', event: eventName, data: object };
  }
}

const DELTA_PREFIX = '{"type":"content_block_delta","index":';

/**
 * `text.startsWith(part, at)`, in a form V8 runs faster on stream text, without allocating
 * (a search backwards from `at` matches there first, and otherwise scans at most `at`
 * characters). The decode rows of `pnpm bench` (bench/src/pipeline.ts) measure the effect.
 */
export const hasAt = (text: string, at: number, part: string): boolean =>
  text.lastIndexOf(part, at) === at;
/** The delta types worth a fast path, by the text between the index and the string value. */
const DELTA_SHAPES = [
  { head: ',"delta":{"type":"text_delta","text":', key: 0x65, field: 'text' },
  {
    head: ',"delta":{"type":"input_json_delta","partial_json":',
    key: 0x6e,
    field: 'partial_json',
  },
  { head: ',"delta":{"type":"thinking_delta","thinking":', key: 0x68, field: 'thinking' },
] as const;

/**
 * Deltas are nearly every event of a stream, and the API writes them in one compact
 * layout. For exactly that layout the envelope is matched as text and only the string value
 * goes through JSON.parse, which spares parsing and allocating the envelope per event.
 * Anything else (other key order, spacing, extra keys, a string that is not one literal)
 * returns undefined and takes the general path, so the result always equals JSON.parse's.
 */
function parseCompactDelta(data: string): StreamEvent | undefined {
  if (!hasAt(data, 0, DELTA_PREFIX)) return undefined;
  let pos = DELTA_PREFIX.length;
  const first = data.charCodeAt(pos);
  if (first < 48 || first > 57) return undefined;
  let index = first - 48;
  pos++;
  if (first !== 48) {
    for (let c = data.charCodeAt(pos); c >= 48 && c <= 57; c = data.charCodeAt(++pos)) {
      index = index * 10 + (c - 48);
    }
  }
  if (index > Number.MAX_SAFE_INTEGER) return undefined;
  // The second letter of the delta type tells the shapes apart (t[e]xt, t[h]inking,
  // i[n]put_json), so only one of them is compared.
  const shape = DELTA_SHAPES.find((s) => s.key === data.charCodeAt(pos + 19));
  if (shape !== undefined && hasAt(data, pos, shape.head)) {
    const from = pos + shape.head.length;
    const to = data.length - 2;
    if (data.charCodeAt(from) !== 34 /* " */ || !hasAt(data, to - 1, '"}}') || to <= from)
      return undefined;
    let value: unknown;
    try {
      // Succeeds only if the slice is one string literal, i.e. the whole data is exactly
      // the compact layout.
      value = JSON.parse(data.slice(from, to));
    } catch {
      return undefined;
    }
    if (typeof value !== 'string') return undefined;
    return shape.field === 'text'
      ? { type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } }
      : shape.field === 'partial_json'
        ? {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: value },
          }
        : {
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking: value },
          };
  }
  return undefined;
}

/**
 * An event dispatched only because the stream ended: if its data is not readable, the
 * likely reason is that the stream was cut inside it, and the diagnostic says so.
 */
export function asLastEvent(event: StreamEvent): StreamEvent {
  if (event.type === 'invalid_event') {
    event.reason = `stream truncated in this event: ${event.reason}`;
  }
  return event;
}
