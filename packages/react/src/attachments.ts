/**
 * `@message-stream/react/attachments`: the helpers behind the composer's attachments, for a
 * composer or a pipeline of your own: which files the API takes and within which limits, a
 * file read into an attachment, an attachment as the content block that sends it, and the
 * attachments a sent message carries. `<ChatStream/>` and `useAttachments` load this code on
 * demand, when a file is first added; import it from here to use it directly.
 */
export {
  ATTACHMENT_LIMITS,
  AttachmentError,
  type AttachmentProblem,
  attachmentBlock,
  attachmentMediaType,
  attachmentsOf,
  checkAttachment,
  readAttachment,
} from './store/attachments.js';
export type { Attachment, AttachmentMediaType } from './store/types.js';
