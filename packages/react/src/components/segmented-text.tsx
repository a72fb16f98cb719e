import { memo, type ReactElement, useRef } from 'react';
import { segmentText, type TextSegments } from './text-segments.js';

const Piece = memo(function Piece({ text }: { text: string }): ReactElement {
  return <span className="ms-segment">{text}</span>;
});

export interface SegmentedTextProps {
  /** The text so far; while it streams, it only grows. */
  text: string;
  /** Class names on the last piece, the one that grows (the streaming caret goes there). */
  lastClassName?: string | undefined;
}

/**
 * Plain text as pieces of block spans (`text-segments.ts`), for a `white-space: pre-wrap`
 * parent: as the text grows only its last piece changes, so only that one is laid out again.
 */
export function SegmentedText({ text, lastClassName }: SegmentedTextProps): ReactElement {
  const last = useRef<TextSegments | null>(null);
  // Derived during render from the last render's pieces: the same text gives the same object,
  // so a render repeated (StrictMode) or abandoned leaves nothing wrong behind.
  const segments = segmentText(text, last.current);
  last.current = segments;
  return (
    <>
      {segments.closed.map((piece, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a closed piece's position is its identity.
        <Piece key={i} text={piece} />
      ))}
      <span className={lastClassName ? `ms-segment ${lastClassName}` : 'ms-segment'}>
        {segments.open}
      </span>
    </>
  );
}
