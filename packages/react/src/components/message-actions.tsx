import { type ReactElement, type ReactNode, useEffect, useRef, useState } from 'react';
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
  /** Adds thumbs up / down; the pressed one shows as pressed. */
  readonly onFeedback?: (value: Feedback) => void;
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

/**
 * The row under a message: Copy, Regenerate (answers), Edit (user messages), optional
 * thumbs up / down, and whatever the app adds. Icon buttons, each with its own name; the copy
 * outcome is announced through a polite status.
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
    <div className={cx('ms-actions', className)} role="toolbar" aria-label={label}>
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
            onClick={() => onFeedback('up')}
          />
          <ActionButton
            icon="thumbs-down"
            label="Bad answer"
            pressed={feedback === 'down'}
            onClick={() => onFeedback('down')}
          />
        </>
      ) : null}
      <span className="ms-actions__status" aria-live="polite">
        {copied}
      </span>
      {children ? <span className="ms-actions__end">{children}</span> : null}
    </div>
  );
}
