/**
 * The answer both contenders render: a seeded, deterministic Messages SSE body with a
 * thinking block (thinking_delta + signature_delta), a long GFM markdown text block (headings,
 * paragraphs, lists, code fences, tables, quotes) cut into `textDeltas` text_delta events, and
 * a tool_use block whose input arrives as input_json_delta fragments.
 */

import { sseEvent } from '@message-stream/mock';
import { seededRandom } from '../../src/random.js';

/** Strings the final DOM must contain: the end of each block arrived and was rendered. */
/** The tool the answer calls. */
export const TOOL_NAME = 'save_report';

export const SENTINELS = {
  thinking: 'thinking-done-5b1e',
  text: 'END-OF-ANSWER-7f3a',
  tool: 'tool-input-done-c92d',
} as const;

const WORDS = (
  'stream token parser render block delta frame commit react markdown answer table list ' +
  'heading paragraph fence chunk browser layout paint budget latency worker buffer queue ' +
  'schema value record field index offset result error retry signal reader decoder event ' +
  'the a of to and in is it that for on with as by this we keeps every never only once'
).split(' ');

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(pick(random, WORDS));
  return out.join(' ');
}

function sentence(random: () => number): string {
  const parts: string[] = [];
  const count = 2 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const style = random();
    const run = words(random, 2 + Math.floor(random() * 4));
    if (style < 0.12) parts.push(`**${run}**`);
    else if (style < 0.22) parts.push(`\`${run.replace(/ /g, '_')}()\``);
    else if (style < 0.28) parts.push(`[${run}](https://example.com/docs/${i}-${count})`);
    else if (style < 0.33) parts.push(`_${run}_`);
    else parts.push(run);
  }
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(random: () => number): string {
  const out: string[] = [];
  const count = 2 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) out.push(sentence(random));
  return out.join(' ');
}

function bulletList(random: () => number): string {
  const lines: string[] = [];
  const count = 3 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    lines.push(`- ${sentence(random)}`);
    if (random() < 0.25) lines.push(`  - ${sentence(random)}`);
  }
  return lines.join('\n');
}

function orderedList(random: () => number): string {
  const lines: string[] = [];
  const count = 3 + Math.floor(random() * 3);
  for (let i = 1; i <= count; i++) lines.push(`${i}. ${sentence(random)}`);
  return lines.join('\n');
}

function codeFence(random: () => number, n: number): string {
  const lines = [`\`\`\`ts`, `export function step${n}(input: readonly number[]): number {`];
  const count = 4 + Math.floor(random() * 8);
  lines.push('  let total = 0;');
  for (let i = 0; i < count; i++) {
    lines.push(`  // ${words(random, 4)}`);
    lines.push(`  total += input[${i}] ?? ${Math.floor(random() * 100)};`);
  }
  lines.push('  return total;', '}', '```');
  return lines.join('\n');
}

function table(random: () => number): string {
  const columns = 3 + Math.floor(random() * 2);
  const head = Array.from({ length: columns }, () => words(random, 1));
  const lines = [`| ${head.join(' | ')} |`, `|${' --- |'.repeat(columns)}`];
  const rows = 4 + Math.floor(random() * 4);
  for (let r = 0; r < rows; r++) {
    const cells = Array.from({ length: columns }, (_, c) =>
      c === columns - 1 ? `${(random() * 100).toFixed(1)} ms` : words(random, 1 + (c % 2)),
    );
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** One TypeScript fence of `lines` lines, then the text sentinel. */
export function codeAnswer(lines: number, seed: number): string {
  const random = seededRandom(seed);
  const out = ['Here is the module:', '', '```ts'];
  for (let i = 0; i < lines; i++) {
    const name = pick(random, WORDS);
    out.push(
      i % 10 === 0
        ? `export function ${name}${i}(input: readonly number[]): number {`
        : i % 10 === 9
          ? '}'
          : `  const ${name}${i} = input[${i % 7}] ?? ${Math.floor(random() * 100)}; // ${words(random, 3)}`,
    );
  }
  out.push('```', '', `That is the whole module. ${SENTINELS.text}`);
  return out.join('\n');
}

/** Markdown of about `length` characters, ending with the text sentinel. */
export function markdownAnswer(length: number, seed: number): string {
  const random = seededRandom(seed);
  const blocks: string[] = ['# Rendering report', paragraph(random)];
  let size = blocks.join('\n\n').length;
  for (let n = 1; size < length; n++) {
    const section = [`## ${n}. ${sentence(random).slice(0, -1)}`, paragraph(random)];
    switch (n % 5) {
      case 0:
        section.push(bulletList(random));
        break;
      case 1:
        section.push(codeFence(random, n));
        break;
      case 2:
        section.push(table(random));
        break;
      case 3:
        section.push(orderedList(random));
        break;
      default:
        section.push(`> ${sentence(random)} ${sentence(random)}`);
    }
    if (random() < 0.6) section.push(paragraph(random));
    blocks.push(...section);
    size += section.join('\n\n').length + 2;
  }
  blocks.push(`That is the whole report. ${SENTINELS.text}`);
  return blocks.join('\n\n');
}

/** Cuts `text` into exactly `count` non-empty pieces of seeded, similar sizes. */
export function cut(text: string, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const average = text.length / count;
  if (average < 1) throw new RangeError(`${text.length} characters cannot make ${count} pieces`);
  const pieces: string[] = [];
  let from = 0;
  for (let i = 1; i < count; i++) {
    const jitter = Math.floor((random() - 0.5) * average);
    let to = Math.max(
      from + 1,
      Math.min(Math.round(i * average) + jitter, text.length - (count - i)),
    );
    // Never between the two halves of a surrogate pair.
    if (/[\udc00-\udfff]/.test(text.charAt(to))) to++;
    pieces.push(text.slice(from, to));
    from = to;
  }
  pieces.push(text.slice(from));
  return pieces;
}

function thinkingText(length: number, seed: number): string {
  const random = seededRandom(seed);
  const out: string[] = [];
  let size = 0;
  while (size < length) {
    const next = sentence(random).replace(/[*_`[\]()]/g, '');
    out.push(next);
    size += next.length + 1;
  }
  out.push(`Done: ${SENTINELS.thinking}`);
  return out.join(' ');
}

function toolInput(length: number, seed: number): string {
  const random = seededRandom(seed);
  const sections: { heading: string; summary: string; score: number }[] = [];
  let size = 0;
  while (size < length) {
    const section = {
      heading: words(random, 3),
      summary: sentence(random),
      score: Math.round(random() * 1000) / 10,
    };
    sections.push(section);
    size += JSON.stringify(section).length + 1;
  }
  return JSON.stringify({ title: 'Rendering report', sections, status: SENTINELS.tool });
}

export interface AnswerOptions {
  /** text_delta events in the markdown block. */
  readonly textDeltas: number;
  /** Average characters per text_delta. Default 6 (one to three tokens). */
  readonly charsPerDelta?: number;
  readonly thinkingDeltas: number;
  readonly jsonDeltas: number;
  readonly seed?: number;
  /** The answer is one code fence of this many lines (and a closing sentence) instead. */
  readonly codeLines?: number;
}

export interface Answer {
  /** The whole SSE body. */
  readonly sse: string;
  readonly markdown: string;
  readonly events: number;
  readonly textDeltas: number;
  readonly thinkingDeltas: number;
  readonly jsonDeltas: number;
}

/** The answer a page's query asks for (`deltas`, `thinking`, `json`, `seed`, `code`). */
export function answerOptions(params: URLSearchParams): AnswerOptions {
  return {
    textDeltas: Number(params.get('deltas') ?? 5000),
    thinkingDeltas: Number(params.get('thinking') ?? 300),
    jsonDeltas: Number(params.get('json') ?? 200),
    seed: Number(params.get('seed') ?? 1),
    ...(params.has('code') ? { codeLines: Number(params.get('code')) } : {}),
  };
}

/** The part of a page's query that says which answer: what the server needs to write it. */
export function answerQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const key of ['deltas', 'thinking', 'json', 'seed', 'code', 'pace']) {
    const value = params.get(key);
    if (value !== null) kept.set(key, value);
  }
  return kept.toString();
}

/** The SSE body cut into its events, each with its closing blank line: one write each. */
export const sseEvents = (sse: string): string[] =>
  sse.split(/(?<=\n\n)/).filter((event) => event.length > 0);

export function answerStream(options: AnswerOptions): Answer {
  const seed = options.seed ?? 1;
  const chars = options.charsPerDelta ?? 6;
  const markdown =
    options.codeLines === undefined
      ? markdownAnswer(options.textDeltas * chars, seed)
      : codeAnswer(options.codeLines, seed);
  const thinking = thinkingText(options.thinkingDeltas * 8, seed + 1);
  const input = toolInput(options.jsonDeltas * 16, seed + 2);
  const parts: string[] = [
    sseEvent({
      type: 'message_start',
      message: {
        id: 'msg_bench_render',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1200, output_tokens: 1 },
      },
    }),
    sseEvent({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    }),
  ];
  for (const piece of cut(thinking, options.thinkingDeltas, seed + 3)) {
    parts.push(
      sseEvent({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: piece },
      }),
    );
  }
  parts.push(
    sseEvent({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: 'EqQBCkgIARABGAIiQL2benchSignature' },
    }),
    sseEvent({ type: 'content_block_stop', index: 0 }),
    sseEvent({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'text', text: '' },
    }),
  );
  for (const piece of cut(markdown, options.textDeltas, seed + 4)) {
    parts.push(
      sseEvent({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'text_delta', text: piece },
      }),
    );
  }
  parts.push(
    sseEvent({ type: 'content_block_stop', index: 1 }),
    sseEvent({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_bench_render', name: TOOL_NAME, input: {} },
    }),
  );
  for (const piece of cut(input, options.jsonDeltas, seed + 5)) {
    parts.push(
      sseEvent({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: piece },
      }),
    );
  }
  parts.push(
    sseEvent({ type: 'content_block_stop', index: 2 }),
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: options.textDeltas + options.thinkingDeltas + options.jsonDeltas },
    }),
    sseEvent({ type: 'message_stop' }),
  );
  return {
    sse: parts.join(''),
    markdown,
    events: parts.length,
    textDeltas: options.textDeltas,
    thinkingDeltas: options.thinkingDeltas,
    jsonDeltas: options.jsonDeltas,
  };
}

/**
 * `count` earlier turns (question, then an answer of about 900 characters of the same mixed
 * markdown: headings, code, tables, lists), as `initialMessages`, each answer different.
 */
export function historyMessages(
  count: number,
  seed: number,
): { role: 'user' | 'assistant'; content: string }[] {
  const out: { role: 'user' | 'assistant'; content: string }[] = [];
  for (let i = 0; i < count; i++) {
    out.push({ role: 'user', content: `Question ${i + 1}: ${sentence(seededRandom(seed + i))}` });
    out.push({
      role: 'assistant',
      content: markdownAnswer(900, seed + 7919 * (i + 1)).replace(
        SENTINELS.text,
        `(turn ${i + 1})`,
      ),
    });
  }
  return out;
}
