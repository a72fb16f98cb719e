import {
  type FormEvent,
  type KeyboardEvent,
  type ReactElement,
  useId,
  useRef,
  useState,
} from 'react';

export interface ComposerProps {
  /** An answer is streaming: the Send button becomes Stop. */
  readonly busy: boolean;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
  readonly placeholder?: string;
  /** The accessible name of the text field. */
  readonly label?: string;
  readonly disabled?: boolean;
}

/**
 * The message field: Enter sends, Shift+Enter starts a new line (and Enter while an IME
 * is composing is left to the IME). While an answer streams, a Stop button replaces Send.
 */
export function Composer({
  busy,
  onSend,
  onStop,
  placeholder = 'Send a message…',
  label = 'Message',
  disabled = false,
}: ComposerProps): ReactElement {
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const canSend = !busy && !disabled && text.trim() !== '';

  const submit = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
    field.current?.focus();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form className="ms-composer" onSubmit={onSubmit}>
      <label className="ms-visually-hidden" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        ref={field}
        className="ms-composer__field"
        value={text}
        rows={2}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {busy ? (
        <button type="button" className="ms-button ms-composer__stop" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="ms-button ms-composer__send" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
