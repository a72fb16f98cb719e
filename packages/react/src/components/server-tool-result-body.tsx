import { memo, type ReactElement } from 'react';
import { safeHref } from '../markdown/url.js';
import { cx } from './cx.js';
import { isPlainObject, stringOr, toText } from './format.js';
import { ScrollablePre } from './scrollable.js';
import type { ServerToolResultViewProps } from './server-tool-result-view.js';
import { SourceTitle } from './source-title.js';

/** How much of a fetched page or a program's output is shown: the rest is in the block. */
const PREVIEW_CHARS = 4000;

/** What `ServerToolResultView` draws once the tool parts have loaded (see there). */
export const ServerToolResultBody = memo(function ServerToolResultBody({
  block,
  className,
}: ServerToolResultViewProps): ReactElement {
  const fields: Record<string, unknown> = isPlainObject(block.block) ? block.block : {};
  const type = stringOr(fields.type) ?? 'unknown';
  const content = isPlainObject(fields.content) ? fields.content : {};
  const contentType = stringOr(content.type) ?? '';
  const classes = cx('ms-server-result', className);

  if (contentType.endsWith('_error')) {
    const what = type.startsWith('web_fetch') ? 'Fetch failed' : 'Run failed';
    return (
      <p className={cx(classes, 'ms-server-result--error')}>
        {what}: {stringOr(content.error_code) ?? 'unknown'}
      </p>
    );
  }
  if (type === 'web_fetch_tool_result') return <WebFetch content={content} className={classes} />;
  if (type === 'text_editor_code_execution_tool_result') {
    return <FileResult content={content} className={classes} />;
  }
  return <ProgramRun content={content} className={classes} />;
});

function WebFetch({
  content,
  className,
}: {
  content: Record<string, unknown>;
  className: string;
}): ReactElement {
  const url = stringOr(content.url);
  const document = isPlainObject(content.content) ? content.content : {};
  const source = isPlainObject(document.source) ? document.source : {};
  const title = stringOr(document.title) ?? url ?? 'Fetched page';
  const text = source.type === 'text' ? stringOr(source.data) : undefined;
  const media = stringOr(source.media_type);
  return (
    <div className={cx(className, 'ms-server-result--fetch')}>
      <p className="ms-server-result__line">
        <span className="ms-server-result__label">Fetched</span>{' '}
        <SourceTitle base="ms-server-result" href={safeHref(url)} title={title} />
        {stringOr(content.retrieved_at) ? (
          <span className="ms-server-result__meta"> · {toText(content.retrieved_at)}</span>
        ) : null}
      </p>
      {text ? (
        <ScrollablePre
          className="ms-tool__result-body ms-server-result__body"
          aria-label={`Text of ${title}`}
        >
          {preview(text)}
        </ScrollablePre>
      ) : media ? (
        <p className="ms-server-result__meta">A {media} document.</p>
      ) : null}
    </div>
  );
}

function ProgramRun({
  content,
  className,
}: {
  content: Record<string, unknown>;
  className: string;
}): ReactElement {
  const code = typeof content.return_code === 'number' ? content.return_code : undefined;
  const stdout = stringOr(content.stdout);
  const stderr = stringOr(content.stderr);
  const files = Array.isArray(content.content) ? content.content.filter(isPlainObject).length : 0;
  return (
    <div
      className={cx(className, 'ms-server-result--run', code ? 'ms-server-result--failed' : null)}
    >
      <p className="ms-server-result__line">
        <span className="ms-server-result__label">
          {code === undefined
            ? 'Ran'
            : code === 0
              ? 'Ran: exit code 0'
              : `Failed: exit code ${code}`}
        </span>
        {files > 0 ? (
          <span className="ms-server-result__meta">
            {' '}
            · {files === 1 ? '1 file' : `${files} files`} written
          </span>
        ) : null}
      </p>
      {stdout ? <Output label="Output" text={stdout} /> : null}
      {stderr ? <Output label="Errors" text={stderr} error /> : null}
      {!stdout && !stderr ? <p className="ms-server-result__meta">No output.</p> : null}
    </div>
  );
}

function FileResult({
  content,
  className,
}: {
  content: Record<string, unknown>;
  className: string;
}): ReactElement {
  const text = stringOr(content.content);
  const lines = Array.isArray(content.lines) ? content.lines.map(toText).join('\n') : undefined;
  const label =
    content.type === 'text_editor_code_execution_create_result'
      ? content.is_file_update
        ? 'Updated the file'
        : 'Created the file'
      : content.type === 'text_editor_code_execution_str_replace_result'
        ? 'Edited the file'
        : 'Viewed the file';
  return (
    <div className={cx(className, 'ms-server-result--file')}>
      <p className="ms-server-result__line">
        <span className="ms-server-result__label">{label}</span>
      </p>
      {text || lines ? <Output label="Content" text={text ?? lines ?? ''} /> : null}
    </div>
  );
}

function Output({
  label,
  text,
  error = false,
}: {
  label: string;
  text: string;
  error?: boolean;
}): ReactElement {
  return (
    <div className={cx('ms-server-result__output', error && 'ms-server-result__output--error')}>
      <p className="ms-server-result__meta">{label}</p>
      <ScrollablePre className="ms-tool__result-body ms-server-result__body" aria-label={label}>
        {preview(text)}
      </ScrollablePre>
    </div>
  );
}

function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}\n…` : text;
}
