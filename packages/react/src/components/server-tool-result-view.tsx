import type { BlockState } from '@message-stream/core';
import type { ReactElement } from 'react';
import { cx } from './cx.js';
import { toolParts } from './tool-parts-loader.js';

export interface ServerToolResultViewProps {
  /**
   * A result the API's own tools return: `web_fetch_tool_result`, `code_execution_tool_result`,
   * `bash_code_execution_tool_result` or `text_editor_code_execution_tool_result`.
   */
  block: BlockState;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * A readable default for the documented server tool results: a fetched page as its title, link
 * and the start of its text; a program run as its exit code, stdout and stderr; a file view as
 * its lines. Errors say their code. All of it is text (pages and output are untrusted).
 *
 * Its code loads on demand with the other tool parts (the server tool call before it asks for
 * it); until then a one-line placeholder holds its place.
 */
export const ServerToolResultView: (props: ServerToolResultViewProps) => ReactElement =
  toolParts.part(
    'ServerToolResultView',
    (parts) => parts.ServerToolResultBody,
    ({ className }) => (
      <p className={cx('ms-server-result', className)} aria-busy="true">
        <span className="ms-server-result__label">Loading the result…</span>
      </p>
    ),
  );
