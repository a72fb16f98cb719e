import { loadOnce } from '../load-once.js';

/**
 * The attachment helpers' chunk: reading, checking and encoding files. Loaded when a file is
 * first added or sent, so a chat nobody attaches to never loads it.
 */
export const loadAttachments = loadOnce(() => import('./attachments.js'));
