import type { ContentBlockParam } from '@message-stream/core';
import { type FormEvent, memo, type ReactElement, type ReactNode, useState } from 'react';
import { MessageActions } from '../components/message-actions.js';
import type { UserTurn } from '../store/types.js';

const describe = (block: ContentBlockParam): string => {
  if (block.type === 'text') return String((block as { text?: unknown }).text ?? '');
  if (block.type === 'image') return '[image]';
  if (block.type === 'document') return '[document]';
  return '';
};

/** What the user wrote, as one string (attachments as `[image]` / `[document]`). */
export const userText = (turn: UserTurn): string =>
  typeof turn.content === 'string'
    ? turn.content
    : turn.content.map(describe).filter(Boolean).join('\n');

export interface UserMessageProps {
  readonly turn: UserTurn;
  /**
   * Send an edited version of this message (a sibling turn, with a new answer). Without it,
   * the message offers Copy only.
   */
  readonly onEdit?: (turnId: string, content: string) => void;
  /** A request is under way: Edit is disabled. */
  readonly busy?: boolean;
  /** Shown beside the actions (a branch picker, ‹ 2 / 3 ›). */
  readonly extra?: ReactNode;
  /** Show the action row (Copy, Edit). Default true. */
  readonly actions?: boolean;
}

/** What the user wrote, as plain text (never markdown or HTML), with Copy and Edit. */
export const UserMessage = memo(function UserMessage({
  turn,
  onEdit,
  busy = false,
  extra,
  actions = true,
}: UserMessageProps): ReactElement {
  const text = userText(turn);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft !== null && onEdit) {
    const save = (event: FormEvent) => {
      event.preventDefault();
      if (draft.trim() === '') return;
      setDraft(null);
      onEdit(turn.id, draft);
    };
    return (
      <article className="ms-message ms-message--user ms-message--editing" aria-label="You said">
        <form className="ms-edit" onSubmit={save}>
          <textarea
            className="ms-edit__field"
            aria-label="Edit message"
            value={draft}
            // biome-ignore lint/a11y/noAutofocus: the editor opens on the user's own click.
            autoFocus
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setDraft(null);
            }}
          />
          <div className="ms-edit__bar">
            <button
              type="button"
              className="ms-button ms-button--small"
              onClick={() => setDraft(null)}
            >
              Cancel
            </button>
            <button
              type="submit"
              className="ms-button ms-button--small ms-button--primary"
              aria-label="Send edited message"
              disabled={busy}
            >
              Send
            </button>
          </div>
        </form>
      </article>
    );
  }
  return (
    <article className="ms-message ms-message--user" aria-label="You said">
      <p className="ms-message__text">{text}</p>
      {actions ? (
        <MessageActions
          copyText={text}
          onEdit={onEdit ? () => setDraft(text) : undefined}
          busy={busy}
          label="Message actions"
        >
          {extra}
        </MessageActions>
      ) : null}
    </article>
  );
});
