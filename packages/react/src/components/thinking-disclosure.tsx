import type { BlockState } from '@message-stream/core';
import { type ReactElement, useId, useLayoutEffect, useRef, useState } from 'react';
import { cx } from './cx.js';
import { SegmentedText } from './segmented-text.js';

export interface ThinkingDisclosureProps {
  /** The block's live state from the stream (`state.message.content[k]`). */
  block: BlockState;
  /** The answer's text has begun: an open thinking block folds away. */
  answerStarted: boolean;
  /** Start expanded. */
  defaultOpen?: boolean | undefined;
  /** Extra class names on the root element, for your own styles. */
  className?: string | undefined;
}

interface Timing {
  /** When the block was first rendered (performance.now()). */
  readonly start: number;
  /** The block was already finished when first rendered: there is no duration to tell. */
  readonly restored: boolean;
  /** Whole seconds from first render to completion, once complete. */
  seconds: number | null;
}

/** A `thinking` block as a disclosure with a live tail; see `ThinkingBlockView`. */
export function ThinkingDisclosure({
  block,
  answerStarted,
  defaultOpen,
  className,
}: ThinkingDisclosureProps): ReactElement {
  const buttonId = useId();
  const panelId = useId();
  const streaming = block.status === 'streaming';
  const thinking = typeof block.block.thinking === 'string' ? block.block.thinking : '';

  const [open, setOpen] = useState(() => defaultOpen ?? (streaming && !answerStarted));
  const [userToggled, setUserToggled] = useState(false);
  const [seenAnswerStarted, setSeenAnswerStarted] = useState(answerStarted);
  if (answerStarted !== seenAnswerStarted) {
    // Adjusting state to a prop change during render (not in an effect): no closed-then-open flash.
    setSeenAnswerStarted(answerStarted);
    if (answerStarted && !userToggled) setOpen(false);
  }

  const timing = useRef<Timing | null>(null);
  if (timing.current === null) {
    timing.current = { start: performance.now(), restored: !streaming, seconds: null };
  }
  if (block.status === 'complete' && !timing.current.restored && timing.current.seconds === null) {
    const elapsed = performance.now() - timing.current.start;
    timing.current.seconds = Math.max(1, Math.round(elapsed / 1000));
  }
  const label = streaming
    ? 'Thinking…'
    : block.status === 'incomplete'
      ? 'Thinking interrupted'
      : timing.current.seconds !== null
        ? `Thought for ${timing.current.seconds} s`
        : 'Thought';

  // The live tail: while streaming, keep the newest lines in view unless the reader scrolled up.
  // Pinned from a ResizeObserver on the text, whose reports come after the frame's layout:
  // pinning in a layout effect read a layout the commit had just changed (a forced layout on
  // every frame of thinking). Every browser since 2020 has one; jsdom, which lays nothing
  // out, does not, and has no tail to pin.
  const panel = useRef<HTMLDivElement>(null);
  const text = useRef<HTMLParagraphElement>(null);
  const following = useRef(true);
  const tail = streaming && open;
  useLayoutEffect(() => {
    const element = panel.current;
    const content = text.current;
    if (!tail || !element || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, [tail]);

  return (
    <div
      className={cx(
        'ms-thinking',
        `ms-thinking--${block.status}`,
        open && 'ms-thinking--open',
        className,
      )}
    >
      <button
        type="button"
        id={buttonId}
        className="ms-thinking__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setUserToggled(true);
          setOpen((value) => !value);
        }}
      >
        <span className="ms-thinking__icon" aria-hidden="true" />
        <span className={cx('ms-thinking__label', streaming && 'ms-thinking__label--streaming')}>
          {label}
        </span>
      </button>
      {/* biome-ignore lint/a11y/useSemanticElements: a named, focusable scroll area, not a form's fieldset. */}
      <div
        ref={panel}
        id={panelId}
        role="group"
        aria-labelledby={buttonId}
        className={cx('ms-thinking__panel', tail && 'ms-thinking__panel--tail')}
        hidden={!open}
        // Scrollable while it tails, so it must be reachable by keyboard.
        tabIndex={tail ? 0 : undefined}
        onScroll={(event) => {
          const element = event.currentTarget;
          following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 8;
        }}
      >
        <p ref={text} className="ms-thinking__text">
          <SegmentedText text={thinking} />
        </p>
      </div>
    </div>
  );
}
