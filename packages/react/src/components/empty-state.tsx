import type { ReactElement, ReactNode } from 'react';
import { cx } from './cx.js';

/** A suggestion chip: its label, and the prompt it sends (the label itself by default). */
export type Suggestion = string | { readonly label: string; readonly prompt?: string };

export interface EmptyStateProps {
  /** The welcome line. */
  readonly title?: ReactNode;
  /** A line under it. */
  readonly description?: ReactNode;
  /** Prompts offered as chips; choosing one sends it. */
  readonly suggestions?: readonly Suggestion[];
  /** A chip was picked: send its prompt. */
  readonly onSuggestion?: (prompt: string) => void;
  /** Extra class names on the root element, for your own styles. */
  readonly className?: string;
}

const labelOf = (s: Suggestion) => (typeof s === 'string' ? s : s.label);
const promptOf = (s: Suggestion) => (typeof s === 'string' ? s : (s.prompt ?? s.label));

/** What an empty conversation shows: a welcome line and optional suggestion chips. */
export function EmptyState({
  title = 'How can I help?',
  description,
  suggestions = [],
  onSuggestion,
  className,
}: EmptyStateProps): ReactElement {
  return (
    <div className={cx('ms-empty', className)}>
      <h2 className="ms-empty__title">{title}</h2>
      {description ? <p className="ms-empty__description">{description}</p> : null}
      {suggestions.length > 0 && onSuggestion ? (
        <ul className="ms-empty__suggestions" aria-label="Suggestions">
          {suggestions.map((suggestion) => (
            <li key={labelOf(suggestion)}>
              <button
                type="button"
                className="ms-chip"
                onClick={() => onSuggestion(promptOf(suggestion))}
              >
                {labelOf(suggestion)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
