/**
 * Files sent beside a message: images (PNG, JPEG, GIF, WebP) and PDFs as base64 `image` /
 * `document` blocks, text (notes, data, source code) as a text `document`. Checked against the Messages API's
 * limits before anything is read or sent, so a refusal names the file and the limit.
 */
import type { ContentBlockParam } from '@message-stream/core';
import type { Attachment, AttachmentMediaType, UserTurn } from './types.js';

const MB = 1024 * 1024;

/**
 * The API's limits: an image's base64 may be at most 5 MB (about 3.75 MB of file); a
 * request at most 32 MB, which bounds a PDF (base64 grows it by a third, so about 24 MB of
 * file) and a text file; a PDF at most 100 pages.
 */
export const ATTACHMENT_LIMITS = {
  imageBase64Bytes: 5 * MB,
  requestBytes: 32 * MB,
  pdfPages: 100,
} as const;

const IMAGE_TYPES: readonly AttachmentMediaType[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

const BY_EXTENSION: Readonly<Record<string, AttachmentMediaType>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/**
 * Text a person would attach (notes, data, source code) goes as a text document: browsers
 * name it `text/markdown`, `text/csv`, `application/json` and so on, or nothing at all.
 */
const TEXT_TYPE =
  /^(?:text\/|application\/(?:json|xml|(?:x-)?yaml|(?:x-)?javascript|typescript|sql|toml|x-sh|x-ndjson)$|application\/[\w.-]+\+(?:json|xml)$)/;
const TEXT_EXTENSION =
  /^(?:txt|text|md|markdown|csv|tsv|json|jsonl|ya?ml|xml|html?|css|[cm]?[jt]sx?|py|rb|go|rs|java|kts?|swift|c|h|cc|cpp|hpp|cs|php|sh|sql|toml|ini|log|tex)$/;

export type AttachmentProblem = 'type' | 'size' | 'pages' | 'read';

/** A file refused before sending; `message` names the file and the limit it broke. */
export class AttachmentError extends Error {
  override readonly name = 'AttachmentError';
  constructor(
    readonly fileName: string,
    readonly problem: AttachmentProblem,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** The kind of file a name and a MIME type describe, or null when it cannot be sent. */
export function attachmentMediaType(name: string, type: string): AttachmentMediaType | null {
  const mime = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if ((IMAGE_TYPES as readonly string[]).includes(mime)) return mime as AttachmentMediaType;
  if (mime === 'application/pdf') return mime;
  const extension = name.toLowerCase().split('.').pop() ?? '';
  // A text file's extension wins over its MIME type: Chromium calls a `.ts` file video/mp2t.
  // What is not UTF-8 text is refused when read.
  if (TEXT_TYPE.test(mime) || TEXT_EXTENSION.test(extension)) return 'text/plain';
  if (mime !== '' && mime !== 'application/octet-stream') return null;
  return BY_EXTENSION[extension] ?? null;
}

/** "3.76 MB", "25 MB": two decimals at most, rounded up, so a size over a limit reads as over it. */
const megabytes = (bytes: number) => `${Math.ceil((bytes / MB) * 100) / 100} MB`;
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** The refusal of files of a type the API does not take ("a.zip and b.exe"). */
const notTaken = (names: string) =>
  `${names} cannot be attached: you can attach images (PNG, JPEG, GIF, WebP), PDFs and text files.`;

/** Why this file cannot be sent (type or size), or null when it can. */
export function checkAttachment(file: {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}): AttachmentError | null {
  const mediaType = attachmentMediaType(file.name, file.type);
  if (mediaType === null) {
    return new AttachmentError(file.name, 'type', notTaken(file.name));
  }
  if (mediaType.startsWith('image/')) {
    if (base64Length(file.size) > ATTACHMENT_LIMITS.imageBase64Bytes) {
      return new AttachmentError(
        file.name,
        'size',
        `${file.name} is too large (${megabytes(file.size)}): an image can be at most ${megabytes((ATTACHMENT_LIMITS.imageBase64Bytes * 3) / 4)}.`,
      );
    }
    return null;
  }
  const text = mediaType === 'text/plain';
  if ((text ? file.size : base64Length(file.size)) > ATTACHMENT_LIMITS.requestBytes) {
    // Said as the file's own limit: a PDF grows by a third on the way, so 25 MB is over.
    const most = text ? ATTACHMENT_LIMITS.requestBytes : (ATTACHMENT_LIMITS.requestBytes * 3) / 4;
    return new AttachmentError(
      file.name,
      'size',
      `${file.name} is too large (${megabytes(file.size)}): ${text ? 'a text file' : 'a PDF'} can be at most ${megabytes(most)}.`,
    );
  }
  return null;
}

/** Pages of a PDF, counted from its page objects (`/Type /Page`, not `/Pages`). */
export function countPdfPages(bytes: Uint8Array): number {
  let text = '';
  // latin1 keeps every byte one character, so offsets and markers survive binary data.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const PDF = ascii('%PDF-');

/**
 * The image type an image's first bytes say, or null when they are none the API takes. The
 * API checks the bytes against the type sent and refuses the whole request when they differ
 * (a JPEG saved as `.png` is common), so the bytes decide, never the name or the browser's type.
 */
function imageTypeOf(bytes: Uint8Array): AttachmentMediaType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
    return 'image/gif';
  }
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return null;
}

/** Whether the bytes are a PDF: its header within the first 1,024 bytes, as readers allow. */
function isPdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - PDF.length, 1024);
  for (let at = 0; at <= end; at++) if (startsWith(bytes, PDF, at)) return true;
  return false;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

let nextAttachment = 0;

/**
 * Reads a file for sending, an image as the type its bytes say. Rejects with an
 * `AttachmentError` (naming the file and the limit) for another type, an image or PDF whose
 * bytes are none, a file over the API's limits, a PDF over 100 pages, or a file that cannot
 * be read.
 */
export async function readAttachment(file: Blob & { readonly name?: string }): Promise<Attachment> {
  const name = file.name ?? 'attachment';
  const refused = checkAttachment({ name, type: file.type, size: file.size });
  if (refused !== null) throw refused;
  let mediaType = attachmentMediaType(name, file.type) as AttachmentMediaType;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (cause) {
    throw new AttachmentError(
      name,
      'read',
      `${name} could not be read. Try attaching it again.`,
      cause,
    );
  }
  if (mediaType.startsWith('image/')) {
    const actual = imageTypeOf(bytes);
    if (actual === null) {
      throw new AttachmentError(
        name,
        'type',
        `${name} cannot be attached: its content is not a PNG, JPEG, GIF or WebP image.`,
      );
    }
    mediaType = actual;
  }
  if (mediaType === 'application/pdf') {
    if (!isPdf(bytes)) {
      throw new AttachmentError(
        name,
        'type',
        `${name} cannot be attached: its content is not a PDF.`,
      );
    }
    const pages = countPdfPages(bytes);
    if (pages > ATTACHMENT_LIMITS.pdfPages) {
      throw new AttachmentError(
        name,
        'pages',
        `${name} has ${pages} pages: a PDF can have at most ${ATTACHMENT_LIMITS.pdfPages}.`,
      );
    }
  }
  let data: string;
  try {
    // A binary file with a text file's name is refused, not sent as replacement characters.
    data =
      mediaType === 'text/plain'
        ? new TextDecoder('utf-8', { fatal: true }).decode(bytes)
        : toBase64(bytes);
  } catch {
    throw new AttachmentError(name, 'type', `${name} cannot be attached: its content is not text.`);
  }
  if (mediaType === 'text/plain' && data.includes('\0')) {
    throw new AttachmentError(name, 'type', `${name} cannot be attached: its content is not text.`);
  }
  return {
    id: `attachment_${(nextAttachment++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`,
    name,
    mediaType,
    size: file.size,
    data,
  };
}

/**
 * The notice for what a set of reads refused, a message each, in order; files refused for
 * their type share one ("a.zip and b.exe cannot be attached: …"), which would otherwise say the
 * same list of types once per file.
 */
export function refusals(
  results: readonly PromiseSettledResult<unknown>[],
  files: readonly (File | undefined)[],
  unreadable: (file: File | undefined) => string,
): string[] {
  const messages: string[] = [];
  const wrongType: string[] = [];
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') return;
    const { reason } = result;
    if (!(reason instanceof AttachmentError)) messages.push(unreadable(files[index]));
    else if (reason.message === notTaken(reason.fileName)) wrongType.push(reason.fileName);
    else messages.push(reason.message);
  });
  const last = wrongType.pop();
  if (last !== undefined) {
    messages.unshift(notTaken(wrongType.length > 0 ? `${wrongType.join(', ')} and ${last}` : last));
  }
  return messages;
}

/** The content block an attachment is sent as. */
export function attachmentBlock(attachment: Attachment): ContentBlockParam {
  if (attachment.mediaType.startsWith('image/')) {
    return {
      type: 'image',
      source: { type: 'base64', media_type: attachment.mediaType, data: attachment.data },
    };
  }
  const source =
    attachment.mediaType === 'text/plain'
      ? { type: 'text', media_type: 'text/plain', data: attachment.data }
      : { type: 'base64', media_type: 'application/pdf', data: attachment.data };
  return { type: 'document', source, title: attachment.name };
}

const isAttachment = (value: unknown): value is Attachment =>
  typeof (value as Attachment | null)?.data === 'string' &&
  typeof (value as Attachment).mediaType === 'string';

/** Reads what is not read yet; the first refusal rejects (nothing is sent then). */
export async function resolveAttachments(
  items: readonly (Attachment | Blob)[],
): Promise<Attachment[]> {
  const resolved = await Promise.all(
    items.map(async (item) => {
      if (!isAttachment(item)) return readAttachment(item);
      const refused = checkAttachment({ name: item.name, type: item.mediaType, size: item.size });
      if (refused !== null) throw refused;
      return item;
    }),
  );
  // Each file within the request's limit can still make one message over it together (and
  // every later request of the conversation carries it).
  const total = resolved.reduce((sum, attachment) => sum + attachment.data.length, 0);
  if (total > ATTACHMENT_LIMITS.requestBytes) {
    throw new AttachmentError(
      (resolved.at(-1) as Attachment).name,
      'size',
      `These files are too large together: a message can carry at most ${megabytes(ATTACHMENT_LIMITS.requestBytes)} (these come to ${megabytes(total)} as sent). Send some in another message.`,
    );
  }
  return resolved;
}

/**
 * A user turn's new version: text alone replaces its text and keeps the files it was sent
 * with (an edit of the words must not drop them), with their names, but for those `removed`
 * names by their `attachmentsOf` ids; blocks replace it all.
 */
export function editedContent(
  target: UserTurn,
  content: string | ContentBlockParam[],
  removed: readonly string[] = [],
): Pick<UserTurn, 'content' | 'fileNames'> {
  if (typeof content !== 'string' || typeof target.content === 'string') {
    return { content };
  }
  const kept = target.content.flatMap((block, i) =>
    (block.type === 'image' || block.type === 'document') && !removed.includes(`block_${i}`)
      ? [i]
      : [],
  );
  if (kept.length === 0) return { content };
  const text: ContentBlockParam[] = content.trim() === '' ? [] : [{ type: 'text', text: content }];
  const names = target.fileNames;
  return {
    content: [
      ...kept.map((i) => (target.content as ContentBlockParam[])[i] as ContentBlockParam),
      ...text,
    ],
    // Read back from storage, so each name is checked to be one.
    ...(Array.isArray(names)
      ? { fileNames: kept.map((i) => (typeof names[i] === 'string' ? names[i] : null)) }
      : {}),
  };
}

export { attachmentsOf } from './sent-attachments.js';
