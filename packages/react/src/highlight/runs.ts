import type { CodeToken, CodeTokenLine } from './tokens.js';

/**
 * Tokens in a compact form, for what crosses from the tokenizer to the page and what the page
 * keeps: per batch of lines one string and two typed arrays, instead of an object and three
 * strings per token. A 5,000-line block was some 40,000 token objects and 120,000 strings,
 * each read out of a message on the main thread and kept alive for good, which minor GCs
 * copied and promoted while the block streamed; now it is about a hundred batches and one
 * small object per line.
 *
 * A run's look is a style: an index into the block's list of the looks it has used, which
 * grows as new ones appear (a block uses a few dozen). Style 0 is the block's own text colour:
 * a run in it is plain text, no element.
 */

/** A run's look: its colour in the light and in the dark theme, and italics. */
export interface CodeStyle {
  readonly light?: string | undefined;
  readonly dark?: string | undefined;
  readonly italic?: boolean | undefined;
}

/** Lines' runs, compactly. */
export interface EncodedLines {
  /** The lines' text, one after another (no separator between them). */
  readonly text: string;
  /** Per line: how many runs the lines up to and including it have (line i's runs end there). */
  readonly ends: Uint32Array;
  /** Per run: its length in characters, then its style. Two numbers a run. */
  readonly runs: Uint32Array;
}

/** The styles a block's runs refer to, in the order they were first used. */
export class StylePalette {
  readonly styles: CodeStyle[] = [{}];
  private readonly ids = new Map<string, number>([[styleKey({}), 0]]);

  /** The style's index, added if it is new. */
  idOf(token: CodeToken): number {
    const key = styleKey(token);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.styles.length;
      this.styles.push({
        ...(token.light ? { light: token.light } : {}),
        ...(token.dark ? { dark: token.dark } : {}),
        ...(token.italic ? { italic: true } : {}),
      });
      this.ids.set(key, id);
    }
    return id;
  }
}

function styleKey(style: CodeStyle): string {
  return `${style.light ?? ''}|${style.dark ?? ''}|${style.italic ? 'i' : ''}`;
}

/** `lines` in the compact form; their styles are added to `palette`. */
export function encodeLines(lines: readonly CodeTokenLine[], palette: StylePalette): EncodedLines {
  let count = 0;
  for (const line of lines) count += line.length;
  const ends = new Uint32Array(lines.length);
  const runs = new Uint32Array(count * 2);
  let text = '';
  let run = 0;
  for (const [i, line] of lines.entries()) {
    for (const token of line) {
      runs[run * 2] = token.content.length;
      runs[run * 2 + 1] = palette.idOf(token);
      text += token.content;
      run++;
    }
    ends[i] = run;
  }
  return { text, ends, runs };
}

/**
 * How a style is drawn: a span of a class, with its colours as the custom properties the class
 * reads (`--ms-tok-light`, `--ms-tok-dark`; content.css).
 */
export interface StyleView {
  /** The style of the block's own text: the run is plain text, no element. */
  readonly plain: boolean;
  readonly className: string;
  readonly light: string | undefined;
  readonly dark: string | undefined;
}

/** How each style of a palette is drawn. */
export function styleViews(styles: readonly CodeStyle[]): StyleView[] {
  return styles.map((style) => ({
    plain: !style.light && !style.dark && !style.italic,
    className: style.italic ? 'ms-code__tok ms-code__tok--italic' : 'ms-code__tok',
    light: style.light || undefined,
    dark: style.dark || undefined,
  }));
}

/**
 * One line's runs on the page: a view into the batch it came in. A line keeps its object for
 * as long as its tokens stand, so React can tell an unchanged line by identity.
 */
export class CodeRunsLine {
  readonly batch: EncodedLines;
  /** Where the line's text starts and ends in the batch's text. */
  readonly from: number;
  readonly to: number;
  /** The line's first run and the run after its last, in the batch. */
  readonly firstRun: number;
  readonly endRun: number;
  readonly styles: readonly StyleView[];

  constructor(
    batch: EncodedLines,
    from: number,
    to: number,
    firstRun: number,
    endRun: number,
    styles: readonly StyleView[],
  ) {
    this.batch = batch;
    this.from = from;
    this.to = to;
    this.firstRun = firstRun;
    this.endRun = endRun;
    this.styles = styles;
  }

  /**
   * How much of `text` the runs spell from its start (all of their text: they were made from
   * it, or from the start of a line that has grown since), or -1 when they were made from
   * other text (an older version of the block).
   */
  cover(text: string): number {
    const length = this.to - this.from;
    if (length > text.length) return -1;
    const spelled = this.batch.text.slice(this.from, this.to);
    return spelled === (length === text.length ? text : text.slice(0, length)) ? length : -1;
  }
}

/** The lines of a batch as views (`styles`: how the batch's palette is drawn). */
export function decodeLines(batch: EncodedLines, styles: readonly StyleView[]): CodeRunsLine[] {
  const lines: CodeRunsLine[] = [];
  let from = 0;
  let run = 0;
  for (const end of batch.ends) {
    const start = run;
    const lineFrom = from;
    for (; run < end; run++) from += batch.runs[run * 2] as number;
    lines.push(new CodeRunsLine(batch, lineFrom, from, start, end, styles));
  }
  return lines;
}

/** A line's runs as tokens again (tests, and anything that wants the long form). */
export function lineTokens(line: CodeRunsLine, palette: readonly CodeStyle[]): CodeToken[] {
  const tokens: CodeToken[] = [];
  let at = line.from;
  for (let run = line.firstRun; run < line.endRun; run++) {
    const length = line.batch.runs[run * 2] as number;
    const style = palette[line.batch.runs[run * 2 + 1] as number] ?? {};
    tokens.push({ content: line.batch.text.slice(at, at + length), ...style });
    at += length;
  }
  return tokens;
}
