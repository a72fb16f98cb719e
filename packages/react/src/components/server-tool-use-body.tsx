import { memo, type ReactElement } from 'react';
import { CodeBlock } from './code-block.js';
import { cx } from './cx.js';
import { isPlainObject, readKey, stringOr, toJson } from './format.js';
import { ScrollablePre } from './scrollable.js';
import type { ServerToolUseViewProps } from './server-tool-use-view.js';

/** Server tools whose input is a program: `code` (Python) or `command` (bash). */
const CODE_TOOLS: ReadonlySet<string> = new Set(['code_execution', 'bash_code_execution']);

/** What a call is doing, by its block's status: while it streams, cut off, done. */
type Verbs = readonly [streaming: string, interrupted: string, done: string];
const VERBS: Readonly<Record<'web_search' | 'web_fetch' | 'code' | 'other', Verbs>> = {
  web_search: ['Searching the web', 'Web search interrupted', 'Searched the web'],
  web_fetch: ['Fetching', 'Fetch interrupted', 'Fetched'],
  code: ['Writing code', 'Interrupted:', 'Ran code'],
  other: ['Using', 'Interrupted:', 'Used'],
};
/** The label pulses while the call streams (keyed on the label: see server-tool-use-view.tsx). */
const labelClass = (status: string): string =>
  cx('ms-server-tool__label', status === 'streaming' && 'ms-server-tool__label--streaming');

const verbOf = (status: string, [streaming, interrupted, done]: Verbs): string =>
  status === 'streaming' ? streaming : status === 'incomplete' ? interrupted : done;

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

  if (name === 'web_search' || name === 'web_fetch') {
    // The query as the model wrote it, or the address fetched.
    const detail = isPlainObject(input)
      ? stringOr(name === 'web_search' ? input.query : input.url)
      : undefined;
    return (
      <p className={classes} data-tool-name={name}>
        <span className={labelClass(status)}>{verbOf(status, VERBS[name])}</span>
        {detail === undefined || detail === '' ? null : name === 'web_search' ? (
          <>
            {' for '}
            <q className="ms-server-tool__query">{detail}</q>
          </>
        ) : (
          <>
            {' '}
            <span className="ms-server-tool__query">{detail}</span>
          </>
        )}
      </p>
    );
  }

  // Code the API runs (code execution, its bash tool): shown as code, with Copy.
  const python = isPlainObject(input) ? stringOr(input.code) : undefined;
  const program = python ?? (isPlainObject(input) ? stringOr(input.command) : undefined);
  if (program !== undefined && CODE_TOOLS.has(name)) {
    return (
      <div className={classes} data-tool-name={name}>
        <p className="ms-server-tool__line">
          <span className={labelClass(status)}>{verbOf(status, VERBS.code)}</span>
        </p>
        <CodeBlock code={program} language={python !== undefined ? 'python' : 'bash'} />
      </div>
    );
  }

  const json = toJson(input);
  return (
    <div className={classes} data-tool-name={name}>
      <p className="ms-server-tool__line">
        <span className={labelClass(status)}>{verbOf(status, VERBS.other)}</span>{' '}
        <span className="ms-server-tool__name">{name}</span>
      </p>
      {json && json !== '{}' ? (
        <ScrollablePre className="ms-server-tool__input">{json}</ScrollablePre>
      ) : null}
    </div>
  );
});
