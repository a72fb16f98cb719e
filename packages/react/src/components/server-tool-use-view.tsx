import type { BlockState } from '@message-stream/core';
import type { ReactElement } from 'react';
import { cx } from './cx.js';
import { isPlainObject, stringOr } from './format.js';
import { toolParts } from './tool-parts-loader.js';

/**
 * The label's classes: its pulse is keyed on the label itself, not on the block's status
 * class (a rule below that would make the browser walk the block when it ends).
 */
const labelClass = (status: string): string =>
  cx('ms-server-tool__label', status === 'streaming' && 'ms-server-tool__label--streaming');

export interface ServerToolUseViewProps {
  /** A `server_tool_use` block: a tool the API runs itself (web search, web fetch, code execution). */
  block: BlockState;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * A server tool call, in a line. For `web_search`, the query as the model writes it
 * ("Searching the web for “weather NYC today”"); for other server tools, their name and input.
 * The result arrives as a separate block (e.g. `web_search_tool_result`).
 *
 * Its code loads on demand with the other tool parts (so its result's view is there before the
 * result); until then the line names the tool ("Using web_search").
 */
export const ServerToolUseView: (props: ServerToolUseViewProps) => ReactElement = toolParts.part(
  'ServerToolUseView',
  (parts) => parts.ServerToolUseBody,
  ({ block, className }) => {
    const name = (isPlainObject(block.block) && stringOr(block.block.name)) || 'server tool';
    return (
      <p
        className={cx('ms-server-tool', `ms-server-tool--${block.status}`, className)}
        data-tool-name={name}
        aria-busy="true"
      >
        <span className={labelClass(block.status)}>Using</span>{' '}
        <span className="ms-server-tool__name">{name}</span>
      </p>
    );
  },
);
