import type { MarkdownChunk, OpenFence } from './split.js';

/** A chunk that is one fenced code block and nothing else: what it renders as. */
export interface FencedCode {
  /** Exactly the block's code, as markdown gives it (no final newline). */
  readonly code: string;
  /** The info string's first word, as the fence wrote it; undefined when there is none. */
  readonly language: string | undefined;
}

const OPENER = /^(`{3,}|~{3,})([^\n]*)\n/;
const CLOSER = /^ {0,3}(`+|~+)[ \t]*$/;

const closedFences = new WeakMap<MarkdownChunk, FencedCode | null>();

/**
 * The code of a chunk that is a single fenced code block opened at the first column, or null
 * for anything else (which renders through the markdown parser as before). A growing code
 * answer is one such chunk: read here, it costs a slice per frame instead of a markdown parse
 * of the whole block, which grew with the block (2,000 lines: seconds per frame).
 *
 * Only the plain cases are taken; anything markdown could read differently (an indented
 * fence, escapes or entities in the info string, carriage returns, text after the closing
 * fence in the same chunk) is left to the parser, so both give the same block.
 *
 * `open`: the split's open fence when this is the streaming last chunk; its code then runs to
 * the end, less a closing run still being typed.
 */
export function fencedCode(chunk: MarkdownChunk, open: OpenFence | null): FencedCode | null {
  if (open !== null) {
    if (open.lineStart !== 0 || open.indent !== '' || open.openerIncomplete) return null;
    return readFence(chunk.text, true);
  }
  let known = closedFences.get(chunk);
  if (known === undefined) {
    known = readFence(chunk.text, false);
    closedFences.set(chunk, known);
  }
  return known;
}

function readFence(text: string, open: boolean): FencedCode | null {
  const opener = OPENER.exec(text);
  if (opener === null || text.includes('\r')) return null;
  const marker = opener[1] as string;
  const info = (opener[2] as string).trim();
  if (/[\\&]/.test(info) || (marker.startsWith('`') && info.includes('`'))) return null;
  const language = info === '' ? undefined : info.split(/[ \t]/)[0];
  const bodyStart = opener[0].length;
  if (open) {
    // The split found no closing line: the code runs to the end, less a last line that is only
    // the marker's character (a closing fence being typed), as the streaming repair drops it.
    const lastLine = text.lastIndexOf('\n') + 1;
    const run =
      lastLine >= bodyStart ? /^ {0,3}(`+|~+)$/.exec(text.slice(lastLine))?.[1] : undefined;
    // The newline before that run goes with it.
    const end = run !== undefined && run[0] === marker[0] ? lastLine - 1 : text.length;
    return { code: withoutFinalNewline(text.slice(bodyStart, end)), language };
  }
  // The closing line: the first line that is a run of the marker's character, at least as long.
  for (let lineStart = bodyStart; lineStart < text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const run = CLOSER.exec(text.slice(lineStart, lineEnd))?.[1];
    if (run !== undefined && run[0] === marker[0] && run.length >= marker.length) {
      // Anything but blank lines after it belongs to another block: the parser's job.
      if (text.slice(lineEnd).trim() !== '') return null;
      return { code: withoutFinalNewline(text.slice(bodyStart, lineStart)), language };
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  // Not closed in a finished text (an answer stopped inside it): markdown runs it to the end
  // of the document, and so does this, so stopping keeps the block's element and colours.
  return { code: withoutFinalNewline(text.slice(bodyStart)), language };
}

function withoutFinalNewline(body: string): string {
  return body.endsWith('\n') ? body.slice(0, -1) : body;
}
