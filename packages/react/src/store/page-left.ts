import { createStreamError, type StreamError } from '@message-stream/core';

/** An answer the page left while it streamed: cut off, and resumable like any. */
export const PAGE_LEFT_MID_ANSWER: StreamError = {
  ...createStreamError({
    type: 'stream_interrupted',
    message: 'The page was closed or reloaded while this answer was streaming.',
  }),
  description: 'The page was closed or reloaded before the answer finished. Resume to continue it.',
};
