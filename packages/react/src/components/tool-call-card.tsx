import type { BlockState } from '@message-stream/core';
import { memo, type ReactElement, useEffect, useId, useState } from 'react';
import { cx } from './cx.js';
import { isPlainObject, readKey, stringOr } from './format.js';
import { summarizeInput } from './json-view.js';
import type { ToolCallPanelProps } from './tool-call-panel.js';
import { toolParts } from './tool-parts-loader.js';
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
   * Overrides the status derived from `block` and `result`: the store passes `running` while
   * the app runs a client tool, and `awaiting-approval` while it waits for the user to decide.
   */
  status?: ToolCallStatus;
  /** Called by the Approve button of a call awaiting approval. */
  onApprove?: (() => void) | undefined;
  /** Called by the Deny button of a call awaiting approval, with the reason typed, if any. */
  onDeny?: ((reason?: string) => void) | undefined;
  /**
   * Whether the full card starts open. By default a call starts as its compact row, except one
   * awaiting approval, which opens so the user sees the input it would run on.
   */
  defaultOpen?: boolean;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * A tool call as a compact row (status icon, tool name, a one-line summary of its input) that
 * opens to the full card: the call's id, the input as formatted JSON with colours or the raw
 * text received, Copy, the JSON error if the input is malformed, and the result once known. A
 * call awaiting approval shows Approve and Deny (with an optional reason) beside its input.
 *
 * A large input (a 1 MB file) costs one bounded frame per delta: the row reads only what its
 * summary shows, and the open card draws the first part of the value (see `JsonView`).
 *
 * The row is drawn at once; the open card's code loads on demand (asked for when the row
 * mounts, so it is there before anyone opens it; until then the panel says "Loading…").
 */
export const ToolCallCard = memo(function ToolCallCard({
  block,
  result,
  status,
  onApprove,
  onDeny,
  defaultOpen,
  className,
}: ToolCallCardProps): ReactElement {
  const panelId = useId();
  const fields: Record<string, unknown> = isPlainObject(block.block) ? block.block : {};
  const name = stringOr(fields.name) ?? 'tool';
  const server = stringOr(fields.server_name);
  const id = stringOr(fields.id);
  const current = deriveToolStatus(block, result, status);
  const streaming = block.status === 'streaming';
  const awaiting = current === 'awaiting-approval';
  const [userOpen, setUserOpen] = useState<boolean | null>(null);
  const open = userOpen ?? defaultOpen ?? awaiting;

  const input = readKey(fields, 'input');
  const summary = summarizeInput(input);
  const raw = typeof block.inputJson === 'string' ? block.inputJson : undefined;
  const error = block.inputError;
  const title = server ? `${server} · ${name}` : name;
  // The open card's code (JSON view, result) loads with the row, before anyone opens it.
  useEffect(() => {
    toolParts.preload().catch(() => {});
  }, []);

  return (
    // biome-ignore lint/a11y/useSemanticElements: a card named by its title, not a form's fieldset.
    <div
      role="group"
      aria-label={`Tool ${title}`}
      className={cx('ms-tool', `ms-tool--${current}`, open && 'ms-tool--open', className)}
      data-status={current}
    >
      <button
        type="button"
        className="ms-tool__row"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setUserOpen(!open)}
      >
        <span className={cx('ms-tool__icon', `ms-tool__icon--${current}`)} aria-hidden="true" />
        <span className="ms-tool__title">
          <span className="ms-tool__name">{title}</span>
        </span>
        {summary ? <span className="ms-tool__summary">{summary}</span> : null}
        <span className={cx('ms-tool__badge', `ms-tool__badge--${current}`)}>
          {TOOL_STATUS_LABELS[current]}
        </span>
        <span className="ms-tool__chevron" aria-hidden="true" />
      </button>
      <div className="ms-tool__panel" id={panelId} hidden={!open}>
        {open ? (
          <ToolCallPanelPart
            name={name}
            id={id}
            input={input}
            raw={raw}
            error={error}
            streaming={streaming}
            result={result}
          />
        ) : null}
      </div>
      {awaiting ? <Approval name={name} onApprove={onApprove} onDeny={onDeny} /> : null}
    </div>
  );
}, sameProps);

function Approval({
  name,
  onApprove,
  onDeny,
}: {
  name: string;
  onApprove: (() => void) | undefined;
  onDeny: ((reason?: string) => void) | undefined;
}): ReactElement {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const deny = () => {
    const text = reason.trim();
    onDeny?.(text === '' ? undefined : text);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named group of two decisions, not a form's fieldset.
    <div className="ms-tool__approval" role="group" aria-label={`Approve or deny ${name}`}>
      <p className="ms-tool__question">Run {name} with this input?</p>
      <div className="ms-tool__decide">
        <button
          type="button"
          className="ms-tool__action ms-tool__action--approve"
          onClick={() => onApprove?.()}
          disabled={!onApprove}
        >
          Approve
        </button>
        <button
          type="button"
          className="ms-tool__action ms-tool__action--deny"
          onClick={deny}
          disabled={!onDeny}
        >
          Deny
        </button>
        <label className="ms-tool__reason-label" htmlFor={reasonId}>
          Reason (optional)
        </label>
        <input
          id={reasonId}
          className="ms-tool__reason"
          type="text"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            // The chat moves focus on to its composer: the same key would type a line there.
            event.preventDefault();
            deny();
          }}
          autoComplete="off"
        />
      </div>
    </div>
  );
}

function sameProps(a: ToolCallCardProps, b: ToolCallCardProps): boolean {
  return (
    a.block === b.block &&
    a.status === b.status &&
    a.className === b.className &&
    a.defaultOpen === b.defaultOpen &&
    a.onApprove === b.onApprove &&
    a.onDeny === b.onDeny &&
    sameToolResult(a.result, b.result)
  );
}

/** The open card's body, from the tool parts chunk. */
const ToolCallPanelPart = toolParts.part<ToolCallPanelProps>(
  'ToolCallPanel',
  (parts) => parts.ToolCallPanel,
  ({ streaming }) => (
    <p className="ms-tool__empty" aria-busy={streaming || undefined}>
      Loading…
    </p>
  ),
);
