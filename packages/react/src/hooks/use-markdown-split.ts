import { useMemo, useRef } from 'react';
import { type MarkdownSplit, splitMarkdown } from '../markdown/split.js';

/**
 * `splitMarkdown` for a text that grows between renders: each call hands the previous split
 * back in, so finished chunks are reused (same objects) and only the tail is scanned again.
 */
export function useMarkdownSplit(text: string): MarkdownSplit {
  const previous = useRef<MarkdownSplit | null>(null);
  return useMemo(() => {
    const split = splitMarkdown(text, previous.current);
    previous.current = split;
    return split;
  }, [text]);
}
