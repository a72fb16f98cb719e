/**
 * The files a sent user message carries, for showing them. Apart from `attachments.ts` (the
 * checks and the reading, loaded when a file is attached) so that drawing a message does not
 * load those.
 */
import type { MessageParam } from '@message-stream/core';
import type { Attachment, AttachmentMediaType } from './types.js';

/** The media types a file is sent as (`attachmentBlock`), the only ones shown as files. */
const SENT_TYPES: ReadonlySet<string> = new Set<AttachmentMediaType>([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

/** How many bytes base64 `data` stands for: three per four characters, less its padding. */
const base64Bytes = (data: string): number => {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
};

/**
 * The attachments a sent user message carries (its `image` and `document` blocks with
 * inline data), for showing them: `<AttachmentList attachments={attachmentsOf(turn.content,
 * turn.fileNames)} />`. A block's name is its file's (`fileNames`, by position), else its
 * title (documents have one on the wire, images do not), else "Image" or "Document".
 */
export function attachmentsOf(
  content: MessageParam['content'],
  fileNames?: readonly (string | null)[],
): Attachment[] {
  if (typeof content === 'string') return [];
  const found: Attachment[] = [];
  content.forEach((block, index) => {
    if (block.type !== 'image' && block.type !== 'document') return;
    const source = (block as { source?: { type?: unknown; media_type?: unknown; data?: unknown } })
      .source;
    if (typeof source?.data !== 'string' || typeof source.media_type !== 'string') return;
    if (!SENT_TYPES.has(source.media_type)) return;
    const title = (block as { title?: unknown }).title;
    // Read back from storage, so not trusted to be the list it was written as.
    const fileName = Array.isArray(fileNames) ? fileNames[index] : undefined;
    found.push({
      id: `block_${index}`,
      name:
        typeof fileName === 'string' && fileName !== ''
          ? fileName
          : typeof title === 'string' && title !== ''
            ? title
            : block.type === 'image'
              ? 'Image'
              : 'Document',
      mediaType: source.media_type as AttachmentMediaType,
      size: source.type === 'base64' ? base64Bytes(source.data) : source.data.length,
      data: source.data,
    });
  });
  return found;
}
