import type { CodeToken } from './tokens.js';

/**
 * (Its own module: only the tokenizer's chunk needs it, not the main entry.)
 *
 * The fewest runs that draw `tokens` the same: a run of only spaces and tabs joins its
 * neighbour (its colour shows nowhere; italics keep a monospace width), and neighbours of the
 * same colours join. Every run is an element the page styles and lays out; in a long block the
 * elements are most of the cost of each frame, and Shiki splits at every space.
 */
export function mergeCodeTokens(tokens: readonly CodeToken[]): CodeToken[] {
  const out: CodeToken[] = [];
  let blank = '';
  for (const token of tokens) {
    if (BLANK.test(token.content)) {
      const last = out.at(-1);
      if (last === undefined) blank += token.content;
      else out[out.length - 1] = { ...last, content: last.content + token.content };
      continue;
    }
    const last = out.at(-1);
    if (last !== undefined && sameLook(last, token)) {
      out[out.length - 1] = { ...last, content: last.content + token.content };
    } else {
      out.push(blank === '' ? token : { ...token, content: blank + token.content });
    }
    blank = '';
  }
  // A line of nothing but blanks: one plain run.
  if (blank !== '') out.push({ content: blank });
  return out;
}

const BLANK = /^[ \t]*$/;

function sameLook(a: CodeToken, b: CodeToken): boolean {
  return a.light === b.light && a.dark === b.dark && (a.italic ?? false) === (b.italic ?? false);
}
