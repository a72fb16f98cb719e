import type { Citation } from '@message-stream/core';
import { memo, type ReactElement, useContext, useId, useMemo } from 'react';
import { type CodeBlockOptions, CodeOptionsContext } from '../markdown/code-options.js';
import { CARET_CLASS } from '../markdown/markdown-chunk-view.js';
import { StreamingMarkdown } from '../markdown/streaming-markdown.js';
import { useMathPlugins } from '../math/use-math-plugins.js';
import { CitationScopeContext } from './answer-scope.js';
import { indexCitations } from './citation-index.js';
import { CitationMarkers, SourcesList } from './citations.js';
import { cx } from './cx.js';
import { SegmentedText } from './segmented-text.js';

export interface TextBlockViewProps {
  /** The text so far. It only grows while streaming; finished chunks are never parsed again. */
  text: string;
  /**
   * The text is still arriving: the unfinished end (an open fence, a dangling `**`, half a link)
   * is displayed as it will settle rather than as raw syntax, and the block is `aria-busy`.
   */
  streaming?: boolean;
  /**
   * The text was cut off where its stream broke (interrupted, failed or stopped): its end is
   * shown as it was while streaming (half a link as its text, an open `**` closed), not as
   * written. `ContentBlockView` sets it for a block whose status is `incomplete`.
   */
  incomplete?: boolean;
  /**
   * Sources the text cites (`citations_delta`): numbered markers at the end of the text, each
   * with a card on hover and focus. Inside an `AnswerScope` the numbers run across the whole
   * answer and `AnswerSources` lists them once; alone, the block lists its own sources under it.
   */
  citations?: readonly Citation[] | null;
  /**
   * `markdown` (default): GFM, rendered safely (no raw HTML, only http/https/mailto links, no
   * remote images). `plain`: the text exactly as written, for content that is not markdown.
   */
  mode?: 'markdown' | 'plain';
  /**
   * Typeset `$…$` and `$$…$$` with KaTeX (remark-math and rehype-katex, loaded on first use
   * with their CSS). Off by default: with it on, a lone `$` pair such as "$5 and $10" is math.
   * A `$$` block still streaming shows as text until it closes.
   */
  math?: boolean;
  /** Syntax colours in code blocks (Shiki, each language loaded on first use); on by default. */
  highlight?: boolean;
  /** A Download button on each code block, besides Copy; off by default. */
  codeDownload?: boolean;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
  /**
   * Test and profiling hook, called with a markdown chunk's start offset whenever that chunk
   * is parsed. Pass a stable function: a new one each render makes every chunk parse again.
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
  incomplete = false,
  citations,
  mode = 'markdown',
  math = false,
  highlight = true,
  codeDownload = false,
  className,
  onChunkRender,
}: TextBlockViewProps): ReactElement {
  const safeText = typeof text === 'string' ? text : '';
  const plugins = useMathPlugins(math);
  const scope = useContext(CitationScopeContext);
  const localPrefix = `ms-src${useId().replace(/[^\w-]/g, '')}-`;
  const cited = Array.isArray(citations) && citations.length > 0 ? citations : null;
  const local = useMemo(
    () => (scope === null && cited !== null ? indexCitations([cited]) : null),
    [scope, cited],
  );
  const index = scope?.index ?? local;
  const numbers = useMemo(() => {
    if (index === null || cited === null) return [];
    const seen = new Set<number>();
    for (const citation of cited) {
      const number = index.numberOf(citation);
      if (number > 0) seen.add(number);
    }
    return [...seen];
  }, [index, cited]);
  const idPrefix = scope?.idPrefix ?? localPrefix;
  const codeOptions = useMemo<CodeBlockOptions>(
    () => ({ highlight, download: codeDownload }),
    [highlight, codeDownload],
  );
  return (
    <div
      className={cx(
        'ms-text',
        streaming && 'ms-text--streaming',
        numbers.length > 0 && 'ms-text--cited',
        className,
      )}
      aria-busy={streaming || undefined}
    >
      {mode === 'plain' ? (
        <p className="ms-text__plain">
          <SegmentedText text={safeText} lastClassName={streaming ? CARET_CLASS : undefined} />
        </p>
      ) : (
        <CodeOptionsContext.Provider value={codeOptions}>
          <StreamingMarkdown
            text={safeText}
            streaming={streaming}
            incomplete={incomplete}
            onChunkRender={onChunkRender}
            plugins={plugins}
          />
        </CodeOptionsContext.Provider>
      )}
      {index !== null ? (
        <CitationMarkers numbers={numbers} index={index} idPrefix={idPrefix} />
      ) : null}
      {local !== null ? <SourcesList sources={local.sources} idPrefix={idPrefix} /> : null}
    </div>
  );
});
