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
 */
export function ToolResult({ result }: ToolResultProps): ReactElement {
  const failed = result.isError === true;
  return (
    <div className={failed ? 'ms-tool__result ms-tool__result--error' : 'ms-tool__result'}>
      <p className="ms-tool__result-label">{failed ? 'Error' : 'Result'}</p>
      <ScrollablePre className="ms-tool__result-body">{resultText(result.content)}</ScrollablePre>
    </div>
  );
}
