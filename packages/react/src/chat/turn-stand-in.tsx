import type { ReactElement } from 'react';
import type { Turn } from '../store/types.js';
import { answerMarkdown, userText } from './turn-text.js';

/** What a turn's text says, for its stand-in: user text, or the answer's markdown source. */
export const standInText = (turn: Turn): string =>
  turn.role === 'user' ? userText(turn) : answerMarkdown(turn);

/**
 * A turn as its text, in an article labelled as the real one is: what the log shows for a
 * group far from the viewport, and for a message before the code that formats it has loaded.
 * Find-in-page, screen readers and "select all" reach it, at a few nodes instead of ~70.
 * Markdown shows as its source, as a deferred answer's does. Nothing in it takes focus.
 */
export function TurnStandIn({ turn }: { readonly turn: Turn }): ReactElement {
  return (
    <article
      className={`ms-message ms-message--${turn.role} ms-message--stand-in`}
      aria-label={turn.role === 'user' ? 'You said' : 'Assistant'}
      data-turn-id={turn.id}
    >
      <p className="ms-message__text ms-chat__stand-in">{standInText(turn)}</p>
    </article>
  );
}
