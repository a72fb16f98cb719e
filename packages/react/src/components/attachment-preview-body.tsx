import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../chat/icons.js';
import type { Attachment } from '../store/types.js';
import { formatFileSize } from './attachment-list.js';
import type { AttachmentPreviewProps } from './attachment-preview.js';
import { cx } from './cx.js';

/** How much of a text file is drawn: a 30 MB log stays one cheap layout. */
const TEXT_SHOWN = 100_000;

/** A text's first `TEXT_SHOWN` units, and how much is left; never cut inside a surrogate pair. */
function shortened(data: string): string {
  if (data.length <= TEXT_SHOWN) return data;
  const last = data.charCodeAt(TEXT_SHOWN - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? TEXT_SHOWN - 1 : TEXT_SHOWN;
  return `${data.slice(0, end)}\n\n… (${(data.length - end).toLocaleString('en-US')} more characters: Download to read them all)`;
}

/** The file's bytes as a Blob: base64 for images and PDFs, the text itself for text. */
function toBlob({ data, mediaType }: Attachment): Blob {
  if (mediaType === 'text/plain') return new Blob([data], { type: 'text/plain;charset=utf-8' });
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: mediaType });
}

/** An object URL for the file while the dialog is open; revoked when it closes. */
function useFileUrl(attachment: Attachment): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let made: string | undefined;
    try {
      made = URL.createObjectURL(toBlob(attachment));
    } catch {
      // Data that is not base64 (a damaged saved conversation): no Download, the rest shows.
    }
    setUrl(made);
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [attachment]);
  return url;
}

/** The dialog of `AttachmentPreview` (attachment-preview.tsx), loaded when a file is opened. */
export function AttachmentPreviewBody({
  attachment,
  onClose,
  className,
}: AttachmentPreviewProps): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  const nameId = useId();
  const url = useFileUrl(attachment);
  const { name, mediaType, data } = attachment;
  const pressedOutside = useRef(false);
  // Where focus was, for a dialog without `showModal` (the browser hands it back otherwise).
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else {
        element.setAttribute('open', '');
        opener.current = document.activeElement as HTMLElement | null;
        element.querySelector<HTMLElement>('button')?.focus();
      }
    }
  }, []);
  // Closed natively first (focus goes back to the opener), then said at once: where the dialog
  // has no `close`, or closes without its event (a test's DOM), the part still goes.
  const native = () => typeof dialog.current?.close === 'function';
  const close = () => {
    if (native()) dialog.current?.close();
    else opener.current?.focus();
    onClose();
  };
  const image = mediaType.startsWith('image/');
  return (
    <dialog
      ref={dialog}
      className={cx('ms-file-preview', className)}
      aria-labelledby={nameId}
      onClose={onClose}
      onKeyDown={(event) => {
        // Escape is the native dialog's own; the fallback's is here.
        if (event.key !== 'Escape' || native()) return;
        event.preventDefault();
        close();
      }}
      // A press on the backdrop lands on the dialog itself, outside its content. Only a click
      // pressed there too: a text selection dragged out over the backdrop also ends in a click
      // on the dialog (the nearest element both ends were in), and is not a way out.
      onPointerDown={(event) => {
        pressedOutside.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget && pressedOutside.current) close();
        pressedOutside.current = false;
      }}
    >
      <div className="ms-file-preview__bar">
        <span className="ms-file-preview__name" id={nameId}>
          {name}
        </span>
        <span className="ms-attachment__size">{formatFileSize(attachment.size)}</span>
        {url ? (
          <a className="ms-button ms-button--small" href={url} download={name}>
            <Icon name="download" />
            {/* Icon alone on a phone, where the file's name needs the room. */}
            <span className="ms-file-preview__label">Download</span>
          </a>
        ) : null}
        <button type="button" className="ms-icon-button" aria-label="Close" onClick={close}>
          <Icon name="close" />
        </button>
      </div>
      <div className="ms-file-preview__body">
        {image ? (
          <img src={`data:${mediaType};base64,${data}`} alt={name} />
        ) : mediaType === 'text/plain' ? (
          // A tab stop, so the keyboard can scroll a long text.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll without a mouse.
          <section className="ms-file-preview__text" tabIndex={0} aria-label={`Text of ${name}`}>
            <pre>{shortened(data)}</pre>
          </section>
        ) : (
          <div className="ms-file-preview__note">
            <span className="ms-attachment__kind" aria-hidden="true">
              PDF
            </span>
            <p>A PDF opens in the browser's own viewer.</p>
            {url ? (
              <a className="ms-button" href={url} target="_blank" rel="noopener noreferrer">
                Open it in a new tab
              </a>
            ) : null}
          </div>
        )}
      </div>
    </dialog>
  );
}
