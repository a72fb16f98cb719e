import {
  type FormEvent,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { AttachmentList } from '../components/attachment-list.js';
import { AttachmentPreview } from '../components/attachment-preview.js';
import type { AttachmentsController } from '../hooks/use-attachments.js';
import { useKeyedDraft } from '../hooks/use-keyed-draft.js';
import { draftKeyOf } from '../store/tab-keys.js';
import type { Attachment } from '../store/types.js';
import { Icon } from './icons.js';
import { touchFirst, useTouchFirst } from './touch.js';

export interface ComposerProps {
  /** An answer is streaming: the Send button becomes Stop, and Escape stops it. */
  readonly busy: boolean;
  /** Called with the typed text when the user sends (Enter or the Send button). */
  readonly onSend: (text: string) => void;
  /** Called when the user stops the streaming answer (Escape or the Stop button). */
  readonly onStop: () => void;
  /** The message field's placeholder text. */
  readonly placeholder?: string;
  /** The accessible name of the text field. */
  readonly label?: string;
  /** The field and its buttons cannot be used (no store yet, a read-only view). */
  readonly disabled?: boolean;
  /** The text field, for the shell to move focus to (after Resume or Retry, on load). */
  readonly inputRef?: RefObject<HTMLTextAreaElement | null>;
  /**
   * Put focus in the field when the composer first shows (an empty conversation). Not on a
   * touch screen, where focus would open the keyboard over the page before anyone asked.
   */
  readonly autoFocus?: boolean;
  /**
   * Whether Enter sends (Shift+Enter starts a new line). Default: yes, but not where the main
   * pointer is a finger: a phone's keyboard has no Shift+Enter, so there Enter starts a new
   * line and the Send button sends.
   */
  readonly enterKeySends?: boolean;
  /**
   * Controls beside Send (an attach button, a model picker), and what sits above the field
   * (attachment chips). The composer sends only text; an app's controls send the rest.
   */
  readonly accessory?: ReactNode;
  /** Shown above the field, inside the composer: attachments, a notice. */
  readonly header?: ReactNode;
  /** Sending is allowed with an empty field (there are attachments to send). */
  readonly allowEmpty?: boolean;
  /**
   * Files to send with the message (`useAttachments()`): an attach button, paste and
   * drag-and-drop onto the composer, the chips with remove, and the refusals. The shell sends
   * them with the text; without it, the composer takes text only.
   */
  readonly attachments?: AttachmentsController;
  /**
   * Keeps the unsent text per conversation (the chat store, say): a composer mounted again
   * with the same key, after a switch to another thread and back, starts from it.
   */
  readonly draftKey?: object;
  /**
   * Keeps the unsent text across a reload of the tab too, in `sessionStorage` under this name
   * (`<ChatStream/>` passes a saved conversation's `persist.name`). Written as the page goes
   * or the composer leaves the conversation, forgotten once sent. Files are not kept: they can
   * be megabytes.
   */
  readonly saveDraftAs?: string;
}

/** Unsent text by draft key; let go with the key (a conversation that is gone). */
const drafts = new WeakMap<object, string>();

/** The tab's storage, where a draft waits out a reload; null where it may not be used. */
const tab = (): Storage | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // A sandboxed frame: reading the property throws.
    return null;
  }
};

/** Puts a draft in the tab's storage, or takes it out when empty. Best effort: full is fine. */
function keepInTab(name: string, text: string): void {
  try {
    if (text === '') tab()?.removeItem(name);
    else tab()?.setItem(name, text);
  } catch {
    // Full or refused: the draft is still in memory.
  }
}

/** The browser sizes a textarea to its content from CSS (styles.css: `field-sizing`). */
const sizesItself = (): boolean =>
  typeof CSS !== 'undefined' &&
  typeof CSS.supports === 'function' &&
  CSS.supports('field-sizing', 'content');

/**
 * The message field: it grows with its content up to a limit (`--ms-composer-max-height`),
 * then scrolls. Enter sends, Shift+Enter starts a new line (and Enter while an IME is
 * composing is left to the IME), Escape stops a streaming answer. While an answer streams, a
 * Stop button replaces Send.
 */
export function Composer({
  busy,
  onSend,
  onStop,
  placeholder = 'Send a message…',
  label = 'Message',
  disabled = false,
  inputRef,
  autoFocus = false,
  accessory,
  header,
  allowEmpty = false,
  attachments,
  draftKey,
  enterKeySends,
  saveDraftAs,
}: ComposerProps): ReactElement {
  const tabKey = saveDraftAs === undefined ? undefined : draftKeyOf(saveDraftAs);
  // What the tab kept from before a reload: where this key has nothing in memory yet.
  const kept = useMemo(() => {
    try {
      return (tabKey && tab()?.getItem(tabKey)) || '';
    } catch {
      return '';
    }
  }, [tabKey]);
  const touch = useTouchFirst();
  const enterSends = enterKeySends ?? !touch;
  const [text, update, keyNow] = useKeyedDraft(drafts, draftKey, kept);
  // Written as the page goes, and as the composer leaves this key (another conversation
  // shown): its draft must not wait for a pagehide it will not be mounted for.
  useEffect(() => {
    if (tabKey === undefined) return;
    const key = keyNow();
    const write = () => keepInTab(tabKey, drafts.get(key) ?? kept);
    addEventListener('pagehide', write);
    return () => {
      removeEventListener('pagehide', write);
      write();
    };
  }, [tabKey, kept, keyNow]);
  const setText = (value: string) => update(() => value);
  const own = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const attach = useRef<HTMLButtonElement>(null);
  // A file being looked at before it is sent.
  const [opened, setOpened] = useState<Attachment | null>(null);
  const field = inputRef ?? own;
  const id = useId();
  const hasFiles = (attachments?.attachments.length ?? 0) > 0;
  // Focus on load, decided in the browser: an `autofocus` in server-rendered HTML would be
  // followed by a phone as the page loads, before any script could say it is a phone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the composer first shows.
  useEffect(() => {
    if (autoFocus && !touchFirst()) field.current?.focus();
  }, []);
  const canSend =
    !busy && !disabled && !attachments?.reading && (allowEmpty || hasFiles || text.trim() !== '');

  // Grow with the content. Where CSS can (`field-sizing: content`), it does, with no script
  // per key; elsewhere measure from `auto` each time, so it also shrinks. (Setting `auto` and
  // reading the height forced a layout of the page on every key, the log included.)
  useLayoutEffect(() => {
    const element = field.current;
    if (!element || sizesItself()) return;
    void text;
    element.style.height = 'auto';
    if (element.scrollHeight > 0) element.style.height = `${element.scrollHeight}px`;
  }, [field, text]);

  const submit = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
    if (tabKey) keepInTab(tabKey, '');
    field.current?.focus();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && busy) {
      event.preventDefault();
      onStop();
      return;
    }
    if (!enterSends || event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) {
      return;
    }
    event.preventDefault();
    submit();
  };

  return (
    <form
      className={attachments?.dragging ? 'ms-composer ms-composer--dragging' : 'ms-composer'}
      onSubmit={onSubmit}
      onPaste={attachments?.onPaste}
      {...attachments?.dropProps}
    >
      {header}
      {attachments ? (
        <>
          <AttachmentList
            attachments={attachments.attachments}
            onRemove={(id) => {
              // The button goes with its file: focus goes to the field, not to the page.
              field.current?.focus();
              attachments.remove(id);
            }}
            onOpen={setOpened}
          />
          {opened ? (
            <AttachmentPreview attachment={opened} onClose={() => setOpened(null)} />
          ) : null}
          {attachments.errors.length > 0 ? (
            <div className="ms-composer__errors" role="alert">
              <ul>
                {attachments.errors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </ul>
              <button
                type="button"
                className="ms-icon-button"
                aria-label="Dismiss"
                onClick={() => {
                  // The button goes with the notice: focus goes to the field, not to the page;
                  // on a touch screen to Attach (the field would open the keyboard).
                  (touch ? attach : field).current?.focus();
                  attachments.dismissErrors();
                }}
              >
                <Icon name="close" />
              </button>
            </div>
          ) : null}
        </>
      ) : null}
      <label className="ms-visually-hidden" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        ref={field}
        className="ms-composer__field"
        value={text}
        rows={1}
        placeholder={placeholder}
        disabled={disabled}
        enterKeyHint={enterSends ? 'send' : 'enter'}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="ms-composer__bar">
        <div className="ms-composer__accessory">
          {attachments ? (
            <>
              <input
                ref={picker}
                type="file"
                multiple
                hidden
                accept={attachments.accept}
                onChange={attachments.onInputChange}
                aria-label="Attach files"
              />
              <button
                ref={attach}
                type="button"
                className="ms-icon-button"
                aria-label="Attach files"
                title="Attach files (or paste, or drop them here)"
                onClick={() => picker.current?.click()}
              >
                <Icon name="attach" />
              </button>
            </>
          ) : null}
          {accessory}
        </div>
        {busy ? (
          <button
            type="button"
            className="ms-composer__button ms-composer__stop"
            aria-label="Stop"
            title={touch ? 'Stop' : 'Stop (Escape)'}
            // Send (disabled) takes its place: focus goes to the field, not to the page.
            onClick={() => {
              onStop();
              field.current?.focus();
            }}
          >
            <Icon name="stop" />
          </button>
        ) : (
          <button
            type="submit"
            className="ms-composer__button ms-composer__send"
            aria-label="Send"
            title={enterSends ? 'Send (Enter)' : 'Send'}
            disabled={!canSend}
          >
            <Icon name="send" />
          </button>
        )}
      </div>
    </form>
  );
}
