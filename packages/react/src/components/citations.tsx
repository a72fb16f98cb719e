import { type ReactElement, useContext } from 'react';
import { CitationScopeContext } from './answer-scope.js';
import type { CitationIndex, CitedSource } from './citation-index.js';
import { cx } from './cx.js';
import { lazyParts } from './lazy-part.js';

/**
 * The citation markers and sources lists: one chunk loaded on demand (most answers cite
 * nothing; the chat asks for it when idle after it has painted).
 */
const citationParts = lazyParts(() => import('./citations-body.js'));

export interface CitationMarkersProps {
  readonly numbers: readonly number[];
  readonly index: CitationIndex;
  readonly idPrefix: string;
}

/**
 * The markers at the end of a cited text: one small number per source, each a link (to the
 * source when its address is allowed, else to its entry in the sources list) that shows a card
 * with the title, the site and the cited passage on hover and on keyboard focus. Escape hides
 * the card; the card stays while the pointer is over it. Until the chunk arrives, the numbers.
 */
export const CitationMarkers: (props: CitationMarkersProps) => ReactElement = citationParts.part(
  'CitationMarkers',
  (parts) => parts.CitationMarkersBody,
  CitationMarkersPlaceholder,
);

/** The markers until their chunk arrives: the numbers, not yet links. For its test. */
export function CitationMarkersPlaceholder({ numbers }: CitationMarkersProps): ReactElement | null {
  if (numbers.length === 0) return null;
  return (
    <span className="ms-cite-group" aria-busy="true">
      {numbers.map((number) => (
        <span key={number} className="ms-cite">
          <span className="ms-cite__marker">{number}</span>
        </span>
      ))}
    </span>
  );
}

export interface SourcesListProps {
  readonly sources: readonly CitedSource[];
  readonly idPrefix: string;
  readonly label?: string | undefined;
  readonly className?: string | undefined;
}

/**
 * A numbered sources list: what `AnswerSources` and `CitationList` render. Until its chunk
 * arrives, the numbered titles as plain text.
 */
export const SourcesList: (props: SourcesListProps) => ReactElement = citationParts.part(
  'SourcesList',
  (parts) => parts.SourcesListBody,
  SourcesListPlaceholder,
);

/** The list until its chunk arrives: the heading and the numbered titles, no links yet. */
export function SourcesListPlaceholder({
  sources,
  label = 'Sources',
  className,
}: SourcesListProps): ReactElement | null {
  if (sources.length === 0) return null;
  return (
    <div className={cx('ms-citations', 'ms-sources', className)} aria-busy="true">
      <p className="ms-citations__label">{label}</p>
      <ol className="ms-citations__list ms-sources__list">
        {sources.map((source) => (
          <li key={source.key} className="ms-citations__item" value={source.number}>
            {source.title}
          </li>
        ))}
      </ol>
    </div>
  );
}

export interface AnswerSourcesProps {
  /** Heading of the list; "Sources" by default. */
  label?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * The sources of one answer, listed once, numbered like the answer's citation markers. Place it
 * inside `<AnswerScope>`, after the blocks; it renders nothing when the answer cites nothing.
 */
export function AnswerSources({ label, className }: AnswerSourcesProps): ReactElement | null {
  const scope = useContext(CitationScopeContext);
  if (scope === null) return null;
  return (
    <SourcesList
      sources={scope.index.sources}
      idPrefix={scope.idPrefix}
      label={label}
      className={className}
    />
  );
}
