import type { StreamState, Usage } from '@message-stream/core';
import { type CSSProperties, type ReactElement, useEffect, useId, useState } from 'react';
import { Icon } from '../chat/icons.js';
import type { StreamTimings } from './answer-info.js';
import { cx } from './cx.js';
import { lazyParts } from './lazy-part.js';

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
  /**
   * An answer made of several requests (it called tools and went on after their results):
   * how many, and their tokens added up, as its usage badge shows them. The token rows show
   * these; timings, the stop reason and the ids stay the last request's (`stream`).
   */
  readonly total?: {
    readonly requests: number;
    readonly usage: Usage;
    /** As `UsageBadge`'s `partial`: the output of one of them was not (fully) reported. */
    readonly partial: boolean | 'earlier-attempt';
  };
  /** Recorded raw streams of this answer (see `createStreamRecorder`); none by default. */
  readonly downloads?: readonly StreamDownload[];
  /** Locale for the numbers; the reader's own by default. */
  readonly locale?: string;
  /** Extra class names on the root element, for your own styles. */
  readonly className?: string;
}

const details = lazyParts(() => import('./stream-details-body.js'));
/** Fetches the content's chunk; a failure is asked again on the next call. */
const preloadDetails = () => void details.preload().catch(() => {});

/** The figures and downloads, drawn once the popover is first opened (their code loads then). */
const StreamDetailsContent = details.part(
  'StreamDetailsContent',
  (parts) => parts.StreamDetailsBody,
  () => <p className="ms-details__hint">Loading…</p>,
);

/**
 * An ⓘ button that opens a popover with an answer's figures: input, output and cache tokens,
 * time to first token and tokens per second, the stop reason and the message id; with
 * recording on, its raw stream as an `.sse` file. A native popover: Escape and a click outside
 * close it, and it sits in the top layer, so no scrolling container clips it. Its content is
 * drawn when first opened (its code loads when the button is pointed at or focused), so a long
 * thread does not carry a hidden table per answer.
 */
export function StreamDetails({ className, ...props }: StreamDetailsProps): ReactElement {
  const id = useId();
  const [opened, setOpened] = useState(false);
  const popoverId = `ms-details-${id.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const anchor = `--${popoverId}`;
  // Once an answer shows its details button, the content's chunk comes in idle time, so a
  // first open seldom sees the placeholder (pointing at the button asks for it at once).
  useEffect(() => {
    if (details.loaded() || typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(preloadDetails, { timeout: 5000 });
    return () => cancelIdleCallback(idle);
  }, []);

  return (
    <span className={cx('ms-details', className)}>
      <button
        type="button"
        className="ms-icon-button ms-details__toggle"
        aria-label="Stream details"
        title="Stream details"
        popoverTarget={popoverId}
        style={{ anchorName: anchor } as CSSProperties}
        onPointerEnter={preloadDetails}
        onFocus={preloadDetails}
        onClick={() => setOpened(true)}
      >
        <Icon name="details" />
      </button>
      <div
        id={popoverId}
        className="ms-details__panel"
        popover="auto"
        role="dialog"
        tabIndex={-1}
        // A dialog takes focus when it opens (a screen reader then reads it, and Tab goes on
        // inside it); Escape gives it back to the button, as the native popover does.
        onToggle={(event) => {
          if (event.newState === 'open') event.currentTarget.focus({ preventScroll: true });
        }}
        // Keyboard focus gone on past it (Tab after its last button): it closes, rather than
        // cover the answer while the reader types. (Focus to nowhere, a click outside, is the
        // popover's own light dismiss.)
        onBlur={(event) => {
          const panel = event.currentTarget;
          const to = event.relatedTarget;
          // Where the Popover API is missing (an older browser, jsdom) the panel is plain.
          if (to !== null && !panel.contains(to) && panel.matches?.(':popover-open')) {
            panel.hidePopover();
          }
        }}
        aria-label="Stream details"
        style={{ positionAnchor: anchor } as CSSProperties}
      >
        {opened ? <StreamDetailsContent {...props} /> : null}
      </div>
    </span>
  );
}
