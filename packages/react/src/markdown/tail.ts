import type { OpenFence } from './split.js';

/**
 * Makes the growing end of a streaming answer display sensibly. Markdown read mid-token shows
 * its syntax for a moment (`**`, a bare `[`, half a URL, a bullet that is about to become a
 * heading) and then snaps into shape; this hides what is not settled yet instead.
 *
 * Apply it to the last chunk only, while the text is streaming or where it was cut off (its
 * stream broke): finished text is rendered exactly as written.
 */
export function repairStreamingTail(text: string, openFence: OpenFence | null): string {
  if (openFence) return closeFence(text, openFence);
  let out = dropUnsettledLine(text);
  out = unwrapHalfLink(out);
  out = dropDanglingMarker(out);
  out = closeOpenInline(out);
  return out;
}

/**
 * An open fence is closed virtually, so the code renders as a code block right away. A closing
 * run still being typed is dropped (it is not code), and so is an opening line whose info
 * string (the language) is still arriving.
 */
function closeFence(text: string, fence: OpenFence): string {
  // trimEnd, not /\s+$/: that regex retries from every space of a long blank run.
  if (fence.openerIncomplete) return text.slice(0, fence.lineStart).trimEnd();
  let body = text;
  const lastNewline = body.lastIndexOf('\n');
  if (lastNewline >= fence.lineStart) {
    const last = body.slice(lastNewline + 1);
    const run = /^ {0,3}(`+|~+)$/.exec(last)?.[1];
    if (run !== undefined && run.charAt(0) === fence.marker.charAt(0)) {
      body = body.slice(0, lastNewline);
    }
  }
  return `${body.endsWith('\n') ? body : `${body}\n`}${fence.indent}${fence.marker}`;
}

/**
 * A last line that is nothing but block syntax (`-`, `#`, `1.`, `===`, `*`) would render as an
 * empty bullet, an empty heading or turn the line above into a heading for one frame.
 */
function dropUnsettledLine(text: string): string {
  const lastNewline = text.lastIndexOf('\n');
  const last = text.slice(lastNewline + 1);
  if (/^[ \t]*(?:[-+*=_#~`>]+|\d{1,9}[.)]?)[ \t]*$/.test(last)) {
    return lastNewline === -1 ? '' : text.slice(0, lastNewline);
  }
  return text;
}

/** `[text`, `[text]`, `[text](http://exa` and images alike show as their text until complete. */
function unwrapHalfLink(text: string): string {
  const lineStart = text.lastIndexOf('\n') + 1;
  const line = text.slice(lineStart);
  const match = /!?\[([^[\]\n]*)(\](\([^()\n]*)?)?$/.exec(line);
  if (!match) return text;
  const label = match[1] ?? '';
  // `[^1]` is a footnote reference and `[ ]` / `[x]` a task list box: both are complete.
  if (match[2] !== undefined && match[3] === undefined && /^(?:\^.*|[ xX])$/.test(label)) {
    return text;
  }
  // An odd number of backticks before it: the bracket is inside an inline code span.
  if (countOf(line.slice(0, match.index), '`') % 2 === 1) return text;
  return text.slice(0, lineStart + match.index) + label;
}

/**
 * A run of `*`, `_`, `~` or backticks at the very end is dropped when it cannot be closing
 * something: it follows whitespace (an opener with nothing after it yet), or the paragraph has
 * an odd number of that character outside code spans (the run is unmatched, or half of a
 * closing `**`).
 *
 * This runs on every delta over a paragraph that may be tens of thousands of markers long, so
 * every step is a single pass: the run is found by walking back from the end (a `(\*+)$` regex
 * retries from every start and is quadratic on `***…*x`), and code spans are matched by run
 * length with one lookup table instead of a backtracking `(`+)…\1`.
 */
function dropDanglingMarker(text: string): string {
  const end = text.length;
  if (end === 0) return text;
  const code = text.charCodeAt(end - 1);
  if (!isEmphasisOrCode(code)) return text;
  let at = end - 1;
  while (at > 0 && text.charCodeAt(at - 1) === code) {
    at--;
    tailRepairWork.steps++;
  }
  const before = at === 0 ? '' : text.charAt(at - 1);
  const paragraphStart = text.lastIndexOf('\n\n') + 1;
  let count: number;
  if (code === BACKTICK) {
    count = countCode(text, paragraphStart, BACKTICK);
  } else {
    const outside = countOutsideCodeSpans(text, paragraphStart, code);
    // Inside a code span still being written: the run is code, not a marker.
    if (outside.inCode) return text;
    count = outside.count;
  }
  const dangling = before === '' || /\s/.test(before) || count % 2 === 1;
  return dangling ? text.slice(0, at) : text;
}

const BACKTICK = 0x60;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;
const COLON = 0x3a;

const isSpace = (char: string): boolean => char === '' || /\s/.test(char);
const isPunctuation = (char: string): boolean => /[\p{P}\p{S}]/u.test(char);

/**
 * Emphasis, strikethrough and inline code opened on the last line and not closed yet get their
 * closer at the end, so `**easy to g` streams as bold instead of two asterisks that turn into
 * bold when the closer comes (and the words jump). An opener is a run of one to three `*` or `_`,
 * or `~~`, at the start of a word (after a space, punctuation or the line's start:
 * `snake_case`, `2*3`, `~5 ms` and a URL's `/_private` open nothing), or backticks with no
 * closing run after them. Only the last line is read (in a table
 * row, its last cell): emphasis does not cross list items or cells, and a delta changes only the
 * end, so the work per delta is the line's, not the answer's.
 */
function closeOpenInline(text: string): string {
  let from = text.lastIndexOf('\n') + 1;
  if (text.charCodeAt(from) === PIPE) from = text.lastIndexOf('|') + 1;
  const openers: { char: string; length: number }[] = [];
  let codeRun = 0;
  const runs = backtickRuns(text, from);
  let r = 0;
  for (let i = from; i < text.length; ) {
    tailRepairWork.steps++;
    const code = text.charCodeAt(i);
    if (code === BACKTICK) {
      const run = runs[r] as BacktickRun;
      if (run.partner === -1) {
        // Nothing closes it: the rest of the line is code so far.
        codeRun = run.length;
        break;
      }
      const closer = runs[run.partner] as BacktickRun;
      i = closer.start + closer.length;
      r = run.partner + 1;
      continue;
    }
    if (code === COLON && text.startsWith('//', i + 1) && /[a-z]$/i.test(text.charAt(i - 1))) {
      // A URL (`https://…`, `www.` needs no care: it has no marker at a word start): its `_`
      // and `~` are part of it. Skip to the next space.
      while (i < text.length && !isSpace(text.charAt(i))) {
        i++;
        tailRepairWork.steps++;
      }
      continue;
    }
    if (!isEmphasisOrCode(code) || text.charCodeAt(i - 1) === BACKSLASH) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && text.charCodeAt(i) === code) i++;
    const char = text.charAt(start);
    // A single `~` is "about" (~5 ms) or a home directory (~/src), not strikethrough.
    if (char === '~' && i - start === 1) continue;
    const before = start === from ? '' : text.charAt(start - 1);
    const after = text.charAt(i);
    const left =
      !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
    const right =
      !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
    let length = i - start;
    if (right) {
      // Closes the nearest opener of its kind, and what was opened inside it.
      for (let o = openers.length - 1; o >= 0 && length > 0; o--) {
        const opener = openers[o] as { char: string; length: number };
        if (opener.char !== char) continue;
        const used = Math.min(opener.length, length);
        length -= used;
        opener.length -= used;
        if (opener.length === 0) openers.length = o;
      }
    }
    // Longer runs (a row of asterisks) are decoration, not emphasis being written.
    if (left && !right && length > 0 && length <= (char === '~' ? 2 : 3)) {
      openers.push({ char, length });
    }
  }
  if (codeRun === 0 && openers.length === 0) return text;
  let out = codeRun > 0 ? text + '`'.repeat(codeRun) : text.trimEnd();
  for (let o = openers.length - 1; o >= 0; o--) {
    const opener = openers[o] as { char: string; length: number };
    out += opener.char.repeat(opener.length);
  }
  return out;
}

interface BacktickRun {
  readonly start: number;
  readonly length: number;
  /** Index of the next run of the same length (the span's closer), or -1. */
  partner: number;
}

/** The backtick runs of `text[from…]`, each with the run that would close it. */
function backtickRuns(text: string, from: number): BacktickRun[] {
  const runs: BacktickRun[] = [];
  for (let i = from; i < text.length; ) {
    tailRepairWork.steps++;
    if (text.charCodeAt(i) !== BACKTICK) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && text.charCodeAt(i) === BACKTICK) i++;
    runs.push({ start, length: i - start, partner: -1 });
  }
  const lastOfLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const run = runs[k] as BacktickRun;
    run.partner = lastOfLength.get(run.length) ?? -1;
    lastOfLength.set(run.length, k);
  }
  return runs;
}

function isEmphasisOrCode(code: number): boolean {
  return code === 0x2a || code === 0x5f || code === 0x7e || code === BACKTICK;
}

/**
 * Work done by the tail repair's scans, one step per character visited. Not public API: the
 * tests read it to prove the repair stays linear without timing anything.
 */
export const tailRepairWork = { steps: 0 };

function countCode(text: string, from: number, code: number): number {
  let count = 0;
  for (let i = from; i < text.length; i++) {
    tailRepairWork.steps++;
    if (text.charCodeAt(i) === code) count++;
  }
  return count;
}

/**
 * How many `code` characters `text[from…]` has outside inline code spans, and whether the text
 * ends inside one. A span opens with a run of n backticks and closes at the next run of exactly
 * n (CommonMark); a run with no such partner opens a span still being written, which runs to
 * the end (`closeOpenInline` closes it for display).
 */
function countOutsideCodeSpans(
  text: string,
  from: number,
  code: number,
): { count: number; inCode: boolean } {
  const runs = backtickRuns(text, from);
  let count = 0;
  let cursor = from;
  const countUpTo = (stop: number) => {
    for (; cursor < stop; cursor++) {
      tailRepairWork.steps++;
      if (text.charCodeAt(cursor) === code) count++;
    }
  };
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r] as BacktickRun;
    countUpTo(run.start);
    if (run.partner === -1) return { count, inCode: true };
    const closer = runs[run.partner] as BacktickRun;
    cursor = closer.start + closer.length;
    r = run.partner;
  }
  countUpTo(text.length);
  return { count, inCode: false };
}

function countOf(text: string, char: string): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) count++;
  return count;
}
