import type { ReactElement } from 'react';
import { isPlainObject, toJson, toText } from './format.js';
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

/** The display text of a tool result's content. */
export function resultText(content: unknown): string {
  if (content === undefined || content === null) return '(no content)';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (typeof part === 'string') return part;
        if (isPlainObject(part) && part.type === 'text' && typeof part.text === 'string') {
          return part.text;
        }
        if (isPlainObject(part) && typeof part.type === 'string' && part.type !== 'text') {
          return `[${part.type}]`;
        }
        return toJson(part);
      })
      .join('\n\n');
  }
  if (typeof content === 'object') return toJson(content);
  return toText(content);
}
