/**
 * `@message-stream/react/markdown`: the pieces `StreamingMarkdown` is made of, for a markdown
 * renderer of your own: a text cut into top-level blocks (each re-parsed only while it grows),
 * the streaming tail repaired so a half-written block renders as it will end, and the link
 * allowlist every rendered URL goes through. No React: plain functions.
 */
export { type MarkdownChunk, type MarkdownSplit, splitMarkdown } from './markdown/split.js';
export { repairStreamingTail } from './markdown/tail.js';
export { hostnameOf, markdownUrlTransform, safeHref } from './markdown/url.js';
