import type { BlockState } from '@message-stream/core';
import type { ReactElement } from 'react';
import { cx } from './cx.js';
import { toolParts } from './tool-parts-loader.js';

export interface WebSearchResultsViewProps {
  /** A `web_search_tool_result` block. */
  block: BlockState;
  /**
   * Show the list at once. Default: folded under "3 search results", since the answer's own
   * sources list (and its citation cards) say what was used.
   */
  defaultOpen?: boolean;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * The results of a web search, folded under their count: a link per result with its host and
 * age. Titles and URLs come
 * from the web, so they are text only, and a URL that is not http/https gets no link. An error
 * result says so ("Search failed: max_uses_exceeded").
 *
 * Its code loads on demand with the other tool parts (the search call before it asks for it);
 * until then a one-line placeholder holds its place.
 */
export const WebSearchResultsView: (props: WebSearchResultsViewProps) => ReactElement =
  toolParts.part(
    'WebSearchResultsView',
    (parts) => parts.WebSearchResultsBody,
    ({ className }) => (
      <p className={cx('ms-search-results', className)} aria-busy="true">
        <span className="ms-search-results__label">Loading the search results…</span>
      </p>
    ),
  );
