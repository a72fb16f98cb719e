/**
 * Incremental, sliced tokenization of a code block that grows at its end (a streaming answer).
 *
 * A line is finished once a newline follows it. Finished lines are tokenized once, in order,
 * each starting from the grammar state the line before it ended in, so a finished line's tokens
 * (and colours) never change again, and a block that grows by one line costs one line. Only the
 * unfinished last line is tokenized again when it grows. Work stops at a deadline and resumes
 * where it stopped, so a 5,000-line block never holds the main thread for long.
 *
 * Nothing here knows about Shiki: the tokenizer is injected (`LineTokenizer`), which is what the
 * unit tests use too.
 */
import { startsWithText } from '../text-growth.js';

/** One coloured run of a line: its text and its colour in the light and the dark theme. */
export interface CodeToken {
  readonly content: string;
  /** CSS colour in the light theme; absent for the default foreground. */
  readonly light?: string | undefined;
  /** CSS colour in the dark theme; absent for the default foreground. */
  readonly dark?: string | undefined;
  /** Both themes set the run in italics (comments in most themes). Italics keep the width. */
  readonly italic?: boolean | undefined;
}

export type CodeTokenLine = readonly CodeToken[];

/** Tokenizes one line (no newline in it), starting from `state`; returns the state after it. */
export type LineTokenizer<State> = (
  line: string,
  state: State | undefined,
) => { tokens: CodeTokenLine; state: State };

/** What a code view renders: the tokens of each line it has, by line index. */
export interface CodeTokensSnapshot {
  /** Tokens of the finished lines, in order. Each entry keeps its identity across snapshots. */
  readonly finished: readonly CodeTokenLine[];
  /** The unfinished last line's tokens, and the text they were made from. */
  readonly tail: { readonly text: string; readonly tokens: CodeTokenLine } | null;
}

export class IncrementalCodeTokens<State> {
  private readonly tokenize: LineTokenizer<State>;
  private source = '';
  /** Characters of `source` covered by finished, tokenized lines (each with its newline). */
  private finishedLength = 0;
  /** `source` after the finished lines: the only part a step reads. */
  private rest = '';
  private finished: CodeTokenLine[] = [];
  private state: State | undefined;
  private tail: CodeTokensSnapshot['tail'] = null;
  private cached: CodeTokensSnapshot | null = null;

  constructor(tokenize: LineTokenizer<State>) {
    this.tokenize = tokenize;
  }

  /**
   * Tokenizes towards `code` until `deadline` (a `performance.now()` time). Returns true when
   * every line of `code` is tokenized, false when it stopped at the deadline (call again). At
   * least one line is tokenized per call, so repeated calls always progress.
   *
   * A `code` that does not extend the finished lines seen so far (an edit, not growth) starts
   * over from the first line.
   */
  advance(code: string, deadline: number, now: () => number = defaultNow): boolean {
    if (code !== this.source) {
      if (!startsWithText(code, this.source.slice(0, this.finishedLength))) this.reset();
      this.source = code;
      this.rest = code.slice(this.finishedLength);
    }
    return this.step(deadline, now);
  }

  /** The code is `code` now, from its first line (a new block, or one that changed). */
  replace(code: string): void {
    this.reset();
    this.source = code;
    this.rest = code;
  }

  /**
   * `text` was appended to the code. Nothing is read but the unfinished last line and
   * `text`: a growing block costs what it grew by, however long it is.
   */
  append(text: string): void {
    this.source += text;
    this.rest += text;
  }

  /** Tokenizes the code given so far (`replace`, `append`) until `deadline`; see `advance`. */
  step(deadline: number, now: () => number = defaultNow): boolean {
    const rest = this.rest;
    let at = 0;
    let progressed = false;
    let done = true;
    for (;;) {
      const newline = rest.indexOf('\n', at);
      if (newline === -1) break;
      if (progressed && now() >= deadline) {
        done = false;
        break;
      }
      const result = this.tokenize(rest.slice(at, newline), this.state);
      this.finished.push(result.tokens);
      this.state = result.state;
      this.finishedLength += newline + 1 - at;
      at = newline + 1;
      this.cached = null;
      progressed = true;
    }
    if (at > 0) this.rest = rest.slice(at);
    if (!done) return false;
    const tailText = this.rest;
    if (this.tail?.text !== tailText) {
      if (progressed && now() >= deadline) return false;
      this.tail = { text: tailText, tokens: this.tokenize(tailText, this.state).tokens };
      this.cached = null;
    }
    return true;
  }

  /** How many lines are finished (tokenized for good). */
  get finishedCount(): number {
    return this.finished.length;
  }

  /** The finished lines from `start` on: what a reader that has the first `start` lacks. */
  finishedFrom(start: number): readonly CodeTokenLine[] {
    return this.finished.slice(start);
  }

  /** The unfinished last line's tokens, and the text they were made from. */
  get tailTokens(): CodeTokensSnapshot['tail'] {
    return this.tail;
  }

  /** The tokens so far. The same object until something changes. */
  snapshot(): CodeTokensSnapshot {
    if (this.cached === null) this.cached = { finished: this.finished.slice(), tail: this.tail };
    return this.cached;
  }

  private reset(): void {
    this.finishedLength = 0;
    this.finished = [];
    this.state = undefined;
    this.tail = null;
    this.cached = null;
  }
}

function defaultNow(): number {
  return performance.now();
}

/**
 * The tokens the snapshot has for line `index`, or null. The snapshot may lag behind the code
 * (the next slice has not run yet): check them with `tokensMatch` before showing them.
 */
export function tokensForLine<Line>(
  snapshot: {
    readonly finished: readonly Line[];
    readonly tail: { readonly tokens: Line } | null;
  } | null,
  index: number,
): Line | null {
  if (snapshot === null) return null;
  if (index < snapshot.finished.length) return snapshot.finished[index] ?? null;
  if (index === snapshot.finished.length) return snapshot.tail?.tokens ?? null;
  return null;
}

/** The tokens spell exactly `text`: they were made from this line, not from an older one. */
export function tokensMatch(tokens: CodeTokenLine, text: string): boolean {
  return tokensCover(tokens, text) === text.length;
}

/**
 * How much of `text` the tokens spell from its start (its length: all of it), or -1 when they
 * are not a prefix of it (made from other text).
 */
export function tokensCover(tokens: CodeTokenLine, text: string): number {
  let at = 0;
  for (const token of tokens) {
    if (!text.startsWith(token.content, at)) return -1;
    at += token.content.length;
  }
  return at;
}
