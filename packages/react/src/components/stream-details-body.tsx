import type { ReactElement, ReactNode } from 'react';
import { Icon } from '../chat/icons.js';
import { streamFigures, tokenCount } from './answer-info.js';
import type { StreamDetailsProps, StreamDownload } from './stream-details.js';

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

/** A value as the API wrote it (a stop reason, a model, an id). */
const literal = (value: string): ReactNode => <code className="ms-details__code">{value}</code>;

/** What the stream details popover shows, once opened (see `StreamDetails`). */
export function StreamDetailsBody({
  stream,
  timings,
  total,
  downloads = [],
  locale,
}: Omit<StreamDetailsProps, 'className'>): ReactElement {
  const own = streamFigures(stream, timings);
  // Several requests: their tokens as the badge adds them up, the rest the last request's.
  const partialReason = total
    ? total.partial === true
      ? 'unfinished'
      : total.partial || null
    : own.partialReason;
  const figures = total
    ? {
        ...own,
        input: tokenCount(total.usage.input_tokens),
        output: partialReason === 'unfinished' ? undefined : tokenCount(total.usage.output_tokens),
        cacheRead: tokenCount(total.usage.cache_read_input_tokens),
        cacheWrite: tokenCount(total.usage.cache_creation_input_tokens),
        partialReason,
      }
    : own;
  const format = new Intl.NumberFormat(locale);
  const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const rows: [string, ReactNode][] = [];
  const tokens = (value: number | undefined) =>
    value === undefined ? '—' : `${format.format(value)}`;
  rows.push(['Input tokens', tokens(figures.input)]);
  rows.push([
    'Output tokens',
    figures.partialReason === 'unfinished'
      ? 'Not reported'
      : figures.partialReason === 'earlier-attempt' && figures.output !== undefined
        ? `${tokens(figures.output)} or more`
        : tokens(figures.output),
  ]);
  if (figures.cacheRead) rows.push(['Cache read', tokens(figures.cacheRead)]);
  if (figures.cacheWrite) rows.push(['Cache write', tokens(figures.cacheWrite)]);
  rows.push([
    'Time to first token',
    figures.ttftMs === undefined
      ? '—'
      : // Under a second in milliseconds: "0 s" for a fast answer read as no measurement.
        figures.ttftMs < 1000
        ? `${format.format(Math.round(figures.ttftMs))} ms`
        : `${decimal.format(figures.ttftMs / 1000)} s`,
  ]);
  rows.push([
    'Tokens per second',
    figures.tokensPerSecond === undefined ? '—' : decimal.format(figures.tokensPerSecond),
  ]);
  const stopReason = stream.message?.stop_reason;
  rows.push(['Stop reason', stopReason ? literal(stopReason) : stream.status]);
  if (stream.message?.model) rows.push(['Model', literal(stream.message.model)]);
  if (stream.message?.id) rows.push(['Message id', literal(stream.message.id)]);
  const requests = total?.requests ?? stream.attempts?.length ?? 1;
  if (requests > 1) rows.push(['Requests', format.format(requests)]);
  return (
    <>
      <dl className="ms-details__list">
        {rows.map(([term, value]) => (
          <div className="ms-details__row" key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {total && total.requests > 1 ? (
        <p className="ms-details__note">
          Tokens of all {format.format(total.requests)} requests, added up; the rest is the last
          one's.
        </p>
      ) : null}
      {figures.partialReason === null ? null : (
        <p className="ms-details__note">
          {figures.partialReason === 'unfinished'
            ? 'The API reports output tokens when an answer ends: this one did not finish.'
            : 'The API reports output tokens when a request ends: a request before the resume was cut off first.'}
        </p>
      )}
      {downloads.length > 0 ? (
        <div className="ms-details__downloads">
          {downloads.map((file, i) => (
            <button
              key={file.name}
              type="button"
              className="ms-button ms-button--small"
              onClick={() => download(file)}
            >
              <Icon name="download" />
              {/* The file keeps its name (the message id); a label of it ran past the panel. */}
              {downloads.length === 1
                ? 'Download raw stream (.sse)'
                : `Download request ${i + 1} of ${downloads.length} (.sse)`}
            </button>
          ))}
          <p className="ms-details__hint">
            The exact bytes of the answer: attach them to a bug report, or replay them with the mock
            as a fixture.
          </p>
        </div>
      ) : null}
    </>
  );
}
