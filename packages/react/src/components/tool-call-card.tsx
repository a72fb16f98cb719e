import type { BlockState } from '@message-stream/core';
import { memo, type ReactElement, useId, useMemo, useState } from 'react';
import { CopyButton } from './copy-button.js';
import { cx } from './cx.js';
import { isRecord, stringOr, toJson, toText } from './format.js';
import { ScrollablePre } from './scrollable.js';
import { ToolResult } from './tool-result.js';
import {
  deriveToolStatus,
  sameToolResult,
  TOOL_STATUS_LABELS,
  type ToolCallStatus,
  type ToolResultView,
} from './tool-status.js';

export interface ToolCallCardProps {
  /** A `tool_use` (or `mcp_tool_use`) block. The card re-renders only when it changes. */
  block: BlockState;
  /** The tool's result, once the app has one. */
  result?: ToolResultView | null;
  /**
   * Overrides the status derived from `block` and `result`; the store passes `running` while
   * the app runs a client tool, which nothing in the stream can tell.
   */
  status?: ToolCallStatus;
  className?: string;
}

type InputView = 'formatted' | 'raw';

/**
 * A tool call: its name and id, a status badge in words, the input as it streams in (pretty
 * JSON that fills in key by key, or the raw JSON text as received), a copy button, the JSON
 * error if the input is malformed, and the result once known.
 */
export const ToolCallCard = memo(function ToolCallCard({
  block,
  result,
  status,
  className,
}: ToolCallCardProps): ReactElement {
  const titleId = useId();
  const fields: Record<string, unknown> = isRecord(block.block) ? block.block : {};
  const name = stringOr(fields.name) ?? 'tool';
  const server = stringOr(fields.server_name);
  const id = stringOr(fields.id);
  const current = deriveToolStatus(block, result, status);
  const streaming = block.status === 'streaming';

  const [view, setView] = useState<InputView>('formatted');
  // `input` is parsed when read (the core's partial value): read it once per block change.
  const formatted = useMemo(() => toJson(readInput(fields)), [fields]);
  const raw = typeof block.inputJson === 'string' ? block.inputJson : toJson(readInput(fields), 0);
  const shown = view === 'formatted' ? formatted : raw;
  const error = block.inputError;

  return (
    // biome-ignore lint/a11y/useSemanticElements: a card named by its title, not a form's fieldset.
    <div
      role="group"
      aria-labelledby={titleId}
      className={cx('ms-tool', `ms-tool--${current}`, className)}
      data-status={current}
    >
      <div className="ms-tool__header">
        <span className="ms-tool__title" id={titleId}>
          <span className="ms-tool__kind">Tool</span>{' '}
          <span className="ms-tool__name">{server ? `${server} · ${name}` : name}</span>
        </span>
        {id ? <code className="ms-tool__id">{id}</code> : null}
        <span className={cx('ms-tool__badge', `ms-tool__badge--${current}`)}>
          {TOOL_STATUS_LABELS[current]}
        </span>
      </div>
      {error ? (
        <p className="ms-tool__warning">
          <strong>Warning:</strong> the input is not valid JSON ({toText(error.message)}, at
          character {toText(error.position)}). The last valid part is shown.
        </p>
      ) : null}
      <div className="ms-tool__input">
        <div className="ms-tool__toolbar">
          {/* biome-ignore lint/a11y/useSemanticElements: two toggle buttons, not a form's fieldset. */}
          <div className="ms-tool__views" role="group" aria-label="Input view">
            <button
              type="button"
              className="ms-tool__view"
              aria-pressed={view === 'formatted'}
              onClick={() => setView('formatted')}
            >
              Formatted
            </button>
            <button
              type="button"
              className="ms-tool__view"
              aria-pressed={view === 'raw'}
              onClick={() => setView('raw')}
            >
              Raw
            </button>
          </div>
          <CopyButton text={shown} className="ms-tool__copy" />
        </div>
        {shown === '' ? (
          <p className="ms-tool__empty">{streaming ? 'Waiting for input…' : 'No input'}</p>
        ) : (
          <ScrollablePre className="ms-tool__code" aria-busy={streaming || undefined}>
            <code>{shown}</code>
          </ScrollablePre>
        )}
      </div>
      {result ? <ToolResult result={result} /> : null}
    </div>
  );
}, sameProps);

function sameProps(a: ToolCallCardProps, b: ToolCallCardProps): boolean {
  return (
    a.block === b.block &&
    a.status === b.status &&
    a.className === b.className &&
    sameToolResult(a.result, b.result)
  );
}

function readInput(fields: Record<string, unknown>): unknown {
  try {
    return fields.input;
  } catch {
    return undefined;
  }
}
