import { flatCopy } from '../flat-copy.js';
import { appendedSince, recordAppend } from '../text-growth.js';
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
/** A last line that is only a fence's characters: a closing fence still being typed. */
const TYPED_CLOSER = /^ {0,3}(`+|~+)$/;

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
export function fencedCode(
  chunk: MarkdownChunk,
  open: OpenFence | null,
  previous?: { readonly chunk: MarkdownChunk; readonly fence: FencedCode | null } | null,
): FencedCode | null {
  if (open !== null) {
    if (open.lineStart !== 0 || open.indent !== '' || open.openerIncomplete) return null;
    const before = previous?.fence ? openFences.get(previous.fence) : undefined;
    if (before !== undefined && previous) {
      // The same chunk rendered again (a parent's render, StrictMode's second one).
      if (previous.chunk === chunk) return previous.fence;
      // Recorded as the last chunk plus an append (split.ts): only that is read.
      const appended = appendedSince(chunk.text, previous.chunk.text);
      if (appended !== undefined && !appended.includes('\r')) {
        return grow(previous.fence as FencedCode, before, appended);
      }
    }
    const fence = readFence(chunk.text, true);
    if (fence !== null) openFences.set(fence, openState(chunk.text));
    return fence;
  }
  let known = closedFences.get(chunk);
  if (known === undefined) {
    known = readFence(chunk.text, false);
    closedFences.set(chunk, known);
  }
  return known;
}

/**
 * An open fence's body as it grows, so the next append is read without reading the body:
 * its finished lines (joined, without the newline after the last), and its last line.
 */
interface OpenFenceState {
  readonly marker: string;
  readonly finished: string;
  readonly hasFinished: boolean;
  /** The last finished line is empty (`finished` ends with a newline, or is that line). */
  readonly lastFinishedEmpty: boolean;
  readonly last: string;
}

const openFences = new WeakMap<FencedCode, OpenFenceState>();

/** The state of an open fence read whole (once, when its growth is not known). */
function openState(text: string): OpenFenceState {
  const opener = OPENER.exec(text) as RegExpExecArray;
  const body = text.slice(opener[0].length);
  const newline = body.lastIndexOf('\n');
  const finished = newline === -1 ? '' : flatCopy(body.slice(0, newline));
  return {
    marker: opener[1] as string,
    finished,
    hasFinished: newline !== -1,
    lastFinishedEmpty: newline !== -1 && (newline === 0 || body.charCodeAt(newline - 1) === 10),
    last: flatCopy(body.slice(newline + 1)),
  };
}

/** The code of an open fence after `appended`, from its state before: no read of the body. */
function grow(previous: FencedCode, state: OpenFenceState, appended: string): FencedCode {
  const lines = (state.last + appended).split('\n');
  const last = lines.pop() as string;
  const hasFinished = state.hasFinished || lines.length > 0;
  let finished = state.finished;
  let lastFinishedEmpty = state.lastFinishedEmpty;
  // What the code gains after the finished lines it had, and had after them before.
  let added = '';
  if (lines.length > 0) {
    const more = lines.join('\n');
    added = state.hasFinished ? `\n${more}` : more;
    finished += added;
    lastFinishedEmpty = (lines.at(-1) as string) === '';
  }
  const next: OpenFenceState = {
    marker: state.marker,
    finished,
    hasFinished,
    lastFinishedEmpty,
    last,
  };
  const code = codeOf(next);
  const fence: FencedCode = { code, language: previous.language };
  openFences.set(fence, next);
  if (!heldBack(state) && !heldBack(next)) {
    const before = tailOf(state);
    const after = added + tailOf(next);
    if (after.startsWith(before)) recordAppend(code, previous.code, after.slice(before.length));
  }
  return fence;
}

/** The last line is only the marker's character: a closing fence being typed, not code. */
function heldBack(state: OpenFenceState): boolean {
  const run = TYPED_CLOSER.exec(state.last)?.[1];
  return run !== undefined && run[0] === state.marker[0];
}

/** What the code has after the finished lines (not counting a held-back last line). */
function tailOf(state: OpenFenceState): string {
  if (state.last === '' && state.hasFinished) return '';
  return state.hasFinished ? `\n${state.last}` : state.last;
}

/** The code of an open fence, as `readFence` gives it: no final newline, no closing run. */
function codeOf(state: OpenFenceState): string {
  if (heldBack(state)) {
    // The newline before that run goes with it, and a final newline left is dropped too.
    return state.lastFinishedEmpty ? state.finished.slice(0, -1) : state.finished;
  }
  return state.finished + tailOf(state);
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
    const run = lastLine >= bodyStart ? TYPED_CLOSER.exec(text.slice(lastLine))?.[1] : undefined;
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
