import type { LineTokenizer } from './tokens.js';

/**
 * Loads the highlighting chunk (Shiki, the regex engine, one grammar, two themes) on first use.
 * The only way the rest of the package reaches `engine.ts`, so bundlers split it out.
 */
export function loadLineTokenizer(language: string): Promise<LineTokenizer<unknown> | null> {
  return import('./engine.js').then(
    (engine) => engine.createLineTokenizer(language) as Promise<LineTokenizer<unknown> | null>,
    () => null,
  );
}
