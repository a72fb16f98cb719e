import {
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Icon, type IconName } from '../chat/icons.js';
import { cx } from './cx.js';

export type Feedback = 'up' | 'down';

export interface MessageActionsProps {
  /** The message's text to copy (an answer's markdown, a user's words). No Copy without it. */
  readonly copyText?: string;
  /** Ask for another answer in this one's place. */
  readonly onRegenerate?: () => void;
  /** Edit this (user) message. */
  readonly onEdit?: () => void;
  /**
   * Adds thumbs up / down; the pressed one shows as pressed, and pressing it again takes it
   * back (`null`).
   */
  readonly onFeedback?: (value: Feedback | null) => void;
  /** The thumbs given to this answer, if any: shown pressed. */
  readonly feedback?: Feedback | null;
  /** A request is under way: Regenerate and Edit are disabled. */
  readonly busy?: boolean;
  /** More at the row's end (usage, stream details). */
  readonly children?: ReactNode;
  /** The toolbar's accessible name. */
  readonly label?: string;
  /** Extra class names on the root element, for your own styles. */
  readonly className?: string;
}

function ActionButton({
  icon,
  label,
  onClick,
  disabled,
  pressed,
}: {
  icon: IconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
}): ReactElement {
  return (
    <button
      type="button"
      className="ms-icon-button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      data-action={icon}
      onClick={onClick}
      disabled={disabled}
    >
      <Icon name={icon} filled={pressed === true} />
    </button>
  );
}

/** The toolbar's buttons, in order: those of a popover it opens (stream details) are not its. */
const itemsOf = (bar: HTMLElement): HTMLButtonElement[] =>
  [...bar.querySelectorAll('button')].filter(
    (button) => !button.disabled && button.closest('[popover]') === null,
  );

/**
 * Roving tabindex (the ARIA toolbar pattern): `current` (else the item that was the tab stop,
 * else the first) is the toolbar's one tab stop; the others are reached with the arrow keys.
 */
function rove(bar: HTMLElement, current: HTMLElement | null): void {
  const items = itemsOf(bar);
  const stop =
    (current && items.includes(current as HTMLButtonElement) ? current : null) ??
    items.find((item) => item.getAttribute('tabindex') === '0') ??
    items[0];
  for (const item of items) item.tabIndex = item === stop ? 0 : -1;
}

const STEPS: Readonly<Record<string, (index: number, count: number) => number>> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * The row under a message: Copy, Regenerate (answers), Edit (user messages), optional
 * thumbs up / down, and whatever the app adds. Icon buttons, each with its own name; the copy
 * outcome is announced through a polite status. A toolbar with one tab stop: ← and → (they
 * wrap), Home and End move between its buttons, the app's own ones (stream details) included.
 */
export function MessageActions({
  copyText,
  onRegenerate,
  onEdit,
  onFeedback,
  feedback = null,
  busy = false,
  children,
  label = 'Message actions',
  className,
}: MessageActionsProps): ReactElement {
  const [copied, setCopied] = useState<'' | 'Copied' | 'Copy failed'>('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const bar = useRef<HTMLDivElement>(null);
  // One tab stop, kept as buttons come (the app's, drawn later), go, or are disabled (busy).
  useLayoutEffect(() => {
    const element = bar.current;
    if (element === null) return;
    rove(element, null);
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => rove(element, null));
    observer.observe(element, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
    return () => observer.disconnect();
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = itemsOf(event.currentTarget);
    const index = items.indexOf(event.target as HTMLButtonElement);
    // Right to left, ← goes on to the next button, as the row reads.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const key = rtl
      ? ({ ArrowLeft: 'ArrowRight', ArrowRight: 'ArrowLeft' }[event.key] ?? event.key)
      : event.key;
    const step = STEPS[key];
    if (step === undefined || index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const next = items[step(index, items.length)] as HTMLButtonElement;
    event.preventDefault();
    rove(event.currentTarget, next);
    next.focus();
  };
  const copy = async () => {
    let outcome: 'Copied' | 'Copy failed' = 'Copy failed';
    try {
      if (copyText !== undefined && navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(copyText);
        outcome = 'Copied';
      }
    } catch {
      outcome = 'Copy failed';
    }
    setCopied(outcome);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(''), 2000);
  };
  return (
    <div
      ref={bar}
      className={cx('ms-actions', className)}
      role="toolbar"
      aria-label={label}
      onKeyDown={onKeyDown}
      // A button reached by a click or by the app becomes the tab stop.
      onFocus={(event) => rove(event.currentTarget, event.target as HTMLElement)}
    >
      {copyText !== undefined ? (
        <ActionButton icon={copied === 'Copied' ? 'check' : 'copy'} label="Copy" onClick={copy} />
      ) : null}
      {onEdit ? <ActionButton icon="edit" label="Edit" onClick={onEdit} disabled={busy} /> : null}
      {onRegenerate ? (
        <ActionButton icon="regenerate" label="Regenerate" onClick={onRegenerate} disabled={busy} />
      ) : null}
      {onFeedback ? (
        <>
          <ActionButton
            icon="thumbs-up"
            label="Good answer"
            pressed={feedback === 'up'}
            onClick={() => onFeedback(feedback === 'up' ? null : 'up')}
          />
          <ActionButton
            icon="thumbs-down"
            label="Bad answer"
            pressed={feedback === 'down'}
            onClick={() => onFeedback(feedback === 'down' ? null : 'down')}
          />
        </>
      ) : null}
      {/* A copy that worked shows as the check in the button (the word beside the row's
          last button read as belonging to it); one that failed is said in words. */}
      <span
        className={cx('ms-actions__status', copied === 'Copied' && 'ms-sr-only')}
        aria-live="polite"
      >
        {copied}
      </span>
      {children ? <span className="ms-actions__end">{children}</span> : null}
    </div>
  );
}
