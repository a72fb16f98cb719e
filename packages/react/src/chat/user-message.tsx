import type { ContentBlockParam } from '@message-stream/core';
import { memo, type ReactElement } from 'react';
import type { UserTurn } from '../store/types.js';

const describe = (block: ContentBlockParam): string => {
  if (block.type === 'text') return String((block as { text?: unknown }).text ?? '');
  if (block.type === 'image') return '[image]';
  if (block.type === 'document') return '[document]';
  return '';
};

export interface UserMessageProps {
  readonly turn: UserTurn;
}

/** What the user wrote, as plain text (never markdown or HTML). */
export const UserMessage = memo(function UserMessage({ turn }: UserMessageProps): ReactElement {
  const text =
    typeof turn.content === 'string'
      ? turn.content
      : turn.content.map(describe).filter(Boolean).join('\n');
  return (
    <article className="ms-message ms-message--user" aria-label="You said">
      <p className="ms-message__text">{text}</p>
    </article>
  );
});
