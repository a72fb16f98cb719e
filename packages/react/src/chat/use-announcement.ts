import type { StreamError } from '@message-stream/core';
import { useEffect, useRef, useState } from 'react';
import type { ChatStatus } from '../store/types.js';

const BUSY: ReadonlySet<ChatStatus> = new Set(['submitted', 'streaming']);

function sentence(status: ChatStatus, error: StreamError | null): string {
  switch (status) {
    case 'complete':
      return 'Answer complete.';
    case 'interrupted':
      return 'The answer was interrupted. You can resume it.';
    case 'aborted':
      return 'Answer stopped.';
    case 'error':
      return `The answer failed. ${error?.description ?? ''}`.trim();
    default:
      return '';
  }
}

/**
 * One sentence for a polite live region when an answer ends (complete, failed, stopped),
 * never one per token: the log itself stays silent while it streams.
 */
export function useAnnouncement(status: ChatStatus, error: StreamError | null): string {
  const [message, setMessage] = useState('');
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (BUSY.has(was) && !BUSY.has(status)) setMessage(sentence(status, error));
    else if (BUSY.has(status)) setMessage('');
  }, [status, error]);
  return message;
}
