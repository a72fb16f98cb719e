import type { Citation } from '@message-stream/core';
import { memo, type ReactElement, useId, useMemo } from 'react';
import { indexCitations } from './citation-index.js';
import { SourcesList } from './citations.js';

export interface CitationListProps {
  /** The text block's citations, in the order they arrived. */
  citations: readonly Citation[];
  /** Heading for the list; "Sources" by default. */
  label?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * The sources of one text block, numbered in order of first citation: a link per source (only
 * http/https/mailto, opened in a new tab without an opener) and each passage cited from it as a
 * quote. Citation types differ (web search results, document locations, search results); each
 * shows whatever title and URL it has. For a whole answer, use `AnswerScope` and
 * `AnswerSources`, which list every block's sources once.
 */
export const CitationList = memo(function CitationList({
  citations,
  label,
  className,
}: CitationListProps): ReactElement | null {
  const idPrefix = `ms-src${useId().replace(/[^\w-]/g, '')}-`;
  const index = useMemo(() => indexCitations([citations]), [citations]);
  return (
    <SourcesList sources={index.sources} idPrefix={idPrefix} label={label} className={className} />
  );
});
