import type { CodeStyle, EncodedLines } from './runs.js';

/**
 * Messages between a code block and the tokenizer (a module Worker, or the same logic on the
 * main thread when no Worker can start). Code only grows while it streams, so an update carries
 * only what was appended since the last one; anything else starts the block over.
 */
export type TokenizeRequest =
  | {
      readonly type: 'update';
      readonly id: number;
      readonly language: string;
      /** `append` extends the code the tokenizer has; `reset` replaces it. */
      readonly mode: 'append' | 'reset';
      readonly text: string;
    }
  | { readonly type: 'dispose'; readonly id: number };

export type TokenizeResult =
  | {
      readonly type: 'tokens';
      readonly id: number;
      /** Index of the first line in `lines`: every line before it was sent earlier, for good. */
      readonly start: number;
      /** Runs of lines that have become finished (runs.ts); they never change again. */
      readonly lines: EncodedLines;
      /** The unfinished last line's runs; its `text` is the text they were made from. */
      readonly tail: EncodedLines | null;
      /**
       * Styles the runs use that were not sent before: the block's styles from index
       * `stylesFrom` on (0: the block's styles start over, as a new tokenizer's do).
       */
      readonly stylesFrom: number;
      readonly styles: readonly CodeStyle[];
    }
  /** The language is unknown or failed to load: the block stays plain. */
  | { readonly type: 'plain'; readonly id: number };
