import {
  type FormEvent,
  type KeyboardEvent,
  memo,
  type ReactElement,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { AttachmentList } from '../components/attachment-list.js';
import { AttachmentPreview } from '../components/attachment-preview.js';
import { BranchPicker } from '../components/branch-picker.js';
import { MessageActions } from '../components/message-actions.js';
import type { ChatStore } from '../store/create-chat-store.js';
import { attachmentsOf } from '../store/sent-attachments.js';
import type { Attachment, EditOptions, UserTurn } from '../store/types.js';
import { useTouchFirst } from './touch.js';
import { userText } from './turn-text.js';

export interface UserMessageProps {
  /** The turn to show, from the store. */
  readonly turn: UserTurn;
  /**
   * Send an edited version of this message (a sibling turn, with a new answer), without the
   * files removed in the editor (`options.removeFiles`, as the store's `edit` takes them).
   * Without it, the message offers Copy only.
   */
  readonly onEdit?: (turnId: string, content: string, options?: EditOptions) => void;
  /** A request is under way: Edit is disabled. */
  readonly busy?: boolean;
  /** Shown beside the actions. */
  readonly extra?: ReactNode;
  /** The store, for the version picker (‹ 2 / 3 ›) of an edited message. */
  readonly branchStore?: ChatStore;
  /** Show the action row (Copy, Edit). Default true. */
  readonly actions?: boolean;
}

/**
 * Editors left open, by turn id: the message unmounts when another thread is shown (or its
 * part of a long log scrolls far away), and shown again it opens with the words being written.
 */
const openEditors = new Map<string, { draft: string; removed: readonly string[] }>();

/** What the user wrote, as plain text (never markdown or HTML), with Copy and Edit. */
export const UserMessage = memo(function UserMessage({
  turn,
  onEdit,
  busy = false,
  extra,
  branchStore,
  actions = true,
}: UserMessageProps): ReactElement {
  const text = userText(turn);
  const attachments = attachmentsOf(turn.content, turn.fileNames);
  const [draft, setDraft] = useState(() => openEditors.get(turn.id)?.draft ?? null);
  // The files taken out in the editor, by their `attachmentsOf` ids.
  const [removed, setRemoved] = useState(() => openEditors.get(turn.id)?.removed ?? []);
  useEffect(() => {
    if (draft === null) openEditors.delete(turn.id);
    else openEditors.set(turn.id, { draft, removed });
  }, [turn.id, draft, removed]);
  // Focus goes to the editor when the user opens it, not when it shows again on its own.
  const focusEditor = useRef(false);
  // As in the composer: on a touch screen Enter is a new line, and the Send button sends.
  const touch = useTouchFirst();
  // The sent file shown larger, if any.
  const [opened, setOpened] = useState<Attachment | null>(null);
  const root = useRef<HTMLElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  // Closing the editor without sending unmounts the focused field: focus goes back to Edit.
  const refocusEdit = useRef(false);
  useEffect(() => {
    if (draft !== null || !refocusEdit.current) return;
    refocusEdit.current = false;
    root.current?.querySelector<HTMLElement>('[data-action="edit"]')?.focus();
  }, [draft]);
  const editing = draft !== null;
  // The editor opens with the caret after the text, to go on writing (focus alone puts it
  // before the first character).
  useEffect(() => {
    const element = field.current;
    if (!editing || !element || !focusEditor.current) return;
    focusEditor.current = false;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [editing]);
  if (draft !== null && onEdit) {
    // Forgotten at once, not by the effect: the message may be gone before it runs (an edit
    // whose new version replaces this turn in the same render), and shown again it would
    // reopen with words already sent.
    const close = () => {
      openEditors.delete(turn.id);
      setDraft(null);
    };
    const cancel = () => {
      refocusEdit.current = true;
      close();
    };
    const kept = attachments.filter((file) => !removed.includes(file.id));
    const save = (event: FormEvent | KeyboardEvent) => {
      event.preventDefault();
      // Files alone are a message too, as in the composer.
      if ((draft.trim() === '' && kept.length === 0) || busy) return;
      close();
      onEdit(turn.id, draft, removed.length > 0 ? { removeFiles: removed } : undefined);
    };
    return (
      <article
        ref={root}
        className="ms-message ms-message--user ms-message--editing"
        aria-label="You said"
      >
        <form className="ms-edit" onSubmit={save}>
          {/* The edit keeps the message's files (the store's `edit`) but those removed here. */}
          <AttachmentList
            attachments={kept}
            onRemove={(id) => {
              // The button goes with its file: focus goes to the field, not to the page.
              field.current?.focus();
              setRemoved([...removed, id]);
            }}
            label="Files sent with the edit"
          />
          <textarea
            ref={field}
            className="ms-edit__field"
            aria-label="Edit message"
            value={draft}
            enterKeyHint={touch ? 'enter' : 'send'}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              // As in the composer: Enter sends (a new line on a touch screen), Shift+Enter is a
              // new line, an IME's Enter commits its text; Escape closes the editor unsent.
              if (event.key === 'Escape') {
                event.preventDefault();
                cancel();
              } else if (
                !touch &&
                event.key === 'Enter' &&
                !event.shiftKey &&
                !event.nativeEvent.isComposing
              ) {
                save(event);
              }
            }}
          />
          <div className="ms-edit__bar">
            <button type="button" className="ms-button ms-button--small" onClick={cancel}>
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
    <article ref={root} className="ms-message ms-message--user" aria-label="You said">
      <AttachmentList attachments={attachments} onOpen={setOpened} label="Attached files" />
      {opened ? <AttachmentPreview attachment={opened} onClose={() => setOpened(null)} /> : null}
      {text !== '' ? <p className="ms-message__text">{text}</p> : null}
      {/* The version picker last: under the bubble's edge, whatever the actions before it do. */}
      <div className="ms-message__footer">
        {actions ? (
          <MessageActions
            copyText={text}
            onEdit={
              onEdit
                ? () => {
                    focusEditor.current = true;
                    setRemoved([]);
                    setDraft(text);
                  }
                : undefined
            }
            busy={busy}
            label="Message actions"
          >
            {extra}
          </MessageActions>
        ) : null}
        {branchStore ? <BranchPicker store={branchStore} turnId={turn.id} busy={busy} /> : null}
      </div>
    </article>
  );
});
