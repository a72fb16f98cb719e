import type { Citation } from '@message-stream/core';
import { memo, type ReactElement } from 'react';
import { StreamingMarkdown } from '../markdown/streaming-markdown.js';
import { CitationList } from './citation-list.js';
import { cx } from './cx.js';

export interface TextBlockViewProps {
  /** The text so far. It only grows while streaming; finished chunks are never parsed again. */
  text: string;
  /**
   * The text is still arriving: the unfinished end (an open fence, a dangling `**`, half a link)
   * is displayed as it will settle rather than as raw syntax, and the block is `aria-busy`.
   */
  streaming?: boolean;
  /** Sources the text cites (`citations_delta`), listed under the text. */
  citations?: readonly Citation[] | null;
  /**
   * `markdown` (default): GFM, rendered safely (no raw HTML, only http/https/mailto links, no
   * remote images). `plain`: the text exactly as written, for content that is not markdown.
   */
  mode?: 'markdown' | 'plain';
  className?: string;
  /**
   * Test and profiling hook, called with a markdown chunk's start offset whenever that chunk
   * renders. Pass a stable function: a new one each render makes every chunk render again.
   */
  onChunkRender?: (start: number) => void;
}

/**
 * A text block. Markdown is rendered one top-level block at a time, each a memoized child, so
 * a streaming answer costs one chunk's parse per delta however long it already is.
 */
export const TextBlockView = memo(function TextBlockView({
  text,
  streaming = false,
  citations,
  mode = 'markdown',
  className,
  onChunkRender,
}: TextBlockViewProps): ReactElement {
  const safeText = typeof text === 'string' ? text : '';
  return (
    <div
      className={cx('ms-text', streaming && 'ms-text--streaming', className)}
      aria-busy={streaming || undefined}
    >
      {mode === 'plain' ? (
        <p className="ms-text__plain">{safeText}</p>
      ) : (
        <StreamingMarkdown text={safeText} streaming={streaming} onChunkRender={onChunkRender} />
      )}
      {Array.isArray(citations) && citations.length > 0 ? (
        <CitationList citations={citations} />
      ) : null}
    </div>
  );
});
