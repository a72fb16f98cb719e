import {
  type KeyboardEvent,
  memo,
  type ReactElement,
  useContext,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { CitationScopeContext } from './answer-scope.js';
import type { CitationIndex, CitedSource } from './citation-index.js';
import { cx } from './cx.js';
import { SourceTitle } from './source-title.js';

/** Room kept between a citation card and the edge of the window. */
const EDGE = 8;

/**
 * The markers at the end of a cited text: one small number per source, each a link (to the
 * source when its address is allowed, else to its entry in the sources list) that shows a card
 * with the title, the site and the cited passage on hover and on keyboard focus. Escape hides
 * the card; the card stays while the pointer is over it.
 */
export const CitationMarkers = memo(function CitationMarkers({
  numbers,
  index,
  idPrefix,
}: {
  numbers: readonly number[];
  index: CitationIndex;
  idPrefix: string;
}): ReactElement | null {
  if (numbers.length === 0) return null;
  return (
    <span className="ms-cite-group">
      {numbers.map((number) => {
        const source = index.sources[number - 1];
        return source ? (
          <CitationMarker key={number} source={source} listId={`${idPrefix}${number}`} />
        ) : null;
      })}
    </span>
  );
});

function CitationMarker({ source, listId }: { source: CitedSource; listId: string }): ReactElement {
  const cardId = useId();
  const [open, setOpen] = useState(false);
  const card = useRef<HTMLSpanElement>(null);
  const [shift, setShift] = useState(0);

  // Keep the card inside the window: a card near the right edge must not widen a phone's page.
  // Measured when it opens, before paint; the shift is back to 0 whenever it is closed.
  useLayoutEffect(() => {
    if (!open) {
      setShift(0);
      return;
    }
    const element = card.current;
    if (!element || typeof window === 'undefined') return;
    const { left, right } = element.getBoundingClientRect();
    const max = window.innerWidth - EDGE;
    setShift(right > max ? Math.max(EDGE - left, max - right) : left < EDGE ? EDGE - left : 0);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
    }
  };
  const quote = source.quotes[0];
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover only shows the card the focusable link also shows.
    <span
      className={cx('ms-cite', open && 'ms-cite--open')}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onKeyDown={onKeyDown}
    >
      <a
        className="ms-cite__marker"
        href={source.href ?? `#${listId}`}
        {...(source.href ? { rel: 'noopener noreferrer', target: '_blank' } : {})}
        aria-label={`Source ${source.number}`}
        aria-describedby={cardId}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      >
        {source.number}
      </a>
      <span
        ref={card}
        id={cardId}
        role="tooltip"
        className="ms-cite__card"
        hidden={!open}
        style={shift ? { transform: `translateX(${shift}px)` } : undefined}
      >
        <span className="ms-cite__title">{source.title}</span>
        {source.host ? <span className="ms-cite__site">{source.host}</span> : null}
        {quote ? <span className="ms-cite__quote">{quote}</span> : null}
      </span>
    </span>
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

/** A numbered sources list: what `AnswerSources` and `CitationList` render. */
export const SourcesList = memo(function SourcesList({
  sources,
  idPrefix,
  label = 'Sources',
  className,
}: {
  sources: readonly CitedSource[];
  idPrefix: string;
  label?: string | undefined;
  className?: string | undefined;
}): ReactElement | null {
  const labelId = useId();
  if (sources.length === 0) return null;
  return (
    <div className={cx('ms-citations', 'ms-sources', className)}>
      <p className="ms-citations__label" id={labelId}>
        {label}
      </p>
      <ol className="ms-citations__list ms-sources__list" aria-labelledby={labelId}>
        {sources.map((source) => (
          <li
            key={source.key}
            id={`${idPrefix}${source.number}`}
            className="ms-citations__item"
            value={source.number}
          >
            <SourceTitle base="ms-citations" href={source.href} title={source.title} />
            {source.host && source.host !== source.title ? (
              <span className="ms-citations__host"> {source.host}</span>
            ) : null}
            {source.quotes.map((quote) => (
              <blockquote key={quote} className="ms-citations__quote">
                {quote}
              </blockquote>
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
});
