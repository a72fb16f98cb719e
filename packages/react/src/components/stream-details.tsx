import type { StreamState } from '@message-stream/core';
import { type CSSProperties, type ReactElement, type ReactNode, useId } from 'react';
import { Icon } from '../chat/icons.js';
import { cx } from './cx.js';
import { isPartialUsage } from './usage-badge.js';

/** When an answer's request went out, its first content showed, and it ended (epoch ms). */
export interface StreamTimings {
  readonly startedAt?: number | null;
  readonly firstTokenAt?: number | null;
  readonly finishedAt?: number | null;
}

/** A raw stream to offer as a download: one per request that made the answer. */
export interface StreamDownload {
  readonly name: string;
  readonly text: string;
}

export interface StreamDetailsProps {
  /** The answer's stream state. */
  readonly stream: StreamState;
  /** When the answer started, showed its first content and finished (epoch ms). */
  readonly timings?: StreamTimings;
  /** Recorded raw streams of this answer (see `createStreamRecorder`); none by default. */
  readonly downloads?: readonly StreamDownload[];
  /** Locale for the numbers; the reader's own by default. */
  readonly locale?: string;
  /** Extra class names on the root element, for your own styles. */
  readonly className?: string;
}

/** Figures for the details: tokens, time to first token, tokens per second. */
export function streamFigures(stream: StreamState, timings: StreamTimings = {}) {
  const usage = stream.message?.usage ?? {};
  const partial = isPartialUsage(stream);
  const num = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const output = partial ? undefined : num(usage.output_tokens);
  const { startedAt, firstTokenAt, finishedAt } = timings;
  const ttftMs =
    typeof startedAt === 'number' && typeof firstTokenAt === 'number' && firstTokenAt >= startedAt
      ? firstTokenAt - startedAt
      : undefined;
  const seconds =
    typeof firstTokenAt === 'number' && typeof finishedAt === 'number'
      ? (finishedAt - firstTokenAt) / 1000
      : undefined;
  const tokensPerSecond =
    output !== undefined && seconds !== undefined && seconds > 0 ? output / seconds : undefined;
  return {
    input: num(usage.input_tokens),
    output,
    partial,
    cacheRead: num(usage.cache_read_input_tokens),
    cacheWrite: num(usage.cache_creation_input_tokens),
    ttftMs,
    tokensPerSecond,
  };
}

const download = ({ name, text }: StreamDownload) => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/event-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.click();
  // The click has started the download synchronously; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
};

/**
 * An ⓘ button that opens a popover with an answer's figures: input, output and cache tokens,
 * time to first token and tokens per second, the stop reason and the message id; with
 * recording on, its raw stream as an `.sse` file. A native popover: Escape and a click outside
 * close it, and it sits in the top layer, so no scrolling container clips it.
 */
export function StreamDetails({
  stream,
  timings,
  downloads = [],
  locale,
  className,
}: StreamDetailsProps): ReactElement {
  const id = useId();
  const popoverId = `ms-details-${id.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const figures = streamFigures(stream, timings);
  const format = new Intl.NumberFormat(locale);
  const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const rows: [string, ReactNode][] = [];
  const tokens = (value: number | undefined) =>
    value === undefined ? '—' : `${format.format(value)}`;
  rows.push(['Input tokens', tokens(figures.input)]);
  rows.push([
    'Output tokens',
    figures.partial ? 'Not reported (the answer did not finish)' : tokens(figures.output),
  ]);
  if (figures.cacheRead) rows.push(['Cache read', tokens(figures.cacheRead)]);
  if (figures.cacheWrite) rows.push(['Cache write', tokens(figures.cacheWrite)]);
  rows.push([
    'Time to first token',
    figures.ttftMs === undefined ? '—' : `${decimal.format(figures.ttftMs / 1000)} s`,
  ]);
  rows.push([
    'Tokens per second',
    figures.tokensPerSecond === undefined ? '—' : decimal.format(figures.tokensPerSecond),
  ]);
  const stopReason = stream.message?.stop_reason;
  rows.push([
    'Stop reason',
    stopReason ? (
      <code key="s" className="ms-details__code">
        {stopReason}
      </code>
    ) : (
      stream.status
    ),
  ]);
  if (stream.message?.model)
    rows.push([
      'Model',
      <code key="m" className="ms-details__code">
        {stream.message.model}
      </code>,
    ]);
  if (stream.message?.id)
    rows.push([
      'Message id',
      <code key="i" className="ms-details__code">
        {stream.message.id}
      </code>,
    ]);
  if (stream.attempts && stream.attempts.length > 1) {
    rows.push(['Requests', format.format(stream.attempts.length)]);
  }
  const anchor = `--${popoverId}`;
  return (
    <span className={cx('ms-details', className)}>
      <button
        type="button"
        className="ms-icon-button ms-details__toggle"
        aria-label="Stream details"
        title="Stream details"
        popoverTarget={popoverId}
        style={{ anchorName: anchor } as CSSProperties}
      >
        <Icon name="details" />
      </button>
      <div
        id={popoverId}
        className="ms-details__panel"
        popover="auto"
        role="dialog"
        aria-label="Stream details"
        style={{ positionAnchor: anchor } as CSSProperties}
      >
        <dl className="ms-details__list">
          {rows.map(([term, value]) => (
            <div className="ms-details__row" key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {downloads.length > 0 ? (
          <div className="ms-details__downloads">
            {downloads.map((file) => (
              <button
                key={file.name}
                type="button"
                className="ms-button ms-button--small"
                onClick={() => download(file)}
              >
                <Icon name="download" />
                {downloads.length === 1 ? 'Download raw stream (.sse)' : `Download ${file.name}`}
              </button>
            ))}
            <p className="ms-details__hint">
              The exact bytes of the answer: attach them to a bug report, or replay them with the
              mock as a fixture.
            </p>
          </div>
        ) : null}
      </div>
    </span>
  );
}
