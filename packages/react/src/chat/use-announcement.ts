import { useEffect, useRef, useState } from 'react';
import type { ChatStatus } from '../store/types.js';

const BUSY: ReadonlySet<ChatStatus> = new Set(['submitted', 'streaming', 'running-tools']);

function sentence(status: ChatStatus): string {
  switch (status) {
    case 'complete':
      return 'Answer complete.';
    case 'aborted':
      return 'Answer stopped.';
    default:
      // A failed or interrupted answer is announced by its error notice (role="alert"):
      // saying it here as well would announce it twice.
      return '';
  }
}

/**
 * One sentence for a polite live region when an answer completes or is stopped, never one
 * per token: the log itself stays silent while it streams.
 */
export function useAnnouncement(status: ChatStatus): string {
  const [message, setMessage] = useState('');
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (BUSY.has(was) && !BUSY.has(status)) setMessage(sentence(status));
    else if (BUSY.has(status)) setMessage('');
  }, [status]);
  return message;
}
