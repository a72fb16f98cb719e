import { seededRandom } from './measure.js';

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

/** A complete SSE body of `deltas` text deltas of about `deltaBytes` characters each. */
export function textStream(deltas: number, deltaBytes: number): string {
  const random = seededRandom(3);
  const parts: string[] = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-opus-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  ];
  for (let i = 0; i < deltas; i++) {
    const text = prose(deltaBytes - 10 + Math.floor(random() * 20), i).slice(0, deltaBytes);
    parts.push(
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`,
    );
  }
  parts.push(
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":250000}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  );
  return parts.join('');
}

/** Splits bytes into network-sized chunks. */
export function chunkBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}
