import { memo, type ReactElement } from 'react';
import { CodeBlock } from './code-block.js';
import { cx } from './cx.js';
import { isPlainObject, readKey, stringOr, toJson } from './format.js';
import { ScrollablePre } from './scrollable.js';
import type { ServerToolUseViewProps } from './server-tool-use-view.js';

/** Server tools whose input is a program: `code` (Python) or `command` (bash). */
const CODE_TOOLS: ReadonlySet<string> = new Set(['code_execution', 'bash_code_execution']);

/** `ServerToolUseView` once its chunk has loaded (see server-tool-use-view.tsx). */
export const ServerToolUseBody = memo(function ServerToolUseBody({
  block,
  className,
}: ServerToolUseViewProps): ReactElement {
  const fields: Record<string, unknown> = isPlainObject(block.block) ? block.block : {};
  const name = stringOr(fields.name) ?? 'server tool';
  const input = readKey(fields, 'input');
  const status = block.status;
  const classes = cx('ms-server-tool', `ms-server-tool--${status}`, className);

  if (name === 'web_search') {
    const query = isPlainObject(input) ? stringOr(input.query) : undefined;
    const verb =
      status === 'streaming'
        ? 'Searching the web'
        : status === 'incomplete'
          ? 'Web search interrupted'
          : 'Searched the web';
    return (
      <p className={classes} data-tool-name={name}>
        <span className="ms-server-tool__label">{verb}</span>
        {query ? (
          <>
            {' for '}
            <q className="ms-server-tool__query">{query}</q>
          </>
        ) : null}
      </p>
    );
  }

  if (name === 'web_fetch') {
    const url = isPlainObject(input) ? stringOr(input.url) : undefined;
    const verb =
      status === 'streaming'
        ? 'Fetching'
        : status === 'incomplete'
          ? 'Fetch interrupted'
          : 'Fetched';
    return (
      <p className={classes} data-tool-name={name}>
        <span className="ms-server-tool__label">{verb}</span>
        {url ? (
          <>
            {' '}
            <span className="ms-server-tool__query">{url}</span>
          </>
        ) : null}
      </p>
    );
  }

  // Code the API runs (code execution, its bash tool): shown as code, with Copy.
  const python = isPlainObject(input) ? stringOr(input.code) : undefined;
  const program = python ?? (isPlainObject(input) ? stringOr(input.command) : undefined);
  if (program !== undefined && CODE_TOOLS.has(name)) {
    const verb =
      status === 'streaming'
        ? 'Writing code'
        : status === 'incomplete'
          ? 'Interrupted:'
          : 'Ran code';
    return (
      <div className={classes} data-tool-name={name}>
        <p className="ms-server-tool__line">
          <span className="ms-server-tool__label">{verb}</span>
        </p>
        <CodeBlock code={program} language={python !== undefined ? 'python' : 'bash'} />
      </div>
    );
  }

  const verb = status === 'streaming' ? 'Using' : status === 'incomplete' ? 'Interrupted:' : 'Used';
  const json = toJson(input);
  return (
    <div className={classes} data-tool-name={name}>
      <p className="ms-server-tool__line">
        <span className="ms-server-tool__label">{verb}</span>{' '}
        <span className="ms-server-tool__name">{name}</span>
      </p>
      {json && json !== '{}' ? (
        <ScrollablePre className="ms-server-tool__input">{json}</ScrollablePre>
      ) : null}
    </div>
  );
});
