import { useState } from 'react';
import type { ChatStatus } from '../store/types.js';

const BUSY: ReadonlySet<ChatStatus> = new Set(['submitted', 'streaming', 'running-tools']);

function sentence(status: ChatStatus): string {
  switch (status) {
    case 'complete':
      return 'Answer complete.';
    case 'aborted':
      return 'Answer stopped.';
    case 'awaiting-approval':
      return 'A tool call is waiting for your approval.';
    default:
      // A failed or interrupted answer is announced by its error notice (role="alert"):
      // saying it here as well would announce it twice.
      return '';
  }
}

/**
 * One sentence for a polite live region when an answer completes or is stopped, never one
 * per token: the log itself stays silent while it streams. `conversation` (its store) says
 * which conversation the status is of: when it changes, nothing is said.
 *
 * Worked out during render (React's "state from the previous render" pattern) rather than
 * in an effect: an effect's setState is a second commit right after the one that changed
 * the status, and the rendering bench saw both land in one frame.
 */
export function useAnnouncement(status: ChatStatus, conversation?: object): string {
  const [seen, setSeen] = useState({ status, message: '', conversation });
  if (seen.conversation !== conversation) {
    // Another conversation shown: its status is where it stands, not a change to announce
    // (one left streaming for one finished long ago is no answer completing).
    setSeen({ status, message: '', conversation });
    return '';
  }
  if (seen.status === status) return seen.message;
  let message = seen.message;
  if (BUSY.has(seen.status) && !BUSY.has(status)) message = sentence(status);
  else if (BUSY.has(status)) message = '';
  // React re-renders this component at once, before committing anything.
  setSeen({ status, message, conversation });
  return message;
}
