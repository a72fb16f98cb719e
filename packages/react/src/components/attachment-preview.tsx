import type { ReactElement } from 'react';
import type { Attachment } from '../store/types.js';
import { lazyParts } from './lazy-part.js';

export interface AttachmentPreviewProps {
  /** The file to show: the user's own, from its data in memory (nothing is fetched). */
  attachment: Attachment;
  /** The dialog closed (Close, Escape, a click on the backdrop). */
  onClose: () => void;
  /** Extra class names on the dialog, for your own styles. */
  className?: string;
}

/** Its own chunk: nothing of it is needed until a file is opened. */
const preview = lazyParts(() => import('./attachment-preview-body.js'));

/**
 * A file, larger, in a modal dialog: an image whole, a text file's text (its first 100,000
 * characters), a PDF with Open in a new tab, and Download for each, under its name. A native
 * `<dialog>`: focus moves in, Escape or Close shuts it, focus goes back to the file that
 * opened it. Its code loads when a file is first opened.
 */
export const AttachmentPreview: (props: AttachmentPreviewProps) => ReactElement = preview.part(
  'AttachmentPreview',
  (parts) => parts.AttachmentPreviewBody,
  () => null,
);
