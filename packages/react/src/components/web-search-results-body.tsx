import { memo, type ReactElement } from 'react';
import { useDisclosure } from '../hooks/use-disclosure.js';
import { hostnameOf, safeHref } from '../markdown/url.js';
import { cx } from './cx.js';
import { isPlainObject, stringOr } from './format.js';
import { SourceTitle } from './source-title.js';
import type { WebSearchResultsViewProps } from './web-search-results-view.js';

interface ResultView {
  title: string;
  href: string | undefined;
  host: string;
  age: string | undefined;
}

/** What `WebSearchResultsView` draws once the tool parts have loaded (see there). */
export const WebSearchResultsBody = memo(function WebSearchResultsBody({
  block,
  defaultOpen = false,
  className,
}: WebSearchResultsViewProps): ReactElement {
  const { buttonProps, panelProps } = useDisclosure(defaultOpen);
  const content = isPlainObject(block.block) ? block.block.content : undefined;

  if (!Array.isArray(content)) {
    const code = isPlainObject(content)
      ? (stringOr(content.error_code) ?? stringOr(content.type) ?? 'unknown')
      : 'unknown';
    return (
      <p className={cx('ms-search-results', 'ms-search-results--error', className)}>
        Search failed: {code}
      </p>
    );
  }

  const results = content.filter(isPlainObject).map(toView);
  return (
    <div className={cx('ms-search-results', className)}>
      <button
        type="button"
        id={`${panelProps.id}-toggle`}
        className="ms-search-results__toggle"
        {...buttonProps}
      >
        <span className="ms-search-results__label">
          {results.length === 1 ? '1 search result' : `${results.length} search results`}
        </span>
        <span className="ms-search-results__chevron" aria-hidden="true" />
      </button>
      <ol
        className="ms-search-results__list"
        aria-labelledby={`${panelProps.id}-toggle`}
        {...panelProps}
      >
        {results.map((result, i) => (
          // Results have no id, and the list never reorders.
          // biome-ignore lint/suspicious/noArrayIndexKey: position is the identity here.
          <li key={i} className="ms-search-results__item">
            <SourceTitle base="ms-search-results" href={result.href} title={result.title} />
            {result.host ? <span className="ms-search-results__host">{result.host}</span> : null}
            {result.age ? <span className="ms-search-results__age">{result.age}</span> : null}
          </li>
        ))}
      </ol>
    </div>
  );
});

function toView(result: Record<string, unknown>): ResultView {
  const href = safeHref(result.url);
  const host = href ? hostnameOf(href) : '';
  return {
    title: stringOr(result.title) ?? (host || stringOr(result.url) || 'Untitled result'),
    href,
    host,
    age: stringOr(result.page_age),
  };
}
