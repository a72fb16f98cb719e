import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { type CodeRunsSnapshot, CodeTokensSource } from './client.js';

// Sends the code as soon as it is committed; on the server, where nothing runs, a plain effect.
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

const noSubscribe = (): (() => void) => () => {};
const noSnapshot = (): null => null;

/**
 * The tokenizer source of a code block that may still be growing, fed its code on every commit;
 * null when there is nothing to highlight (highlighting off, no language). Read its tokens with
 * `useCodeTokensSnapshot`, in the component that draws the lines: a result re-renders that
 * component only, not the block around it.
 *
 * Tokenizing runs off the main thread (a Worker; slices between tasks where there is none), and
 * each finished line is tokenized once. Results reach React at most once per frame, inside the
 * stream's own commit while it streams (see `publish.ts`), so highlighting adds no commits.
 */
export function useCodeTokensSource(
  code: string,
  language: string | undefined,
  enabled = true,
): CodeTokensSource | null {
  const lang = enabled && language ? language : '';
  const source = useMemo(() => (lang === '' ? null : new CodeTokensSource(lang)), [lang]);
  useBeforePaint(() => {
    if (source === null) return;
    source.attach();
    return () => source.detach();
  }, [source]);
  useBeforePaint(() => {
    source?.update(code);
  }, [source, code]);
  return source;
}

/**
 * The tokens so far, or null while there are none (the language unknown, Shiki not loaded
 * yet): the block then shows plain text, laid out exactly like the highlighted text, so nothing
 * moves when colours arrive.
 */
export function useCodeTokensSnapshot(source: CodeTokensSource | null): CodeRunsSnapshot | null {
  return useSyncExternalStore(
    source?.subscribe ?? noSubscribe,
    source?.getSnapshot ?? noSnapshot,
    noSnapshot,
  );
}
