import type { ReactElement } from 'react';
import type { Attachment } from '../store/types.js';
import { cx } from './cx.js';

export interface AttachmentListProps {
  /** The files to show, in order. */
  attachments: readonly Attachment[];
  /** Shows a remove button on each (the composer); without it the list is read-only (a sent message). */
  onRemove?: (id: string) => void;
  /**
   * Makes each file a button that opens it (a sent message: `AttachmentPreview` shows it
   * larger). Without it the chips are read-only.
   */
  onOpen?: (attachment: Attachment) => void;
  /** The list's name. Default "Attachments". */
  label?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

const KIND: Readonly<Record<string, string>> = {
  'application/pdf': 'PDF',
  'text/plain': 'Text',
};

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Files attached to a message: a thumbnail for an image (the user's own file, from its
 * data in memory; nothing is fetched), a chip naming the kind for a PDF or a text file,
 * each with its name and size and, in the composer, a remove button named for the file.
 */
export function AttachmentList({
  attachments,
  onRemove,
  onOpen,
  label = 'Attachments',
  className,
}: AttachmentListProps): ReactElement | null {
  if (attachments.length === 0) return null;
  return (
    <ul className={cx('ms-attachments', className)} aria-label={label}>
      {attachments.map((attachment) => {
        const chip = (
          <>
            {attachment.mediaType.startsWith('image/') ? (
              <img
                className="ms-attachment__preview"
                src={`data:${attachment.mediaType};base64,${attachment.data}`}
                alt=""
              />
            ) : (
              <span className="ms-attachment__kind" aria-hidden="true">
                {KIND[attachment.mediaType] ?? 'File'}
              </span>
            )}
            <span className="ms-attachment__name">{attachment.name}</span>{' '}
            <span className="ms-attachment__size">{formatFileSize(attachment.size)}</span>
          </>
        );
        return (
          <li key={attachment.id} className="ms-attachment">
            {onOpen ? (
              <button
                type="button"
                className="ms-attachment__open"
                onClick={() => onOpen(attachment)}
              >
                {/* Named by what it shows ("Open notes.txt 512 B"): a name that left the
                    visible words out would not match what voice control users say. */}
                <span className="ms-visually-hidden">Open</span> {chip}
              </button>
            ) : (
              chip
            )}
            {onRemove ? (
              <button
                type="button"
                className="ms-attachment__remove"
                aria-label={`Remove ${attachment.name}`}
                onClick={() => onRemove(attachment.id)}
              >
                ×
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
