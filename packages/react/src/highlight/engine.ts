/**
 * The Shiki side of code highlighting. This module is only ever loaded with a dynamic
 * `import()` (see `load.ts`): a page without a code block never loads it, Shiki's core, the
 * JavaScript regex engine, a grammar or a theme. Each grammar and theme is its own chunk too,
 * loaded the first time a block asks for it.
 */
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import type { Grammar, GrammarState, ThemedTokenWithVariants } from 'shiki/types';
import { mergeCodeTokens } from './merge-tokens.js';
import type { CodeToken, LineTokenizer } from './tokens.js';

const LIGHT = 'github-light-default';
const DARK = 'github-dark-default';
const THEMES = { light: LIGHT, dark: DARK } as const;

/**
 * Colours of the themes that fall below WCAG AA (4.5:1) on the kit's code background
 * (`--ms-bg-code`), replaced by the nearest shade that passes.
 */
const LIGHT_FIXES: Readonly<Record<string, string>> = { '#6e7781': '#59636e' };

/** Lines longer than this (minified code) stay plain: tokenizing them costs more than they show. */
const MAX_LINE_LENGTH = 2000;
/**
 * The most one theme's pass over a line may take; the rest of a pathological line comes back
 * as one run. A line that hit it is tokenized again for a while (`againWhenCutShort`): the
 * first lines of a grammar also compile its expressions, which on a busy machine took longer
 * than this three passes running, and the first line of the first block kept wrong colours
 * for good.
 */
const LINE_TIME_LIMIT_MS = 100;

/**
 * Whether a grammar's pass since the flag was last cleared stopped at the time limit. The
 * grammar says so (`stoppedEarly`) but Shiki drops it, so each grammar's `tokenizeLine2` is
 * wrapped once to raise this. Timing our own pass instead misjudged lines: a pass covers both
 * themes, so two whole passes of 60 ms each looked cut short.
 */
let stoppedEarly = false;
const watched = new WeakSet<Grammar>();

function watchStops(grammar: Grammar): void {
  if (watched.has(grammar)) return;
  watched.add(grammar);
  const tokenizeLine2 = grammar.tokenizeLine2.bind(grammar);
  grammar.tokenizeLine2 = (line, state, limit) => {
    const result = tokenizeLine2(line, state, limit);
    if (result.stoppedEarly) stoppedEarly = true;
    return result;
  };
}

/**
 * How long the passes over one line may take in all, before a line still cut short is kept as
 * it came back (`againWhenCutShort`). The limit is wall-clock time, so a busy machine cuts
 * quick lines short too, and more often the slower it is:
 * - `compileMs`, a grammar not yet compiled: each pass keeps what it compiled, so passes get
 *   further. On an overloaded machine compiling the TypeScript grammar's first line took more
 *   than 2 s of passes, and the line kept wrong colours (CI once, a clean clone here once).
 * - `stallMs`, a compiled grammar: a machine that stalls for a moment cuts a quick line short;
 *   it is quick when tried again (CI saw a finished line's dark colours cut short).
 * A line slow in itself costs the whole budget once; the same line grown (the growing last
 * line, tokenized again on each change) then gets one pass. On the main thread (where no
 * Worker starts) the budget holds the page, so it is short there; in the Worker it holds the
 * colours of every block (one Worker serves them all), not the page, so it is long
 * (`WORKER_RETRY_BUDGETS`). The compile budget is spent once per grammar at most: a grammar
 * is counted compiled after it, whatever came back.
 */
export interface RetryBudgets {
  readonly compileMs: number;
  readonly stallMs: number;
}

const MAIN_THREAD_RETRY_BUDGETS: RetryBudgets = { compileMs: 2000, stallMs: 400 };
export const WORKER_RETRY_BUDGETS: RetryBudgets = { compileMs: 30_000, stallMs: 2000 };
/** Characters (blanks aside) a line needs before it can count as slow in itself. */
const SLOW_LINE_MIN_LENGTH = 16;

let highlighter: Promise<HighlighterCore> | null = null;
/**
 * Grammars that have tokenized a line with something on it: compiled, so a line that hits the
 * limit now is slow in itself or was stalled, and is tried again for a shorter time (it holds
 * the Worker, and a growing last line is tokenized again on every change).
 */
const compiled = new Set<string>();
const languages = new Map<string, Promise<string | null>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [
      import('shiki/themes/github-light-default.mjs'),
      import('shiki/themes/github-dark-default.mjs'),
    ],
    langs: [],
    // `forgiving`: a grammar rule the JavaScript engine cannot translate matches nothing
    // instead of failing the whole grammar.
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighter;
}

/**
 * Loads the grammar for a fence's language (`ts`, `Python`, `c++`, …). Resolves to the
 * grammar's id, or null when Shiki has no such language (the block stays plain).
 */
function loadLanguage(core: HighlighterCore, language: string): Promise<string | null> {
  const key = language.toLowerCase();
  let loading = languages.get(key);
  if (!loading) {
    const grammar = Object.hasOwn(bundledLanguages, key)
      ? bundledLanguages[key as keyof typeof bundledLanguages]
      : undefined;
    loading = grammar
      ? core.loadLanguage(grammar).then(
          () => key,
          () => null,
        )
      : Promise.resolve(null);
    languages.set(key, loading);
  }
  return loading;
}

/**
 * A line tokenizer for `language`, or null when the language is unknown. Never rejects: a
 * failure to load Shiki or a grammar leaves the block plain, which is still correct.
 */
export async function createLineTokenizer(
  language: string,
  now: () => number = () => performance.now(),
  budgets: RetryBudgets = MAIN_THREAD_RETRY_BUDGETS,
): Promise<LineTokenizer<GrammarState> | null> {
  try {
    const core = await getHighlighter();
    const lang = await loadLanguage(core, language);
    if (lang === null) return null;
    const plain = { light: defaultColor(core, LIGHT), dark: defaultColor(core, DARK) };
    watchStops(core.getLanguage(lang));
    const tokenizeLine = (line: string, grammarState?: GrammarState) =>
      core.codeToTokensWithThemes(line, {
        lang,
        themes: THEMES,
        grammarState,
        tokenizeMaxLineLength: MAX_LINE_LENGTH,
        tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
      });
    /**
     * A line that was still cut short when its budget ran out: slow in itself. Only a line of
     * some length counts (a stall that outlasted a budget must not mark an indent or an empty
     * growing line, which every line would start with), and only until a line that does not
     * start with it.
     */
    let slow: string | null = null;
    return (line, state) => {
      if (slow !== null && !line.startsWith(slow)) slow = null;
      const run = () => {
        stoppedEarly = false;
        const result = tokenizeLine(line, state);
        return { result, cutShort: stoppedEarly };
      };
      const compiling = !compiled.has(lang);
      const budget = slow !== null ? 0 : compiling ? budgets.compileMs : budgets.stallMs;
      const tried = againWhenCutShort(run, now, budget);
      // A line within the limit, or a whole compile budget spent: either way the grammar is
      // compiled. Not by a blank line: Shiki does not tokenize it, and a streaming block's
      // growing last line is empty first, so its first real line would have had no retries.
      if (compiling && line.trim() !== '') compiled.add(lang);
      if (tried.cutShort && budget > 0 && line.trim().length >= SLOW_LINE_MIN_LENGTH) slow = line;
      const lines = tried.result;
      // A line cut short ends in the middle of it (inside a parameter list, say): carried on,
      // that state would colour every later line of the block wrong. The state before the
      // line is what a line that closes what it opens leaves.
      const next = tried.cutShort
        ? (state ?? core.getLastGrammarState(tokenizeLine('')))
        : (core.getLastGrammarState(lines) ?? state);
      if (next === undefined) throw new Error('Shiki returned no grammar state');
      return { tokens: toCodeTokens(lines[0] ?? [], plain), state: next };
    };
  } catch {
    return null;
  }
}

/**
 * Runs `tokenize`, and again while a pass comes back cut short (the rest of the line one run
 * in the last colour), until the passes have taken `budgetMs` in all; then the last pass is
 * kept as it is. The first lines of a grammar compile its expressions; on an overloaded
 * machine that took three passes over the limit, and each pass keeps what it compiled, so the
 * next gets further.
 */
export function againWhenCutShort<T>(
  tokenize: () => { result: T; cutShort: boolean },
  now: () => number = () => performance.now(),
  budgetMs = 0,
): { result: T; cutShort: boolean } {
  const began = now();
  for (;;) {
    const pass = tokenize();
    if (!pass.cutShort || now() - began >= budgetMs) return pass;
  }
}

/** A theme's default text colour, lower case: a run in it is drawn in the block's own. */
function defaultColor(core: HighlighterCore, theme: string): string | undefined {
  try {
    return core.getTheme(theme).fg.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Shiki's runs as the kit's tokens: a colour that is the theme's default text colour is left
 * out (the run is plain text in the block's own colour, no element of its own), and runs that
 * look the same are joined (see `mergeCodeTokens`).
 */
export function toCodeTokens(
  line: readonly ThemedTokenWithVariants[],
  plain: { readonly light?: string | undefined; readonly dark?: string | undefined } = {},
): CodeToken[] {
  const tokens = line.map((token): CodeToken => {
    const light = token.variants.light;
    const dark = token.variants.dark;
    const lightColor = light?.color?.toLowerCase();
    const darkColor = dark?.color?.toLowerCase();
    const isPlain = lightColor === plain.light && darkColor === plain.dark;
    return {
      content: token.content,
      light: isPlain || !lightColor ? undefined : (LIGHT_FIXES[lightColor] ?? lightColor),
      dark: isPlain || !darkColor ? undefined : darkColor,
      // fontStyle is a bit set; 1 is italic. Bold and underline are left out: bold changes
      // the width of some monospace fonts, and the block must not move when colours arrive.
      italic: ((light?.fontStyle ?? 0) & 1) === 1 && ((dark?.fontStyle ?? 0) & 1) === 1,
    };
  });
  return mergeCodeTokens(tokens);
}
