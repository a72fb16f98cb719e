import type { Usage } from '@message-stream/core';
import { Fragment, memo, type ReactElement } from 'react';
import { cx } from './cx.js';

export interface UsageBadgeProps {
  /** The answer's token usage (`message.usage`); nothing renders without it. */
  usage: Usage | null | undefined;
  /** Locale for the numbers ("1,234"); the reader's own by default. */
  locale?: string;
  /**
   * The answer did not finish (`true`): the API reports output tokens only at the end, so the
   * output count is left out and the badge says "partial", never a misleading "1 out". Or it
   * did after an earlier request of it was cut off (`'earlier-attempt'`, a resumed answer):
   * the output counted is the later requests', so the badge says it is at least ("40+ out").
   * Screen readers hear which (see `partialUsage`).
   */
  partial?: boolean | 'earlier-attempt';
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

interface UsagePart {
  key: string;
  count: number;
  /** What the badge shows: short. */
  short: string;
  /** What a screen reader says: the words in full. */
  long: string;
}

const formats = new Map<string | undefined, Intl.NumberFormat>();

/**
 * One formatter per locale for the page's lifetime: building one loads locale data and
 * took 11–28 ms in a fresh Chromium page, on the commit that shows the final answer.
 */
function numberFormat(locale: string | undefined): Intl.NumberFormat {
  let format = formats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale);
    formats.set(locale, format);
  }
  return format;
}

// Built while the page is idle, not on the commit that shows the first finished answer.
if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
  window.requestIdleCallback(() => numberFormat(undefined), { timeout: 2000 });
}

/**
 * Token usage in a line: "1,234 in · 567 out · 89 cached". Input and output show whenever the
 * usage has them; cache reads and writes only when non-zero. Screen readers hear the words in
 * full ("1,234 input tokens"), not the abbreviations and separators.
 */
export const UsageBadge = memo(function UsageBadge({
  usage,
  locale,
  partial = false,
  className,
}: UsageBadgeProps): ReactElement | null {
  if (!usage || typeof usage !== 'object') return null;
  const parts: UsagePart[] = [];
  const add = (key: string, value: unknown, short: string, long: string, hideZero: boolean) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    if (hideZero && value === 0) return;
    parts.push({ key, count: value, short, long });
  };
  add('input', usage.input_tokens, 'in', 'input tokens', false);
  if (partial !== true) {
    add(
      'output',
      usage.output_tokens,
      partial ? '+ out' : 'out',
      partial
        ? 'output tokens or more: a request before the resume was cut off, its output not reported'
        : 'output tokens',
      false,
    );
  }
  add('cache-read', usage.cache_read_input_tokens, 'cached', 'tokens read from cache', true);
  add(
    'cache-write',
    usage.cache_creation_input_tokens,
    'cache write',
    'tokens written to cache',
    true,
  );
  if (parts.length === 0) return null;
  const format = numberFormat(locale);
  const items = parts.map((part) => {
    const count = format.format(part.count);
    // "40+ out": the plus is the count's.
    const gap = part.short[0] === '+' ? '' : ' ';
    return { key: part.key, short: `${count}${gap}${part.short}`, long: `${count} ${part.long}` };
  });
  if (partial === true) {
    items.push({
      key: 'partial',
      short: 'partial',
      long: 'output not reported, the answer did not finish',
    });
  }
  return (
    <p className={cx('ms-usage', className)}>
      <span className="ms-sr-only">Token usage: </span>
      {items.map((part, i) => {
        return (
          <Fragment key={part.key}>
            {i > 0 ? (
              <>
                <span className="ms-usage__separator" aria-hidden="true">
                  {' · '}
                </span>
                <span className="ms-sr-only">, </span>
              </>
            ) : null}
            <span className={`ms-usage__item ms-usage__item--${part.key}`}>
              <span aria-hidden="true">{part.short}</span>
              <span className="ms-sr-only">{part.long}</span>
            </span>
          </Fragment>
        );
      })}
    </p>
  );
});
