import { flatCopy } from '../flat-copy.js';
import { appendedSince, recordAppend, startsWithText } from '../text-growth.js';

/**
 * Splits markdown into top-level blocks, so a streaming answer can be rendered block by block:
 * every finished block is parsed once, and each delta re-parses only the block still growing.
 *
 * The split only has to be *safe*, not minimal: rendering two blocks as one chunk gives exactly
 * what markdown gives for the whole text, while cutting inside one block (a fence with blank
 * lines in it, a loose list) would change it. So the splitter cuts only at a blank line that is
 * followed by a line which cannot continue what came before, and merges whenever in doubt.
 */

/** A run of text markdown renders on its own: one top-level block or a few that stay together. */
export interface MarkdownChunk {
  /** Offset of the chunk's first character in the whole text; stable, so it is the chunk's key. */
  readonly start: number;
  /**
   * Offset just past the newline ending the chunk's last non-blank line (or the end of the
   * text). Blank lines between chunks belong to none; a fence or HTML block left open at the end
   * of the text keeps its trailing blank lines, as they are part of its content.
   */
  readonly end: number;
  readonly text: string;
  /**
   * The chunk's link reference and footnote definition lines ('' when none), each a whole line
   * where a definition can start. Definitions apply to the whole document, so they are also
   * given to every chunk that may refer to them.
   */
  readonly definitions: string;
  /** The chunk is nothing but definitions: it renders nothing of its own. */
  readonly definitionsOnly: boolean;
  /** The chunk contains `[`: it may refer to a definition elsewhere. */
  readonly references: boolean;
}

/** A fenced code block still open at the end of the text. */
export interface OpenFence {
  /** The fence as written, e.g. "```" or "~~~~": the same run closes it. */
  readonly marker: string;
  /** The opening line's indentation (0–3 spaces), repeated on a virtual closing line. */
  readonly indent: string;
  /** Offset of the opening line, relative to the start of the chunk it is in. */
  readonly lineStart: number;
  /** The opening line is the last line and has no newline yet (its info string may still grow). */
  readonly openerIncomplete: boolean;
}

export interface MarkdownSplit {
  /** The text this split is of; a later call resumes from it when the new text extends it. */
  readonly source: string;
  /** Every chunk, in order. All but the last are final: no later text can change them. */
  readonly chunks: readonly MarkdownChunk[];
  /** Set when the last chunk ends inside a fenced code block. */
  readonly openFence: OpenFence | null;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A list item that may start a list in the middle of a paragraph: not empty, numbered from 1. */
const INTERRUPTING_ITEM = /^ {0,3}(?:[-+*]|1[.)])[ \t]+\S/;
const MAYBE_LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)]?)$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const BLOCKQUOTE = /^ {0,3}>/;
const BLANK = /^[ \t\r]*$/;
const DEFINITION = /^ {0,3}\[\^?[^\]\n]+\]:/;
/** Indented by four columns or more. */
const INDENTED = /^(?: {4}| {0,3}\t)/;
/** Under a paragraph line, turns it into a heading. */
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;

/** HTML blocks that run until an end marker rather than until a blank line (CommonMark 1–5). */
const HTML_BLOCKS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
/** HTML blocks that run to the next blank line, kind 6 (block tags; may interrupt a paragraph)… */
const HTML_BLOCK_TAG =
  /^ {0,3}<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \t>]|\/>|$)/i;
/** …and kind 7 (any lone complete tag; may not interrupt a paragraph). */
const HTML_LONE_TAG =
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;

/**
 * Splits `text` into chunks. Pass the previous split of the same growing text as `previous`:
 * when `text` extends it, the final chunks are reused as they are (same objects) and scanning
 * resumes at the start of the previous text's last line, where the scan stood then, so the
 * work per call is bounded by that line and the new text: not by the last chunk, which in a
 * code answer is one fence as long as the answer.
 */
export function splitMarkdown(text: string, previous?: MarkdownSplit | null): MarkdownSplit {
  const resume = previous ? resumes.get(previous) : undefined;
  if (previous && resume !== undefined) {
    // Recorded as the previous text plus an append (text-growth.ts): only that is read.
    const appended = appendedSince(text, previous.source);
    if (appended !== undefined) return splitAppended(text, previous, resume, appended);
    // Not `startsWith`, which compares character by character: this runs every frame an
    // unrecorded text grows, on the whole answer (0.2-0.5 ms at 250 KB, measured).
    if (startsWithText(text, previous.source)) {
      return reuseFinal(
        scan(text, resume.state, previous.chunks.slice(0, resume.state[1]), true),
        previous,
        resume,
      );
    }
  }
  return scan(text, START, []);
}

/**
 * A chunk the last line closed was final already (all but the last are): it stays the same
 * object, which is what keeps its view from rendering again.
 */
function reuseFinal(split: MarkdownSplit, previous: MarkdownSplit, resume: Resume): MarkdownSplit {
  const chunks = split.chunks as MarkdownChunk[];
  for (let i = resume.state[1]; i < previous.chunks.length - 1; i++) {
    const before = previous.chunks[i] as MarkdownChunk;
    if (chunks[i]?.start === before.start) chunks[i] = before;
  }
  return split;
}

/**
 * The split of `text`, known to be `previous.source` followed by `appended`, reading only the
 * previous text's last line and `appended`: the chunk still open is carried as the part
 * before that line (`head`) plus what is read, built by appending, so a code answer's fence
 * costs each frame what arrived, not its length. Its growth is recorded, for `fencedCode`.
 */
function splitAppended(
  text: string,
  previous: MarkdownSplit,
  resume: Resume,
  appended: string,
): MarkdownSplit {
  const state = resume.state;
  const base = state[0];
  const chunkStart = state[2];
  let { line, head, headRefs } = resume;
  if (line === undefined || head === undefined || headRefs === undefined) {
    // The previous split read its whole text: what it knew is cut from that, once, as copies.
    const source = previous.source;
    line = flatCopy(source.slice(base));
    head = chunkStart !== -1 && chunkStart < base ? flatCopy(source.slice(chunkStart, base)) : '';
    headRefs = head.includes('[');
  }
  const tail: TailRead = { text: line + appended, base, head, headRefs };
  const split = reuseFinal(
    scan(text, state, previous.chunks.slice(0, state[1]), true, tail),
    previous,
    resume,
  );
  const before = previous.chunks.at(-1);
  const after = split.chunks.at(-1);
  if (before !== undefined && after !== undefined && before.start === after.start) {
    const from = before.end - base;
    if (from >= 0 && after.end >= before.end) {
      recordAppend(after.text, before.text, tail.text.slice(from, after.end - base));
    }
  }
  return split;
}

interface Fence {
  char: string;
  length: number;
  indent: string;
  lineStart: number;
  /** Opened inside a list item (indented, while the list was going on). */
  inList: boolean;
}

/**
 * Where the scan stood at the start of a line: everything the lines before it decided. Each
 * line is read from this and the line alone, so scanning from a saved state gives what a scan
 * from the start gives. A tuple, not an object: it is saved at every call's last line, and
 * its fields' names would be most of the bytes it costs.
 */
type ScanState = readonly [
  pos: number,
  /** How many chunks had been closed: they are final. */
  closedCount: number,
  chunkStart: number,
  contentEnd: number,
  sawBlank: boolean,
  /** The chunk has had a list: after a blank line, items and indented lines may continue it. */
  listOpen: boolean,
  /** The list is still going on at this line (not ended by a heading, a quote, a fence…). */
  listActive: boolean,
  /** The last content line was indented 4+: possibly indented code, which blank lines can continue. */
  lastIndented: boolean,
  /** A paragraph is open: the next line may continue it lazily, and no definition can start. */
  inParagraph: boolean,
  /** That paragraph is in a list item or quote, where `===` under it is text, not a heading. */
  nestedParagraph: boolean,
  /** The last line was a definition: another may follow, but to anything else it is a paragraph. */
  afterDefinition: boolean,
  definitions: string,
  fence: Fence | null,
  fenceOpenerIncomplete: boolean,
  /** In an HTML block that ends at the line matching this (kinds 1–5)… */
  htmlEnd: RegExp | null,
  /** …or at the next blank line (kinds 6 and 7). Either way its lines are raw text. */
  htmlToBlank: boolean,
];

const START: ScanState = [
  0,
  0,
  -1,
  -1,
  false,
  false,
  false,
  false,
  false,
  false,
  false,
  '',
  null,
  false,
  null,
  false,
];

/**
 * Each split's scan state at the start of its text's last line: the next, longer text may
 * finish that line differently (a newline, more of a fence marker), so it is read again.
 * Kept beside the split rather than in it, so the public shape stays what users read.
 */
const resumes = new WeakMap<MarkdownSplit, Resume>();

/**
 * Where a split's scan stood at its text's last line, and, for a split made from an append
 * (whose text is never read whole), that line's text and the open chunk's text before it.
 */
interface Resume {
  readonly state: ScanState;
  /** The text from the last line's start to the end. */
  readonly line?: string;
  /** The open chunk's text from its start to the last line's start ('' when none). */
  readonly head?: string;
  /** `head` contains `[`. */
  readonly headRefs?: boolean;
}

/**
 * What a scan from an append reads: `text`, the text from `base` on (the previous text's
 * last line and the append), and the open chunk's text before `base`.
 */
interface TailRead {
  readonly text: string;
  readonly base: number;
  readonly head: string;
  readonly headRefs: boolean;
}

/**
 * `resumed`: `text` is one of a growing text's versions, so what a chunk closed here holds, and
 * the definition lines the scan carries on, are kept by the next splits. They are then copies
 * of their own (`flatCopy`): as slices each would keep this version of the whole text alive.
 * The last chunk is made again by every split. A split from scratch slices its text: its
 * chunks keep that one text alive, as its source does (a view that mounts mid-stream keeps
 * the text of its first split so, once).
 *
 * `tail`: the text is known to extend the last split's by an append, and only the text from
 * its last line on is read (`splitAppended`); the open chunk is that chunk's text before the
 * line plus what is read, and closed chunks and the next split's state are built the same way.
 */
function scan(
  text: string,
  from: ScanState,
  closed: MarkdownChunk[],
  resumed = false,
  tail?: TailRead,
): MarkdownSplit {
  let [
    pos,
    ,
    chunkStart,
    contentEnd,
    sawBlank,
    listOpen,
    listActive,
    lastIndented,
    inParagraph,
    nestedParagraph,
    afterDefinition,
    definitions,
    fence,
    fenceOpenerIncomplete,
    htmlEnd,
    htmlToBlank,
  ] = from;
  let lastLine = from;
  // Offsets are the whole text's; `src` holds it from `base` on (all of it but from an append).
  const base = tail?.base ?? 0;
  const src = tail?.text ?? text;
  const total = base + src.length;
  const headStart = chunkStart;
  /**
   * The text from `start` to `end`. A chunk starting before `base` is the open chunk, which
   * starts at `headStart` (no chunk starts inside it): its head, then what is read.
   */
  const piece = (start: number, end: number): string => {
    if (start >= base) return src.slice(start - base, end - base);
    const head = (tail as TailRead).head;
    return end <= base ? head.slice(0, end - headStart) : head + src.slice(0, end - base);
  };
  /** Whether the text from `start` to `end` has a `[`: for the open chunk, without its head. */
  const refs = (start: number, end: number): boolean =>
    tail !== undefined && start < base && end > base
      ? tail.headRefs || src.slice(0, end - base).includes('[')
      : piece(start, end).includes('[');
  const chunkOf = (start: number, end: number, defs: string, own = false): MarkdownChunk => {
    // The newline is kept: markdown reads a last line with and without one differently.
    // (A content line before `base` had a line after it, so it ended with one.)
    const stop = end < base || src.charCodeAt(end - base) === 10 ? end + 1 : end;
    return makeChunk(piece(start, stop), start, stop, defs, refs(start, stop), own);
  };
  let lastHead: string | undefined;
  let lastHeadRefs: boolean | undefined;

  while (pos < total) {
    const at = src.indexOf('\n', pos - base);
    const complete = at !== -1;
    const newline = complete ? at + base : -1;
    const lineEnd = complete ? newline : total;
    const next = complete ? newline + 1 : total;
    if (next === total) {
      lastLine = [
        pos,
        closed.length,
        chunkStart,
        contentEnd,
        sawBlank,
        listOpen,
        listActive,
        lastIndented,
        inParagraph,
        nestedParagraph,
        afterDefinition,
        definitions,
        fence,
        fenceOpenerIncomplete,
        htmlEnd,
        htmlToBlank,
      ];
      if (tail !== undefined) {
        // What the next append's split needs and could not read: the open chunk so far.
        if (chunkStart === -1 || chunkStart >= pos) {
          lastHead = '';
          lastHeadRefs = false;
        } else if (chunkStart === headStart && chunkStart < base) {
          const more = flatCopy(src.slice(0, pos - base));
          lastHead = tail.head + more;
          lastHeadRefs = tail.headRefs || more.includes('[');
        } else {
          lastHead = flatCopy(piece(chunkStart, pos));
          lastHeadRefs = lastHead.includes('[');
        }
      }
    }
    const line = src.slice(pos - base, lineEnd - base);
    const blank = BLANK.test(line);

    if (fence?.inList && !blank && indentOf(line) < fence.indent.length) {
      // A line left of a fence opened in a list item ends the item, and the fence with it; the
      // line is read afresh. If the item did go on, the chunk still cannot split before a blank
      // line and an unindented line, which would end the item anyway: this is safe.
      fence = null;
      listActive = false;
    }
    if (fence) {
      // Inside a fence every line, blank or not, is content; only a complete closing line ends it.
      if (complete && isFenceCloser(line, fence.char, fence.length)) fence = null;
      contentEnd = lineEnd;
      pos = next;
      continue;
    }
    if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = null;
      contentEnd = lineEnd;
      pos = next;
      continue;
    }
    if (htmlToBlank && !blank) {
      contentEnd = lineEnd;
      pos = next;
      continue;
    }
    if (blank) {
      if (chunkStart !== -1) sawBlank = true;
      inParagraph = false;
      htmlToBlank = false;
      pos = next;
      continue;
    }

    const indented = line.startsWith(' ') || line.startsWith('\t');
    if (chunkStart === -1) {
      chunkStart = pos;
    } else if (sawBlank) {
      const continues =
        lastIndented ||
        indented ||
        (listOpen &&
          ((LIST_ITEM.test(line) && !THEMATIC_BREAK.test(line)) ||
            (!complete && MAYBE_LIST_ITEM.test(line))));
      if (!continues) {
        closed.push(chunkOf(chunkStart, contentEnd, definitions, resumed));
        chunkStart = pos;
        listOpen = false;
        listActive = false;
        definitions = '';
      }
    }
    sawBlank = false;

    const lazy = inParagraph && nestedParagraph;
    let lazyText = false;
    let isDefinition = false;
    const opener = openFence(line, pos, listActive && indentOf(line) > 0);
    const html = opener ? undefined : HTML_BLOCKS.find(([start]) => start.test(line));
    if (opener) {
      fence = opener;
      fenceOpenerIncomplete = !complete;
      inParagraph = false;
    } else if (html) {
      if (!html[1].test(line.replace(html[0], ''))) htmlEnd = html[1];
      inParagraph = false;
    } else if (HTML_BLOCK_TAG.test(line) || (!inParagraph && HTML_LONE_TAG.test(line))) {
      htmlToBlank = true;
      inParagraph = false;
    } else if ((!inParagraph || afterDefinition) && DEFINITION.test(line)) {
      // Kept in the scan state and the chunk: resumed, a copy (a slice keeps this text alive).
      const own = resumed ? flatCopy(line) : line;
      definitions += definitions === '' ? own : `\n${own}`;
      isDefinition = true;
      inParagraph = true;
      nestedParagraph = listActive || BLOCKQUOTE.test(line);
    } else if (inParagraph && !nestedParagraph && !afterDefinition && SETEXT_UNDERLINE.test(line)) {
      inParagraph = false;
    } else if (
      LIST_ITEM.test(line) &&
      !THEMATIC_BREAK.test(line) &&
      // After paragraph text (or indented code, to the parser) only some items start a list.
      (listActive || (!inParagraph && !lastIndented) || INTERRUPTING_ITEM.test(line))
    ) {
      listOpen = true;
      listActive = true;
      inParagraph = true;
      nestedParagraph = true;
    } else if (
      ATX_HEADING.test(line) ||
      THEMATIC_BREAK.test(line) ||
      (!inParagraph && !listActive && INDENTED.test(line))
    ) {
      // A heading, a break, or indented code: no paragraph text.
      inParagraph = false;
    } else {
      const quote = BLOCKQUOTE.test(line);
      // A quote starts a new block; other text continues an open paragraph (lazily, in a list).
      if (!inParagraph || quote) nestedParagraph = listActive || quote;
      inParagraph = true;
      // A line starting like HTML may be an HTML block to the parser: taking it as the end of the
      // list only stops a fence after it from being read as inside the list, which is the safe side.
      lazyText = lazy && !quote && !/^ {0,3}</.test(line);
    }
    afterDefinition = isDefinition;
    // Anything that looks like a list item (in a quote too) lets blank lines continue the chunk:
    // merging more than needed is always safe.
    const unquoted = line.replace(/^(?: {0,3}>[ \t]?)+/, '');
    if (LIST_ITEM.test(unquoted) && !THEMATIC_BREAK.test(unquoted)) listOpen = true;
    // The list goes on through indented lines, items and lazy paragraph text; anything else ends it.
    const continuesList = indented || (listActive && LIST_ITEM.test(line)) || lazyText;
    if (!continuesList) listActive = false;
    lastIndented = INDENTED.test(line);
    contentEnd = lineEnd;
    pos = next;
  }

  const resume: Resume =
    tail === undefined
      ? { state: lastLine }
      : {
          state: lastLine,
          line: flatCopy(src.slice(lastLine[0] - base)),
          head: lastHead ?? tail.head,
          headRefs: lastHeadRefs ?? tail.headRefs,
        };
  if (chunkStart === -1) return remember({ source: text, chunks: closed, openFence: null }, resume);
  closed.push(chunkOf(chunkStart, fence || htmlEnd ? total : contentEnd, definitions));
  return remember(
    {
      source: text,
      chunks: closed,
      openFence: fence
        ? {
            marker: fence.char.repeat(fence.length),
            indent: fence.indent,
            lineStart: fence.lineStart - chunkStart,
            openerIncomplete: fenceOpenerIncomplete,
          }
        : null,
    },
    resume,
  );
}

function remember(split: MarkdownSplit, resume: Resume): MarkdownSplit {
  resumes.set(split, resume);
  return split;
}

/** The fence a line opens, if it is an opening fence line. */
function openFence(line: string, lineStart: number, inList: boolean): Fence | null {
  const opener = FENCE.exec(line);
  const marker = opener?.[2];
  if (!opener || marker === undefined) return null;
  // A backtick fence's info string cannot contain a backtick (it is inline code instead).
  if (marker.startsWith('`') && opener[3]?.includes('`')) return null;
  return {
    char: marker.charAt(0),
    length: marker.length,
    indent: opener[1] ?? '',
    lineStart,
    inList,
  };
}

/** Leading whitespace in columns (a tab to the next multiple of four). */
function indentOf(line: string): number {
  let columns = 0;
  for (const char of line) {
    if (char === ' ') columns++;
    else if (char === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

function isFenceCloser(line: string, char: string, length: number): boolean {
  const match = /^ {0,3}(`+|~+)[ \t\r]*$/.exec(line);
  const run = match?.[1];
  return run !== undefined && run.charAt(0) === char && run.length >= length;
}

function makeChunk(
  text: string,
  start: number,
  end: number,
  definitions: string,
  references: boolean,
  own = false,
): MarkdownChunk {
  const chunk = own ? flatCopy(text) : text;
  return {
    start,
    end,
    text: chunk,
    definitions: own && definitions !== '' ? flatCopy(definitions) : definitions,
    definitionsOnly: definitions !== '' && definitions.length >= chunk.trimEnd().length,
    references,
  };
}
