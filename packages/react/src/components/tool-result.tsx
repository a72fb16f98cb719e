import type { ReactElement } from 'react';
import { resultText } from './answer-info.js';
import { ScrollablePre } from './scrollable.js';
import type { ToolResultView } from './tool-status.js';

export interface ToolResultProps {
  /** The tool's result as the card shows it. */
  result: ToolResultView;
}

/**
 * A tool's result as text: a string as it is, an array of content blocks as their text (other
 * blocks, such as images, as a placeholder naming their type), anything else as JSON. Never
 * rendered as HTML or markdown: tool output is data.
 *
 * A call the user declined never ran and has no result to show: the card says so in plain
 * words, with the reason the user typed, not as an error (what the model was sent is the
 * store's business). A call cut short (stopped, or the page reloaded) says that, as a note.
 */
export function ToolResult({ result }: ToolResultProps): ReactElement {
  const notRun = notRunNote(result);
  if (notRun !== null) {
    return (
      <div className="ms-tool__result ms-tool__result--declined">
        <p className="ms-tool__result-label">{notRun.label}</p>
        <p className="ms-tool__note">{notRun.note}</p>
      </div>
    );
  }
  const failed = result.isError === true;
  return (
    <div className={failed ? 'ms-tool__result ms-tool__result--error' : 'ms-tool__result'}>
      <p className="ms-tool__result-label">{failed ? 'Error' : 'Result'}</p>
      <ScrollablePre className="ms-tool__result-body">{resultText(result.content)}</ScrollablePre>
    </div>
  );
}

/** What a call that did not run to its end says instead of a result; null for any other. */
function notRunNote(result: ToolResultView): { label: string; note: string } | null {
  if (result.declined === 'skipped') {
    return { label: 'Skipped', note: 'You sent a new message before deciding, so it did not run.' };
  }
  if (result.declined) {
    const reason = result.reason?.trim();
    return {
      label: 'Declined',
      note: reason ? `Your reason: ${reason}` : 'You declined it, so it did not run.',
    };
  }
  if (result.endedBy === 'stop') {
    return { label: 'Stopped', note: 'You stopped it before it finished.' };
  }
  if (result.endedBy) {
    return { label: 'Interrupted', note: 'The page was reloaded before it finished.' };
  }
  return null;
}
