import type { Citation } from '@message-stream/core';
import { memo, type ReactElement, useId } from 'react';
import { hostnameOf, safeHref } from '../markdown/url.js';
import { cx } from './cx.js';
import { isRecord, stringOr } from './format.js';
import { SourceTitle } from './source-title.js';

export interface CitationListProps {
  /** The text block's citations, in the order they arrived. */
  citations: readonly Citation[];
  /** Heading for the list; "Sources" by default. */
  label?: string;
  className?: string;
}

interface CitationView {
  key: string;
  title: string;
  href: string | undefined;
  host: string;
  quote: string | undefined;
}

/**
 * The sources a text block cites: a link per source (only http/https/mailto, opened in a new
 * tab without an opener) and the cited passage as a quote. Citation types differ (web search
 * results, document locations, search results); each shows whatever title and URL it has.
 * The same passage of the same source cited twice is listed once.
 */
export const CitationList = memo(function CitationList({
  citations,
  label = 'Sources',
  className,
}: CitationListProps): ReactElement | null {
  const labelId = useId();
  const views = toViews(citations);
  if (views.length === 0) return null;
  return (
    <div className={cx('ms-citations', className)}>
      <p className="ms-citations__label" id={labelId}>
        {label}
      </p>
      <ol className="ms-citations__list" aria-labelledby={labelId}>
        {views.map((view) => (
          <li key={view.key} className="ms-citations__item">
            <SourceTitle base="ms-citations" href={view.href} title={view.title} />
            {view.host && view.host !== view.title ? (
              <span className="ms-citations__host"> {view.host}</span>
            ) : null}
            {view.quote ? (
              <blockquote className="ms-citations__quote">{view.quote}</blockquote>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
});

function toViews(citations: readonly Citation[]): CitationView[] {
  const views: CitationView[] = [];
  const seen = new Set<string>();
  if (!Array.isArray(citations)) return views;
  citations.forEach((citation: unknown, i) => {
    if (!isRecord(citation)) return;
    const url = stringOr(citation.url) ?? stringOr(citation.source);
    const href = safeHref(url);
    const host = href ? hostnameOf(href) : '';
    const quote = stringOr(citation.cited_text);
    const title =
      stringOr(citation.title) ?? stringOr(citation.document_title) ?? (host || `Source ${i + 1}`);
    const key = `${url ?? title}\u0000${quote ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    views.push({ key, title, href, host, quote });
  });
  return views;
}
