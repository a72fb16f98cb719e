/**
 * Fixture text as SSE framing sees it: a list of raw pieces, each one event (or one run of
 * comments) with its terminating blank line, so a replay can re-emit the bytes exactly and
 * still know where each event starts and what it is.
 */

/** One raw piece of an event stream: everything up to and including a blank line. */
export interface Segment {
  /** The exact text, line endings and terminating blank line included. */
  readonly text: string;
  /** It has a `data` field, so a decoder dispatches it as an event. */
  readonly isEvent: boolean;
  /** The `event:` name, or null. */
  readonly eventName: string | null;
  /** The `data` value (lines joined with `\n`), or null when there is none. */
  readonly data: string | null;
  /** `data` parsed, when it is a JSON object. */
  readonly json: Record<string, unknown> | undefined;
  /** The JSON `type`, else the `event:` name; null for a comment-only piece. */
  readonly type: string | null;
}

const LF = 10;
const CR = 13;

/**
 * Splits an event stream into segments. Lines end with CRLF, LF or CR (as in the WHATWG
 * algorithm); text after the last blank line (a body cut mid-event) is a final segment.
 */
export function splitSegments(text: string): Segment[] {
  return [...eachSegment(text)];
}

/**
 * The segments of an event stream one at a time, each made when asked for: a replay holds one
 * event at a time, not all of them (a 1 MB tool input is 65,000 events, some 14 MB as objects,
 * all alive for the whole reply).
 */
export function* eachSegment(text: string): Generator<Segment> {
  let segmentStart = 0;
  let lineStart = 0;
  let pos = 0;
  const length = text.length;
  // The next CR is remembered: searching for it afresh per line is quadratic on LF-only text.
  let cr = text.indexOf('\r');
  while (pos < length) {
    if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
    const lf = text.indexOf('\n', pos);
    const at = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
    if (at === -1) break;
    let end = at + 1;
    if (text.charCodeAt(at) === CR && text.charCodeAt(end) === LF) end++;
    if (at === lineStart) {
      yield segment(text.slice(segmentStart, end));
      segmentStart = end;
    }
    lineStart = end;
    pos = end;
  }
  if (segmentStart < length) yield segment(text.slice(segmentStart));
}

function segment(text: string): Segment {
  let eventName: string | null = null;
  let data: string[] | null = null;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '' || line.charCodeAt(0) === 58 /* : */) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') {
      data ??= [];
      data.push(value);
    }
  }
  const joined = data === null ? null : data.join('\n');
  let json: Record<string, unknown> | undefined;
  if (joined !== null) {
    try {
      const parsed: unknown = JSON.parse(joined);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        json = parsed as Record<string, unknown>;
      }
    } catch {
      json = undefined;
    }
  }
  const type = typeof json?.type === 'string' ? json.type : eventName;
  return { text, isEvent: joined !== null, eventName, data: joined, json, type };
}

/** What a fixture's header comments say, and the body after them. */
export interface FixtureHeader {
  readonly name?: string;
  readonly description?: string;
  /** Any other `: key: value` lines of the header. */
  readonly fields: Readonly<Record<string, string>>;
  /** The text after the header: what a server would send. */
  readonly body: string;
}

/**
 * Reads the header of a fixture: a first segment made only of comment lines (`: name: …`,
 * `: description: …`). A stream that opens with an event has no header.
 */
export function parseFixtureHeader(text: string): FixtureHeader {
  const match = /^(?:\uFEFF)?((?::[^\r\n]*(?:\r\n|\r|\n))+)(?:\r\n|\r|\n)/.exec(text);
  if (match === null) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of (match[1] as string).split(/\r\n|\r|\n/)) {
    const field = /^:\s*([\w-]+):\s?(.*)$/.exec(line);
    if (field) fields[field[1] as string] = field[2] as string;
  }
  const { name, description } = fields;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    fields,
    body: text.slice(match[0].length),
  };
}

/** One event as SSE text: `event: <type>` and one compact `data:` line. */
export const sseEvent = (data: Record<string, unknown> & { type: string }): string =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
