import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { CodeTokensSource } from './client.js';
import type { CodeTokensSnapshot } from './tokens.js';

export { SLICE_MS } from './session.js';

// Sends the code as soon as it is committed; on the server, where nothing runs, a plain effect.
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

const noSubscribe = (): (() => void) => () => {};
const noSnapshot = (): null => null;

/**
 * Tokens for a code block that may still be growing, or null while there are none (highlighting
 * off, the language unknown, Shiki not loaded yet): the block then shows plain text, laid out
 * exactly like the highlighted text, so nothing moves when colours arrive.
 *
 * Tokenizing runs off the main thread (a Worker; slices between tasks where there is none), and
 * each finished line is tokenized once. Results reach React at most once per frame, inside the
 * stream's own commit while it streams (see `publish.ts`), so highlighting adds no commits.
 */
export function useCodeTokens(
  code: string,
  language: string | undefined,
  enabled = true,
): CodeTokensSnapshot | null {
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
  return useSyncExternalStore(
    source?.subscribe ?? noSubscribe,
    source?.getSnapshot ?? noSnapshot,
    noSnapshot,
  );
}
