import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { loadLineTokenizer } from './load.js';
import { type CodeTokensSnapshot, IncrementalCodeTokens } from './tokens.js';

/** Longest stretch of tokenizing per task: well inside a 16 ms frame, leaving room to render. */
export const SLICE_MS = 8;

// Runs before paint, so a line that grows during streaming keeps its colours in the same frame
// (no plain flash); on the server, where there is no paint, a plain effect does (never runs).
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Tokens for a code block that may still be growing, or null while there are none (highlighting
 * off, the language unknown, Shiki not loaded yet): the block then shows plain text, laid out
 * exactly like the highlighted text, so nothing moves when colours arrive.
 *
 * The first call for a language loads its grammar (a chunk of its own). Tokenizing runs in
 * slices of `SLICE_MS`, yielding to the browser between them, so a 5,000-line block never blocks
 * a frame; a streaming block tokenizes its new lines and its last line, nothing else.
 */
export function useCodeTokens(
  code: string,
  language: string | undefined,
  enabled = true,
): CodeTokensSnapshot | null {
  const [tokens, setTokens] = useState<IncrementalCodeTokens<unknown> | null>(null);
  const [snapshot, setSnapshot] = useState<CodeTokensSnapshot | null>(null);
  const lang = enabled && language ? language : '';

  useEffect(() => {
    setTokens(null);
    setSnapshot(null);
    if (lang === '') return;
    let live = true;
    void loadLineTokenizer(lang).then((tokenize) => {
      if (live && tokenize) setTokens(new IncrementalCodeTokens(tokenize));
    });
    return () => {
      live = false;
    };
  }, [lang]);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useBeforePaint(() => {
    if (tokens === null) return;
    let live = true;
    const slice = () => {
      let done: boolean;
      try {
        done = tokens.advance(code, performance.now() + SLICE_MS);
      } catch {
        // A grammar that throws mid-block: keep what is tokenized, show the rest plain.
        return;
      }
      setSnapshot(tokens.snapshot());
      if (!done && live) timer.current = setTimeout(slice, 0);
    };
    slice();
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, [tokens, code]);

  return snapshot;
}
