import {
  type KeyboardEvent,
  memo,
  type ReactElement,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { CitedSource } from './citation-index.js';
import type { CitationMarkersProps, SourcesListProps } from './citations.js';
import { cx } from './cx.js';
import { SourceTitle } from './source-title.js';

/** Room kept between a citation card and the edge of the window. */
const EDGE = 8;

/**
 * The markers at the end of a cited text: one small number per source, each a link (to the
 * source when its address is allowed, else to its entry in the sources list) that shows a card
 * with the title, the site and the cited passage on hover and on keyboard focus. Escape hides
 * the card; the card stays while the pointer is over it. On a touch screen the first tap shows
 * the card and a second tap follows the link.
 */
export const CitationMarkersBody = memo(function CitationMarkersBody({
  numbers,
  index,
  idPrefix,
}: CitationMarkersProps): ReactElement | null {
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
  // A touch has no hover: its first tap shows the card (focus opens it before the click), and
  // only a tap on a marker whose card was already showing follows the link.
  const tap = useRef<{ touch: boolean; wasOpen: boolean }>({ touch: false, wasOpen: false });
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
        onPointerDown={(event) => {
          tap.current = { touch: event.pointerType !== 'mouse', wasOpen: open };
        }}
        onClick={(event) => {
          const { touch, wasOpen } = tap.current;
          tap.current = { touch: false, wasOpen: false };
          if (touch && !wasOpen) {
            event.preventDefault();
            setOpen(true);
          }
        }}
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

/** `SourcesList` once its chunk has loaded. */
export const SourcesListBody = memo(function SourcesListBody({
  sources,
  idPrefix,
  label = 'Sources',
  className,
}: SourcesListProps): ReactElement | null {
  const labelId = useId();
  if (sources.length === 0) return null;
  return (
    <div className={cx('ms-citations', 'ms-sources', className)}>
      <p className="ms-citations__label" id={labelId}>
        {label}
      </p>
      {/* biome-ignore lint/a11y/noRedundantRoles: Safari drops a list's role when it has no list-style (content.css draws the numbers) */}
      <ol role="list" className="ms-citations__list ms-sources__list" aria-labelledby={labelId}>
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
