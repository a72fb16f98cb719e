import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { decodeEventStream } from '../src/decode.js';
import { toStreamEvent } from '../src/events.js';
import type { StreamEvent } from '../src/protocol.js';
import { EventStreamDecoder, MAX_SSE_EVENT_CHARS } from '../src/sse.js';

const encoder = new TextEncoder();
const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** Decodes the chunks with one decoder, including the final flush. */
function decodeChunks(chunks: ReadonlyArray<Uint8Array | string>): StreamEvent[] {
  const decoder = new EventStreamDecoder();
  const events: StreamEvent[] = [];
  for (const chunk of chunks) events.push(...decoder.push(chunk));
  events.push(...decoder.end());
  return events;
}

const decodeText = (text: string): StreamEvent[] => decodeChunks([text]);

/** Cuts `whole` at the given offsets (any order, duplicates allowed). */
function cut<T extends Uint8Array | string>(whole: T, offsets: readonly number[]): T[] {
  const points = [...new Set(offsets)].sort((a, b) => a - b);
  const pieces: T[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(whole.slice(from, point) as T);
    from = point;
  }
  pieces.push(whole.slice(from) as T);
  return pieces;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const withLineEnding = (text: string, eol: string): string => text.replace(/\n/g, eol);

// --- Streams taken from the spec examples -------------------------------------------

/** "Basic streaming request" response, streaming-messages-guide.txt. */
const BASIC = `event: message_start
data: {"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-opus-5", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}

event: content_block_start
data: {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}}

event: content_block_stop
data: {"type": "content_block_stop", "index": 0}

event: message_delta
data: {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}

event: message_stop
data: {"type": "message_stop"}

`;

/** Gateway tool-use response (keys in another order), gateway-event-sequence.txt. */
const GATEWAY_TOOL = `event: ping
data: {"type":"ping"}

event: content_block_start
data: {"index":0,"type":"content_block_start","content_block":{"id":"toolu_01PGo2evEeMN4XS8geMjN7Vs","input":{},"name":"get_weather","type":"tool_use"}}

event: ping
data: {"type":"ping"}

event: content_block_delta
data: {"index":0,"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"index":0,"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"{\\"city\\": "}}

event: content_block_delta
data: {"index":0,"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"\\"Taipe"}}

event: content_block_delta
data: {"index":0,"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"i\\"}"}}

event: content_block_stop
data: {"index":0,"type":"content_block_stop"}

event: message_delta
data: {"type":"message_delta","usage":{"input_tokens":672,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":39},"delta":{"stop_sequence":null,"stop_reason":"tool_use"}}

`;

/** Thinking, multi-byte text, an unknown event, a comment and an error event. */
const UNICODE = `: keep-alive comment
event: message_start
data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-opus-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":9,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "1071 = 2 × 462 + 147"}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"café 日本 😀"}}

event: brand_new_event
data: {"type":"brand_new_event","payload":{"note":"naïve"}}

event: error
data: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}

`;

const SPEC_STREAMS = { BASIC, GATEWAY_TOOL, UNICODE } as const;

/** The first example of stream-events-reference.txt, verbatim: pretty-printed JSON. */
const PRETTY_PRINTED = `event: message_start
data: {
"type": "message_start",
"message": {
"id": "msg_4b71d12c86d94e719c7e3984a7bb7941",
"type": "message",
"role": "assistant",
"content": [],
"stop_reason": null,
"stop_sequence": null,
"usage": { "input_tokens": 0, "output_tokens": 0, "cache_read_input_tokens": 0 }
}
}
event: content_block_start
data: {
"type": "content_block_start",
"index": 0,
"content_block": { "type": "text", "text": "" }
}
event: content_block_delta
data: {
"type": "content_block_delta",
"index": 0,
"delta": { "type": "text_delta", "text": "Hello" }
}
event: content_block_delta
data: {
"type": "content_block_delta",
"index": 0,
"delta": { "type": "text_delta", "text": ", how can I help?" }
}
event: content_block_stop
data: { "type": "content_block_stop", "index": 0 }
event: message_delta
data: {
"type": "message_delta",
"delta": { "stop_reason": "end_turn", "stop_sequence": null },
"usage": { "output_tokens": 11 }
}
event: message_stop
data: { "type": "message_stop" }
`;

/** The event objects each spec stream's data lines describe, parsed independently. */
function expectedEvents(stream: string): unknown[] {
  return stream
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => {
      const object = JSON.parse(line.slice(6)) as { type: string };
      return object.type === 'brand_new_event'
        ? { type: 'unknown_event', event: 'brand_new_event', data: object }
        : object;
    });
}

/** What the decoder reports, once a stream, for bytes that are not UTF-8. */
const NOT_UTF8 = {
  type: 'invalid_event',
  event: null,
  data: '',
  reason: 'bytes that are not UTF-8 were read as U+FFFD',
};

describe('toStreamEvent', () => {
  it('returns a known event as the parsed object, keys in any order', () => {
    const data =
      '{"index":0,"delta":{"text":"hi","type":"text_delta"},"type":"content_block_delta"}';
    expect(toStreamEvent('content_block_delta', data)).toEqual(JSON.parse(data));
  });

  it('recognises every known event type', () => {
    for (const type of [
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
      'ping',
      'error',
    ]) {
      expect(toStreamEvent(null, JSON.stringify({ type, x: 1 }))).toEqual({ type, x: 1 });
    }
  });

  it('types an event without an event name by its JSON type', () => {
    expect(toStreamEvent(null, '{"type":"message_stop"}')).toEqual({ type: 'message_stop' });
  });

  it('lets the JSON type win when the event name disagrees', () => {
    expect(toStreamEvent('ping', '{"type":"message_stop"}')).toEqual({ type: 'message_stop' });
    expect(toStreamEvent('message_stop', '{"type":"something_new"}')).toEqual({
      type: 'unknown_event',
      event: 'message_stop',
      data: { type: 'something_new' },
    });
  });

  it('takes the type from the event name when the JSON has no string type', () => {
    expect(toStreamEvent('ping', '{}')).toEqual({ type: 'ping' });
    expect(toStreamEvent('message_stop', '{"type":5}')).toEqual({ type: 'message_stop' });
    expect(toStreamEvent('novel', '{"a":1}')).toEqual({
      type: 'unknown_event',
      event: 'novel',
      data: { a: 1, type: 'novel' },
    });
  });

  it('reports an object with neither JSON type nor event name as invalid', () => {
    expect(toStreamEvent(null, '{"a":1}')).toEqual({
      type: 'invalid_event',
      event: null,
      data: '{"a":1}',
      reason: 'event has no type',
    });
  });

  it('keeps an unknown event type whole as unknown_event', () => {
    const data = '{"type":"server_tool_progress","index":3,"detail":{"pct":50}}';
    expect(toStreamEvent('server_tool_progress', data)).toEqual({
      type: 'unknown_event',
      event: 'server_tool_progress',
      data: JSON.parse(data),
    });
  });

  it('does not let a payload pose as an invalid_event or unknown_event', () => {
    const data = '{"type":"invalid_event","reason":"forged"}';
    expect(toStreamEvent(null, data)).toEqual({
      type: 'unknown_event',
      event: null,
      data: JSON.parse(data),
    });
  });

  it('reports invalid JSON with the raw data and the JSON error message', () => {
    const data = '{"type":"ping",';
    let message = '';
    try {
      JSON.parse(data);
    } catch (error) {
      message = (error as Error).message;
    }
    const event = toStreamEvent('ping', data);
    expect(event).toMatchObject({ type: 'invalid_event', event: 'ping', data });
    expect(event.type === 'invalid_event' && event.reason).toContain(message);
  });

  it.each([
    ['42', 'number'],
    ['"x"', 'string'],
    ['[1]', 'array'],
    ['null', 'null'],
    ['true', 'boolean'],
  ])('reports non-object JSON %s as invalid', (data, kind) => {
    const event = toStreamEvent('ping', data);
    expect(event).toMatchObject({ type: 'invalid_event', event: 'ping', data });
    expect(event.type === 'invalid_event' && event.reason).toContain(kind);
  });
});

describe('EventStreamDecoder framing', () => {
  const lines = 'event: ping\ndata: {"type":"ping"}\n\ndata: {"type":"message_stop"}\n\n';
  const expected = [{ type: 'ping' }, { type: 'message_stop' }];

  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('splits lines on %s', (_name, eol) => {
    expect(decodeText(withLineEnding(lines, eol))).toEqual(expected);
  });

  it('splits lines on a mix of LF, CR and CRLF', () => {
    const mixed = 'event: ping\r\ndata: {"type":"ping"}\r\rdata: {"type":"message_stop"}\n\r\n';
    expect(decodeText(mixed)).toEqual(expected);
  });

  it('treats CR at the end of a chunk and LF at the start of the next as one line end', () => {
    // Two data lines of one event: an extra blank line would split it into two invalid events.
    const chunks = ['data: {"type":"ping",\r', '\ndata: "n":1}\r', '\n\r', '\n'];
    expect(decodeChunks(chunks)).toEqual([{ type: 'ping', n: 1 }]);
    expect(decodeChunks(chunks.map(utf8))).toEqual([{ type: 'ping', n: 1 }]);
  });

  it('remembers a trailing CR across empty chunks', () => {
    const chunks = ['data: {"type":"ping",\r', '', new Uint8Array(0), '\ndata: "n":1}\n\n'];
    expect(decodeChunks(chunks)).toEqual([{ type: 'ping', n: 1 }]);
  });

  it('treats CR at the end of a chunk followed by CR as a line end and a blank line', () => {
    expect(
      decodeChunks(['data: {"type":"ping"}\r', '\rdata: {"type":"message_stop"}\r\r']),
    ).toEqual(expected);
  });

  it('ignores comment lines, including between data lines', () => {
    const text = ':\n: hello\ndata: {"type":\n:comment: with colons\ndata: "ping"}\n\n';
    expect(decodeText(text)).toEqual([{ type: 'ping' }]);
  });

  it('joins several data lines with LF', () => {
    expect(decodeText('event: x\ndata: a\ndata:b\ndata\ndata:  c\n\n')).toEqual([
      expect.objectContaining({ type: 'invalid_event', event: 'x', data: 'a\nb\n\n c' }),
    ]);
    expect(
      decodeText('data: {"type":"content_block_delta",\ndata: "index":0,\ndata: "delta":{}}\n\n'),
    ).toEqual([{ type: 'content_block_delta', index: 0, delta: {} }]);
  });

  it('reads pretty-printed JSON (continuation lines without data:) as invalid, per WHATWG', () => {
    // Continuation lines are fields named e.g. `"type"` and are ignored; the example has no
    // blank lines either, so it is one event whose data is the `data:` lines alone.
    const events = decodeText(PRETTY_PRINTED);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'invalid_event',
      event: 'message_stop',
      data: '{\n{\n{\n{\n{ "type": "content_block_stop", "index": 0 }\n{\n{ "type": "message_stop" }',
    });
  });

  it('reads pretty-printed events separated by blank lines as invalid, one by one', () => {
    const separated = PRETTY_PRINTED.replace(/\nevent: /g, '\n\nevent: ');
    expect(decodeText(separated)).toEqual([
      { type: 'invalid_event', event: 'message_start', data: '{', reason: expect.any(String) },
      {
        type: 'invalid_event',
        event: 'content_block_start',
        data: '{',
        reason: expect.any(String),
      },
      {
        type: 'invalid_event',
        event: 'content_block_delta',
        data: '{',
        reason: expect.any(String),
      },
      {
        type: 'invalid_event',
        event: 'content_block_delta',
        data: '{',
        reason: expect.any(String),
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'invalid_event', event: 'message_delta', data: '{', reason: expect.any(String) },
      { type: 'message_stop' },
    ]);
  });

  it('removes only one space after the colon', () => {
    expect(decodeText('data:{"type":"ping"}\n\ndata:  "x"\n\n')).toEqual([
      { type: 'ping' },
      expect.objectContaining({ type: 'invalid_event', data: ' "x"' }),
    ]);
  });

  it('ignores a leading BOM given as bytes, also split across chunks', () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('data: {"type":"ping"}\n\n')]);
    expect(decodeChunks([body])).toEqual([{ type: 'ping' }]);
    expect(decodeChunks([body.slice(0, 1), body.slice(1, 2), body.slice(2)])).toEqual([
      { type: 'ping' },
    ]);
  });

  it('ignores a leading BOM given as a string, also after empty chunks', () => {
    expect(decodeText('\uFEFFdata: {"type":"ping"}\n\n')).toEqual([{ type: 'ping' }]);
    expect(decodeChunks(['', new Uint8Array(0), '\uFEFFdata: {"type":"ping"}\n\n'])).toEqual([
      { type: 'ping' },
    ]);
  });

  it('keeps a BOM that is not at the very start of the stream', () => {
    // A second BOM makes the first line a field named "\uFEFFevent": ignored.
    expect(decodeText('\uFEFF\uFEFFevent: x\ndata: {"type":"ping"}\n\n')).toEqual([
      { type: 'ping' },
    ]);
    // A BOM opening a later line hides its field; one inside a value is data.
    expect(decodeText('data: {"type":"ping"}\n\n\uFEFFdata: {"type":"ping"}\n\n')).toEqual([
      { type: 'ping' },
    ]);
    expect(decodeText('data: {"type":"x\uFEFF"}\n\n')).toEqual([
      { type: 'unknown_event', event: null, data: { type: 'x\uFEFF' } },
    ]);
    expect(decodeChunks(['data: {"type":"ping"}\n\n', '\uFEFFevent: a\n\n'])).toEqual([
      { type: 'ping' },
    ]);
  });

  it('ignores id, retry and unknown fields', () => {
    const text =
      'id: 7\nretry: 1000\nevent: ping\nfoo: bar\nid\ndata: {"type":"ping"}\n\nid: 8\nretry: 5\n\n';
    expect(decodeText(text)).toEqual([{ type: 'ping' }]);
  });

  it('types an event without an event: line by its JSON type', () => {
    expect(decodeText('data: {"type":"content_block_stop","index":2}\n\n')).toEqual([
      { type: 'content_block_stop', index: 2 },
    ]);
  });

  it('forgets the event name at every blank line, dispatched or not', () => {
    expect(decodeText('event: ping\ndata: {}\n\ndata: {}\n\nevent: ping\n\ndata: {}\n\n')).toEqual([
      { type: 'ping' },
      { type: 'invalid_event', event: null, data: '{}', reason: 'event has no type' },
      { type: 'invalid_event', event: null, data: '{}', reason: 'event has no type' },
    ]);
  });

  it('treats an empty event name as no name', () => {
    expect(decodeText('event:\ndata: {}\n\nevent\ndata: {}\n\n')).toEqual([
      { type: 'invalid_event', event: null, data: '{}', reason: 'event has no type' },
      { type: 'invalid_event', event: null, data: '{}', reason: 'event has no type' },
    ]);
  });

  it('keeps an unknown event with its whole data', () => {
    expect(
      decodeText('event: brand_new\ndata: {"type":"brand_new","deep":{"a":[1,2]}}\n\n'),
    ).toEqual([
      {
        type: 'unknown_event',
        event: 'brand_new',
        data: { type: 'brand_new', deep: { a: [1, 2] } },
      },
    ]);
  });

  it('reports invalid JSON as invalid_event with the raw data and a reason', () => {
    const [event] = decodeText('event: content_block_delta\ndata: {"type": nope}\n\n');
    expect(event).toMatchObject({
      type: 'invalid_event',
      event: 'content_block_delta',
      data: '{"type": nope}',
    });
    expect(event?.type === 'invalid_event' && event.reason).toMatch(/not valid JSON/);
  });

  it.each(['42', '"x"', '[1]'])('reports non-object data %s as invalid_event', (data) => {
    expect(decodeText(`event: ping\ndata: ${data}\n\n`)).toEqual([
      {
        type: 'invalid_event',
        event: 'ping',
        data,
        reason: expect.stringMatching(/not a JSON object/),
      },
    ]);
  });

  it('dispatches nothing for blank lines only, events without data, or an empty body', () => {
    expect(decodeText('')).toEqual([]);
    expect(decodeText('\n\n\r\n\r\r\n')).toEqual([]);
    expect(decodeText('event: ping\n\nid: 1\n\n: comment\n\n')).toEqual([]);
  });

  it('dispatches a data line with an empty value (data is then "")', () => {
    expect(decodeText('event: ping\ndata:\n\n')).toEqual([
      { type: 'invalid_event', event: 'ping', data: '', reason: expect.any(String) },
    ]);
  });

  describe('end of stream', () => {
    it('dispatches a final event with complete JSON but no blank line', () => {
      expect(decodeText('event: message_stop\ndata: {"type":"message_stop"}')).toEqual([
        { type: 'message_stop' },
      ]);
      expect(decodeText('data: {"type":"message_stop"}\r\n')).toEqual([{ type: 'message_stop' }]);
      expect(decodeText('data: {"type":"message_stop"}\r')).toEqual([{ type: 'message_stop' }]);
    });

    it('reports a final event cut off mid-JSON as truncated', () => {
      const events = decodeChunks([
        'data: {"type":"ping"}\n\n',
        'event: content_block_delta\ndata: {"ty',
      ]);
      expect(events).toEqual([
        { type: 'ping' },
        {
          type: 'invalid_event',
          event: 'content_block_delta',
          data: '{"ty',
          reason: expect.stringMatching(/truncated/),
        },
      ]);
    });

    it('reports a final event cut off inside a multi-byte character as truncated', () => {
      const bytes = utf8('data: {"type":"ping","t":"é');
      const events = decodeChunks([bytes.slice(0, bytes.length - 1)]);
      expect(events).toEqual([
        {
          type: 'invalid_event',
          event: null,
          data: '{"type":"ping","t":"\uFFFD',
          reason: expect.stringMatching(/truncated/),
        },
        NOT_UTF8,
      ]);
    });

    it('dispatches nothing for a final comment, field or event name without data', () => {
      expect(decodeText('data: {"type":"ping"}\n\n: bye')).toEqual([{ type: 'ping' }]);
      expect(decodeText('data: {"type":"ping"}\n\nevent: message_st')).toEqual([{ type: 'ping' }]);
    });

    it('leaves the decoder ready for another stream', () => {
      const decoder = new EventStreamDecoder();
      expect(decoder.push('event: ping\ndata: {"a":')).toEqual([]);
      expect(decoder.end()).toHaveLength(1);
      expect(decoder.push('\uFEFFdata: {}\n\n')).toEqual([
        { type: 'invalid_event', event: null, data: '{}', reason: 'event has no type' },
      ]);
      expect(decoder.end()).toEqual([]);
    });
  });

  describe('bytes', () => {
    const multiByte =
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"é日本😀"}}\n\n';
    const multiByteEvent = {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'é日本😀' },
    };

    it('decodes multi-byte characters split at every byte offset', () => {
      const bytes = utf8(multiByte);
      for (let offset = 0; offset <= bytes.length; offset++) {
        expect(decodeChunks([bytes.slice(0, offset), bytes.slice(offset)])).toEqual([
          multiByteEvent,
        ]);
      }
    });

    it('decodes the stream fed one byte at a time', () => {
      const bytes = utf8(UNICODE);
      const single = Array.from(bytes, (byte) => new Uint8Array([byte]));
      expect(decodeChunks(single)).toEqual(expectedEvents(UNICODE));
    });

    it('turns invalid UTF-8 into U+FFFD without throwing, and says so once, at the end', () => {
      const bytes = new Uint8Array([...utf8('data: {"type":"x'), 0xff, 0xc3, ...utf8('"}\n\n')]);
      const events = [
        { type: 'unknown_event', event: null, data: { type: 'x\uFFFD\uFFFD' } },
        NOT_UTF8,
      ];
      expect(decodeChunks([bytes])).toEqual(events);
      // Cut anywhere, the same events.
      for (let offset = 0; offset <= bytes.length; offset++) {
        expect(decodeChunks([bytes.slice(0, offset), bytes.slice(offset)])).toEqual(events);
      }
      // Two bad streams in a row through one decoder: a report each.
      // The report comes at the stream's end, after its last event, once.
      const decoder = new EventStreamDecoder();
      for (let run = 0; run < 2; run++) {
        expect([...decoder.push(bytes), ...decoder.push(bytes)]).toEqual([events[0], events[0]]);
        expect(decoder.end()).toEqual([NOT_UTF8]);
      }
    });

    it('reports nothing for a U+FFFD the stream sent, split at any byte or fed a byte at a time', () => {
      const sent = 'data: {"type":"a\uFFFDb\uFFFD"}\n\n';
      const bytes = utf8(sent);
      const expected = [{ type: 'unknown_event', event: null, data: { type: 'a\uFFFDb\uFFFD' } }];
      for (let offset = 0; offset <= bytes.length; offset++) {
        expect(decodeChunks([bytes.slice(0, offset), bytes.slice(offset)])).toEqual(expected);
      }
      expect(decodeChunks(Array.from(bytes, (byte) => new Uint8Array([byte])))).toEqual(expected);
      // One sent and one made, in the same chunk: the made one is reported.
      const both = new Uint8Array([...utf8('data: {"type":"\uFFFD'), 0xc3, ...utf8('"}\n\n')]);
      expect(decodeChunks([both]).at(-1)).toEqual(NOT_UTF8);
    });

    it('flushes a dangling partial character when a string chunk follows bytes', () => {
      const bytes = utf8('data: {"type":"é');
      expect(decodeChunks([bytes.slice(0, bytes.length - 1), '"}\n\n'])).toEqual([
        { type: 'unknown_event', event: null, data: { type: '\uFFFD' } },
        NOT_UTF8,
      ]);
    });
  });

  it.each(Object.entries(SPEC_STREAMS))('decodes the %s spec stream', (_name, stream) => {
    expect(decodeText(stream)).toEqual(expectedEvents(stream));
    expect(decodeChunks([utf8(withLineEnding(stream, '\r\n'))])).toEqual(expectedEvents(stream));
  });

  it('stays linear on many short lines and on one line spread over many chunks', () => {
    // Quadratic scanning would take minutes here; linear takes milliseconds.
    const started = performance.now();
    expect(decodeText(`${'x\n'.repeat(2_000_000)}data: {"type":"ping"}\n\n`)).toEqual([
      { type: 'ping' },
    ]);
    const decoder = new EventStreamDecoder();
    decoder.push('data: {"type":"ping","pad":"');
    const piece = 'y'.repeat(1024);
    for (let i = 0; i < 4096; i++) expect(decoder.push(piece)).toEqual([]);
    const [event] = decoder.push('"}\n\n');
    expect(event).toMatchObject({ type: 'ping' });
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('EventStreamDecoder properties', () => {
  const eols = fc.constantFrom('\n', '\r', '\r\n');

  it('yields the same events for any chunking of the UTF-8 bytes', () => {
    const cases = Object.values(SPEC_STREAMS).map((stream) => fc.constant(stream));
    const arbitrary = fc
      .tuple(fc.oneof(...cases), eols)
      .map(([stream, eol]) => utf8(withLineEnding(stream, eol)))
      .chain((bytes) =>
        fc.tuple(
          fc.constant(bytes),
          fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: bytes.length }),
        ),
      );
    fc.assert(
      fc.property(arbitrary, ([bytes, offsets]) => {
        expect(decodeChunks(cut(bytes, offsets))).toEqual(decodeChunks([bytes]));
      }),
      { numRuns: 300 },
    );
  });

  it('yields the same events for any chunking of the text, split into string chunks', () => {
    const arbitrary = fc
      .tuple(fc.constantFrom(...Object.values(SPEC_STREAMS)), eols)
      .map(([stream, eol]) => `\uFEFF${withLineEnding(stream, eol)}`)
      .chain((text) =>
        fc.tuple(fc.constant(text), fc.array(fc.integer({ min: 0, max: text.length }))),
      );
    fc.assert(
      fc.property(arbitrary, ([text, offsets]) => {
        expect(decodeChunks(cut(text, offsets))).toEqual(decodeText(text));
      }),
      { numRuns: 200 },
    );
  });

  /** A straightforward WHATWG reading of a whole text, to check the incremental decoder. */
  function reference(input: string): unknown[] {
    const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
    const lines = text.split(/\r\n|\r|\n/);
    const last = lines.pop() ?? '';
    if (last !== '') lines.push(last);
    let name: string | null = null;
    let data: string[] = [];
    const out: unknown[] = [];
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) out.push(toStreamEvent(name, data.join('\n')));
        data = [];
        name = null;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      if (field === 'event') name = value === '' ? null : value;
    }
    if (data.length > 0) {
      const event = toStreamEvent(name, data.join('\n'));
      out.push(event.type === 'invalid_event' ? { ...event, reason: 'truncated' } : event);
    }
    return out;
  }

  const normaliseTruncation = (events: StreamEvent[]): unknown[] =>
    events.map((event) =>
      event.type === 'invalid_event' && event.reason.startsWith('stream truncated')
        ? { ...event, reason: 'truncated' }
        : event,
    );

  /** SSE-ish text: fragments chosen so that random mixes reach every branch. */
  const sseText = fc
    .array(
      fc.constantFrom(
        'data:',
        'data: ',
        'data',
        'event:',
        'event: ',
        'event',
        'id: 1',
        'retry: 9',
        ':',
        ' ',
        '\n',
        '\r',
        '\r\n',
        '\n\n',
        '{',
        '}',
        '"type"',
        '"ping"',
        '"message_stop"',
        '"odd"',
        ':',
        ',',
        '"t":"é日😀"',
        '42',
        'ping',
        'message_stop',
        '\uFEFF',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(''));

  it('matches a whole-text WHATWG reference on random SSE-like input, however chunked', () => {
    fc.assert(
      fc.property(
        sseText.chain((text) =>
          fc.tuple(fc.constant(text), fc.array(fc.integer({ min: 0, max: text.length }))),
        ),
        fc.boolean(),
        ([text, offsets], asBytes) => {
          const pieces = cut(text, offsets);
          const events = decodeChunks(asBytes ? pieces.map(utf8) : pieces);
          // Cutting strings inside a surrogate pair is fine only for string chunks; as bytes
          // each lone surrogate would become U+FFFD, so compare against the same pieces.
          const keepBom = new TextDecoder('utf-8', { ignoreBOM: true });
          const expectedText = asBytes
            ? pieces.map((piece) => keepBom.decode(utf8(piece))).join('')
            : text;
          expect(normaliseTruncation(events)).toEqual(reference(expectedText));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws on random bytes, however chunked, and yields only typed events', () => {
    const types = new Set([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
      'ping',
      'error',
      'invalid_event',
      'unknown_event',
    ]);
    fc.assert(
      fc.property(
        fc
          .uint8Array({ maxLength: 400 })
          .chain((bytes) =>
            fc.tuple(fc.constant(bytes), fc.array(fc.integer({ min: 0, max: bytes.length }))),
          ),
        ([bytes, offsets]) => {
          const events = decodeChunks(cut(bytes, offsets));
          for (const event of events) expect(types.has(event.type)).toBe(true);
          expect(events).toEqual(decodeChunks([bytes]));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('decodeEventStream', () => {
  const body = 'event: ping\ndata: {"type":"ping"}\n\ndata: {"type":"message_stop"}\n\n';
  const expected = [{ type: 'ping' }, { type: 'message_stop' }];

  function streamOf(chunks: Array<Uint8Array>): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
  }

  it('decodes a string body', async () => {
    expect(await collect(decodeEventStream(body))).toEqual(expected);
  });

  it('decodes a ReadableStream body chunked anywhere, and releases it', async () => {
    const stream = streamOf(cut(utf8(body), [3, 17, 18, 40, 41]));
    expect(await collect(decodeEventStream(stream))).toEqual(expected);
    expect(stream.locked).toBe(false);
  });

  it('decodes a fetch Response body', async () => {
    const response = new Response(withLineEnding(UNICODE, '\r\n'));
    expect(await collect(decodeEventStream(response.body as ReadableStream<Uint8Array>))).toEqual(
      expectedEvents(UNICODE),
    );
  });

  it('decodes an async iterable of strings', async () => {
    async function* chunks(): AsyncGenerator<string> {
      yield 'event: ping\r';
      yield '\ndata: {"type":"ping"}\r\n';
      yield '\r\ndata: {"type":"message_stop"}\n\n';
    }
    expect(await collect(decodeEventStream(chunks()))).toEqual(expected);
  });

  it('decodes an async iterable of bytes, including a final unterminated event', async () => {
    const bytes = utf8(`${BASIC.trimEnd()}`);
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < bytes.length; i += 7) yield bytes.slice(i, i + 7);
    }
    expect(await collect(decodeEventStream(chunks()))).toEqual(expectedEvents(BASIC));
  });

  it('cancels the ReadableStream when the consumer breaks out early', async () => {
    const cancel = vi.fn();
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(utf8('data: {"type":"ping"}\n\n'));
      },
      cancel,
    });
    const seen: StreamEvent[] = [];
    for await (const event of decodeEventStream(stream)) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([{ type: 'ping' }, { type: 'ping' }, { type: 'ping' }]);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(stream.locked).toBe(false);
    expect(pulls).toBeLessThan(10);
  });

  it('cancels the ReadableStream at once when return() is called during a pending read', async () => {
    const cancel = vi.fn();
    const stream = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}), cancel });
    const events = decodeEventStream(stream);
    const pending = events.next();
    await expect(events.return()).resolves.toEqual({ done: true, value: undefined });
    expect(cancel).toHaveBeenCalledTimes(1);
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    await expect(events.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('cancels the ReadableStream and rethrows on throw()', async () => {
    const cancel = vi.fn();
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(utf8(body)),
      cancel,
    });
    const events = decodeEventStream(stream);
    expect(await events.next()).toEqual({ done: false, value: { type: 'ping' } });
    const failure = new Error('consumer failed');
    await expect(events.throw(failure)).rejects.toBe(failure);
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('closes an async iterable when the consumer breaks out early', async () => {
    let closed = false;
    async function* chunks(): AsyncGenerator<string> {
      try {
        for (;;) yield 'data: {"type":"ping"}\n\n';
      } finally {
        closed = true;
      }
    }
    for await (const event of decodeEventStream(chunks())) {
      expect(event).toEqual({ type: 'ping' });
      break;
    }
    expect(closed).toBe(true);
  });

  /** A body that hands over `text`, then fails with `failure` (a connection reset). */
  function resetAfter(text: string, failure: Error): ReadableStream<Uint8Array> {
    let sent = false;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) {
          controller.error(failure);
          return;
        }
        sent = true;
        controller.enqueue(utf8(text));
      },
    });
  }

  it('propagates a rejecting reader after the events that arrived before it', async () => {
    const failure = new Error('connection reset');
    const stream = resetAfter('data: {"type":"ping"}\n\ndata: {"type":', failure);
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of decodeEventStream(stream)) seen.push(event);
      })(),
    ).rejects.toBe(failure);
    // The cut event is kept, as accumulate keeps it: its bytes and why it cannot be read.
    expect(seen).toEqual([
      { type: 'ping' },
      {
        type: 'invalid_event',
        event: null,
        data: '{"type":',
        reason:
          'stream truncated in this event: data is not valid JSON: Unexpected end of JSON input',
      },
    ]);
    expect(stream.locked).toBe(false);
  });

  // An attack review: a last event complete but for its blank line, then a reset, was dropped
  // here where accumulate applied it (and so saw the message_stop).
  it('reads a whole last event that lacked its blank line before the reset is thrown', async () => {
    const failure = new TypeError('terminated: ECONNRESET');
    const stream = resetAfter(
      'data: {"type":"ping"}\n\nevent: message_stop\ndata: {"type":"message_stop"}',
      failure,
    );
    const events = decodeEventStream(stream);
    expect(await events.next()).toEqual({ done: false, value: { type: 'ping' } });
    expect(await events.next()).toEqual({ done: false, value: { type: 'message_stop' } });
    await expect(events.next()).rejects.toBe(failure);
    await expect(events.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('propagates an error thrown by an async iterable body', async () => {
    const failure = new Error('socket hang up');
    async function* chunks(): AsyncGenerator<string> {
      yield 'data: {"type":"ping"}\n\n';
      throw failure;
    }
    const events = decodeEventStream(chunks());
    expect(await events.next()).toEqual({ done: false, value: { type: 'ping' } });
    await expect(events.next()).rejects.toBe(failure);
    await expect(events.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it('serves next() calls made without awaiting in order', async () => {
    async function* chunks(): AsyncGenerator<string> {
      yield 'data: {"type":"ping"}\n\n';
      yield 'data: {"type":"message_stop"}\n\ndata: {"type":"ping","n":2}\n\n';
      yield 'data: {"type":"ping","n":3}';
    }
    const events = decodeEventStream(chunks());
    const results = await Promise.all(Array.from({ length: 6 }, () => events.next()));
    expect(results).toEqual([
      { done: false, value: { type: 'ping' } },
      { done: false, value: { type: 'message_stop' } },
      { done: false, value: { type: 'ping', n: 2 } },
      { done: false, value: { type: 'ping', n: 3 } },
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
  });

  it('is its own async iterator', () => {
    const events = decodeEventStream('');
    expect(events[Symbol.asyncIterator]()).toBe(events);
  });
});

describe('toStreamEvent: the compact delta fast path', () => {
  const general = (data: string) => {
    const parsed = JSON.parse(data);
    return parsed;
  };
  const deltaOf = fc.oneof(
    fc.string({ unit: 'grapheme' }).map((text) => ({ type: 'text_delta', text })),
    fc.string({ unit: 'binary' }).map((text) => ({ type: 'text_delta', text })),
    fc.string().map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    fc.string({ unit: 'grapheme' }).map((thinking) => ({ type: 'thinking_delta', thinking })),
  );

  it('gives exactly what JSON.parse gives for the compact layout', () => {
    fc.assert(
      fc.property(fc.nat(), deltaOf, (index, delta) => {
        const data = JSON.stringify({ type: 'content_block_delta', index, delta });
        expect(toStreamEvent('content_block_delta', data)).toEqual(general(data));
      }),
      { numRuns: 2000 },
    );
  });

  it('falls back to the general path for anything else, with the same result', () => {
    const variants = (data: string): string[] => [
      data.replace('"}}', '","extra":1}}'),
      data.replace('"}}', '"},"x":[1]}'),
      data.replace('{"type":"content_block_delta",', '{ "type":"content_block_delta",'),
      data.replace('"index":', '"index": '),
      `${data} `,
      data.slice(0, -1),
      data.replace(/"text":"/, '"text":"a","text":"'),
      data.replace(/"index":\d+/, '"index":01'),
      data.replace(/"index":\d+/, '"index":1.5'),
      // A raw control character or a lone quote: not JSON, whatever the layout says.
      data.replace(/"(text|thinking|partial_json)":"/, '"$1":"\t'),
      data.replace(/"(text|thinking|partial_json)":".*"}}$/s, '"$1":"}}'),
    ];
    fc.assert(
      fc.property(fc.nat(), deltaOf, (index, delta) => {
        const data = JSON.stringify({ type: 'content_block_delta', index, delta });
        for (const variant of variants(data)) {
          let expected: unknown;
          try {
            expected = JSON.parse(variant);
          } catch {
            expect(toStreamEvent(null, variant)).toMatchObject({
              type: 'invalid_event',
              data: variant,
            });
            continue;
          }
          expect(toStreamEvent(null, variant)).toEqual(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['text_delta', 'text'],
    ['thinking_delta', 'thinking'],
    ['input_json_delta', 'partial_json'],
  ])('parses only the string literal of a compact %s, not the envelope', (type, field) => {
    const data = JSON.stringify({
      type: 'content_block_delta',
      index: 12,
      delta: { type, [field]: 'a "quoted" value' },
    });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(toStreamEvent('content_block_delta', data)).toEqual(JSON.parse(data));
      expect(parse.mock.calls[0]?.[0]).toBe(JSON.stringify('a "quoted" value'));
    } finally {
      parse.mockRestore();
    }
  });

  it('does not accept a value that is more than one string literal', () => {
    const data =
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","x":"b"}}';
    expect(toStreamEvent(null, data)).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'a', x: 'b' },
    });
  });
});

describe('decodeEventStream on a locked stream', () => {
  it('returns an iterator whose first next() rejects, instead of throwing', async () => {
    const body = new ReadableStream<Uint8Array>();
    body.getReader(); // locks it
    let iterator: AsyncGenerator<StreamEvent, void, undefined> | undefined;
    expect(() => {
      iterator = decodeEventStream(body);
    }).not.toThrow();
    await expect(iterator?.next()).rejects.toThrow(TypeError);
  });
});

describe('EventStreamDecoder: an event over maxEventChars', () => {
  const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
  const decodeWith = (max: number, chunks: readonly string[]) => {
    const decoder = new EventStreamDecoder({ maxEventChars: max });
    const events: StreamEvent[] = [];
    for (const chunk of chunks) events.push(...decoder.push(chunk));
    events.push(...decoder.end());
    return events;
  };

  it('drops endless data lines with one invalid_event, and reads the next event', () => {
    const lines = Array.from({ length: 500 }, () => 'data: xxxxxxxxxxxxxxxxxxxx\n');
    const events = decodeWith(1000, [ping, 'event: flood\n', ...lines, '\n', ping]);
    expect(events.map((e) => e.type)).toEqual(['ping', 'invalid_event', 'ping']);
    const dropped = events[1] as Extract<StreamEvent, { type: 'invalid_event' }>;
    expect(dropped.event).toBe('flood');
    expect(dropped.data.startsWith('xxxxxxxxxxxxxxxxxxxx\nxxxx')).toBe(true);
    expect(dropped.data.length).toBeLessThanOrEqual(2048);
    expect(dropped.reason).toBe(
      'the event is over 1000 characters, so it was dropped (its start is kept)',
    );
  });

  it('drops one line that never ends without holding it, whatever the chunks', () => {
    const decoder = new EventStreamDecoder({ maxEventChars: 1000 });
    const events: StreamEvent[] = [...decoder.push(ping), ...decoder.push('data: {"a":"')];
    // 10,000 chunks of 100 characters: 1 MB that the decoder must not keep.
    for (let i = 0; i < 10_000; i++) events.push(...decoder.push('y'.repeat(100)));
    events.push(...decoder.push('"}\n\n'), ...decoder.push(ping), ...decoder.end());
    expect(events.map((e) => e.type)).toEqual(['ping', 'invalid_event', 'ping']);
    expect((events[1] as { data: string }).data.startsWith('data: {"a":"yyy')).toBe(true);
  });

  it('keeps events at the limit whole, and a stream that ends inside a dropped one quiet', () => {
    const data = `{"type":"ping","pad":"${'z'.repeat(900)}"}`;
    expect(decodeWith(data.length, [`data: ${data}\n\n`]).map((e) => e.type)).toEqual(['ping']);
    const cut = decodeWith(100, [ping, `data: ${data}`]);
    expect(cut.map((e) => e.type)).toEqual(['ping', 'invalid_event']);
  });

  it('defaults to MAX_SSE_EVENT_CHARS, 32 Mi characters', () => {
    expect(MAX_SSE_EVENT_CHARS).toBe(32 * 1024 * 1024);
    const big = `data: {"type":"ping","pad":"${'p'.repeat(MAX_SSE_EVENT_CHARS)}"}\n\n`;
    const events = decodeChunks([big.slice(0, 1 << 20), big.slice(1 << 20), ping]);
    expect(events.map((e) => e.type)).toEqual(['invalid_event', 'ping']);
  });
});
