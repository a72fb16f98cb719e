import { seededRandom } from './random.js';

const WORDS =
  'the stream of tokens arrives quickly while a careful parser keeps every fragment and never loses what came before é 😀 "quoted" back\\slash tab\t'.split(
    ' ',
  );

function prose(bytes: number, seed: number): string {
  const random = seededRandom(seed);
  let text = '';
  while (text.length < bytes) {
    text += WORDS[Math.floor(random() * WORDS.length)];
    text += random() < 0.08 ? '\n' : ' ';
  }
  return text;
}

/**
 * A file-writing tool call: a few keys and one long string, the way models produce large
 * tool inputs (whole files, documents).
 */
export function fileWriteInput(bytes: number): string {
  return JSON.stringify({
    path: 'src/report.md',
    mode: 'overwrite',
    content: prose(bytes, 7),
  });
}

/**
 * An editing tool call: an array of edits, each with short fields and a mid-sized string.
 */
export function editsInput(bytes: number): string {
  const random = seededRandom(11);
  const edits: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const edit = {
      file: `src/module-${i % 37}.ts`,
      line: Math.floor(random() * 5000),
      replace: prose(200 + Math.floor(random() * 1800), i),
      verified: random() < 0.5,
      score: Math.round(random() * 1e4) / 100,
    };
    size += JSON.stringify(edit).length + 1;
    edits.push(edit);
  }
  return JSON.stringify({ summary: 'Apply the review', edits });
}

/** What a correct consumer ends with, known from the generator rather than from any parser. */
export interface Expected {
  /** Every text block's text, joined. */
  readonly text: string;
  /** Every thinking block's thinking, joined. */
  readonly thinking: string;
  readonly signature: string;
  /** The tool call's input as `JSON.stringify` writes it back, or null: no tool call. */
  readonly inputJson: string | null;
}

const SKUS = ['A-17', 'B-204', 'C-9', 'D-3310', 'E-42'];
const TAGS = ['new', 'eu', 'gift', 'backorder', 'vip'];

/**
 * A structured-extraction tool call: many small records of short keys, numbers, literals
 * and short strings. This is where re-parsing libraries are slowest per byte (every token
 * is an allocation), and the shape behind the design's measured anchors.
 */
export function recordsInput(bytes: number): string {
  const random = seededRandom(17);
  const rows: unknown[] = [];
  let size = 0;
  for (let id = 1000; size < bytes; id++) {
    const row = {
      id,
      sku: SKUS[id % SKUS.length],
      qty: 1 + Math.floor(random() * 9),
      price: Math.round(random() * 1e4) / 100,
      paid: random() < 0.7,
      note: random() < 0.2 ? null : 'ok',
      tags: TAGS.filter(() => random() < 0.3),
    };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return JSON.stringify({ table: 'orders', rows });
}

/** A complete SSE body with the result it must give. */
export interface StreamFixture {
  readonly name: string;
  readonly sse: string;
  readonly expected: Expected;
  /** What the stream carries, for the table: "1.4 MB text". */
  readonly payload: string;
}

type Block =
  | { readonly type: 'text'; readonly deltas: readonly string[] }
  | { readonly type: 'thinking'; readonly deltas: readonly string[]; readonly signature: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly fragments: readonly string[];
    };

/** The SSE body of one message holding `blocks`, framed as the API frames it. */
function messageStream(blocks: readonly Block[], stopReason: string, outputTokens: number): string {
  const parts: string[] = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-opus-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  ];
  const delta = (index: number, body: string) =>
    `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${body}}\n\n`;
  blocks.forEach((block, index) => {
    const start =
      block.type === 'text'
        ? '{"type":"text","text":""}'
        : block.type === 'thinking'
          ? '{"type":"thinking","thinking":"","signature":""}'
          : `{"type":"tool_use","id":${JSON.stringify(block.id)},"name":${JSON.stringify(block.name)},"input":{}}`;
    parts.push(
      `event: content_block_start\ndata: {"type":"content_block_start","index":${index},"content_block":${start}}\n\n`,
    );
    if (block.type === 'text') {
      for (const text of block.deltas) {
        parts.push(delta(index, `{"type":"text_delta","text":${JSON.stringify(text)}}`));
      }
    } else if (block.type === 'thinking') {
      for (const thinking of block.deltas) {
        parts.push(
          delta(index, `{"type":"thinking_delta","thinking":${JSON.stringify(thinking)}}`),
        );
      }
      parts.push(
        delta(index, `{"type":"signature_delta","signature":${JSON.stringify(block.signature)}}`),
      );
    } else {
      // The API's first input_json_delta is often empty.
      for (const json of ['', ...block.fragments]) {
        parts.push(
          delta(index, `{"type":"input_json_delta","partial_json":${JSON.stringify(json)}}`),
        );
      }
    }
    parts.push(
      `event: content_block_stop\ndata: {"type":"content_block_stop","index":${index}}\n\n`,
    );
  });
  parts.push(
    `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":${JSON.stringify(stopReason)},"stop_sequence":null},"usage":{"output_tokens":${outputTokens}}}\n\n`,
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  );
  return parts.join('');
}

/**
 * `count` prose deltas of 6 to `deltaBytes` characters; delta i is prose seeded with
 * `offset + i`, its length drawn from `seed`.
 */
function proseDeltas(count: number, deltaBytes: number, seed: number, offset: number): string[] {
  const random = seededRandom(seed);
  const deltas: string[] = [];
  for (let i = 0; i < count; i++) {
    const delta = prose(deltaBytes - 10 + Math.floor(random() * 20), offset + i);
    deltas.push(delta.slice(0, cut(delta, deltaBytes)));
  }
  return deltas;
}

/** `at`, or one less if `at` would split a surrogate pair: the API never sends half a character. */
const cut = (text: string, at: number): number => {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
};

/** Cuts text into fragments of `min` to `max` characters, whole characters only. */
function characterFragments(text: string, min: number, max: number, seed: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + min + Math.floor(random() * (max - min + 1)));
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end++;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const megabytes = (bytes: number): string =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} KB`;

/** A complete SSE body of `deltas` text deltas of about `deltaBytes` characters each. */
export function textStream(deltas: number, deltaBytes: number): string {
  return textFixture(deltas, deltaBytes).sse;
}

/**
 * One text block of `deltas` text deltas of about `deltaBytes` characters each. A different
 * `offset` gives different text (answers of one conversation).
 */
export function textFixture(
  deltas: number,
  deltaBytes: number,
  { seed = 3, offset = 0 }: { seed?: number; offset?: number } = {},
): StreamFixture {
  return textBlockFixture(`text, ${deltas} deltas`, proseDeltas(deltas, deltaBytes, seed, offset));
}

/**
 * A text answer of `bytes` bytes (UTF-8, give or take a delta) in deltas of 6 to 16
 * characters. A different `offset` gives a different answer.
 */
export function textAnswerFixture(bytes: number, offset = 0): StreamFixture {
  const texts: string[] = [];
  let size = 0;
  for (const text of proseDeltas(Math.ceil(bytes / 6), 16, 3 + offset, offset * 1_000)) {
    if (size >= bytes) break;
    texts.push(text);
    size += utf8Bytes(text);
  }
  return textBlockFixture(`${megabytes(size)} text answer`, texts);
}

function textBlockFixture(name: string, texts: readonly string[]): StreamFixture {
  const text = texts.join('');
  return {
    name,
    sse: messageStream([{ type: 'text', deltas: texts }], 'end_turn', 250000),
    expected: { text, thinking: '', signature: '', inputJson: null },
    payload: `${megabytes(utf8Bytes(text))} text`,
  };
}

/**
 * Extended thinking: a long thinking block in `deltas` thinking deltas, its signature,
 * then a short text answer.
 */
export function thinkingFixture(deltas: number, deltaBytes: number): StreamFixture {
  const thoughts = proseDeltas(deltas, deltaBytes, 5, 1_000_000);
  const answer = proseDeltas(40, 16, 6, 2_000_000);
  const random = seededRandom(9);
  const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let signature = '';
  while (signature.length < 480) signature += base64[Math.floor(random() * 64)];
  const thinking = thoughts.join('');
  return {
    name: `thinking, ${deltas} deltas`,
    sse: messageStream(
      [
        { type: 'thinking', deltas: thoughts, signature: `${signature}==` },
        { type: 'text', deltas: answer },
      ],
      'end_turn',
      deltas + 40,
    ),
    expected: {
      text: answer.join(''),
      thinking,
      signature: `${signature}==`,
      inputJson: null,
    },
    payload: `${megabytes(utf8Bytes(thinking))} thinking + ${answer.join('').length} B text`,
  };
}

/**
 * A tool call of about `bytes` of JSON input (a file write by default: a few keys and one
 * long string), in input_json_delta fragments of 1–20 characters (as the API cuts them:
 * mid-key, mid-escape), after a short sentence.
 */
export function toolInputFixture(
  bytes: number,
  shape: 'file write' | 'edits array' = 'file write',
): StreamFixture {
  const make = shape === 'file write' ? fileWriteInput : editsInput;
  // JSON escapes make the text a little longer than asked: aim again with the ratio.
  const first = make(bytes);
  const input = make(Math.round((bytes * bytes) / utf8Bytes(first)));
  const parts = characterFragments(input, 1, 20, 13);
  const intro = ["I'll write the report ", 'to src/report.md', ' now.'];
  return {
    name: `tool input (${shape}), ${parts.length} fragments`,
    sse: messageStream(
      [
        { type: 'text', deltas: intro },
        { type: 'tool_use', id: 'toolu_bench', name: 'write_file', fragments: parts },
      ],
      'tool_use',
      parts.length,
    ),
    expected: { text: intro.join(''), thinking: '', signature: '', inputJson: input },
    payload: `${megabytes(utf8Bytes(input))} tool input`,
  };
}

/**
 * Many short text blocks (two deltas each): the shape behind the reliability issue's defect 5,
 * where the reducer's cost per event grew with the number of blocks already in the message.
 */
export function manyBlocksFixture(blocks: number): StreamFixture {
  const list: Block[] = [];
  let text = '';
  for (let i = 0; i < blocks; i++) {
    const deltas = [`Block ${i} `, `says hi. `];
    text += deltas.join('');
    list.push({ type: 'text', deltas });
  }
  return {
    name: `many blocks, ${blocks} text blocks`,
    sse: messageStream(list, 'end_turn', blocks * 2),
    expected: { text, thinking: '', signature: '', inputJson: null },
    payload: `${blocks} text blocks, ${megabytes(utf8Bytes(text))} text`,
  };
}

/** Splits bytes into network-sized chunks. */
export function chunkBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}
