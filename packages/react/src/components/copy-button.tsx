import { type ReactElement, useEffect, useRef, useState } from 'react';

export interface CopyButtonProps {
  /**
   * The text to copy, read when the button is pressed. A function is called only then: pass one
   * when the text is costly to build (a large value formatted as JSON), so no render pays for it.
   */
  text: string | (() => string);
  /** The button's visible text; "Copy" by default. */
  label?: string;
  /**
   * The button's accessible name when the visible text is not enough to tell several buttons
   * apart ("Copy python code"). Start it with the visible text, so speech input still matches.
   */
  ariaLabel?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * Copies text with the Clipboard API. The outcome ("Copied", or "Copy failed" where the API is
 * missing or refused) is announced through a polite status region that is always in the DOM,
 * so screen readers hear it, then cleared after two seconds.
 */
export function CopyButton({
  text,
  label = 'Copy',
  ariaLabel,
  className,
}: CopyButtonProps): ReactElement {
  const [feedback, setFeedback] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (message: string) => {
    setFeedback(message);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFeedback(''), 2000);
  };

  const copy = async () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard?.writeText) {
      show('Copy failed');
      return;
    }
    try {
      await clipboard.writeText(typeof text === 'function' ? text() : text);
      show('Copied');
    } catch {
      show('Copy failed');
    }
  };

  return (
    <span className={className ? `ms-copy ${className}` : 'ms-copy'}>
      <button type="button" className="ms-copy__button" onClick={copy} aria-label={ariaLabel}>
        {label}
      </button>
      <span className="ms-copy__feedback" role="status">
        {feedback}
      </span>
    </span>
  );
}
