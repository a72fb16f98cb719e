import type { BlockState } from '@message-stream/core';

/**
 * Where a tool call is, from the reader's side:
 * - `input-streaming`: the model is still writing the input;
 * - `input-complete`: the input is whole; nothing has run it yet ("Not run": with no
 *   `tools` entry or `onToolCall` for it, it waits for the app's `addToolResult`, and a new
 *   message instead skips it);
 * - `awaiting-approval`: the input is whole and the tool needs the user's approval to run (the
 *   store's `ToolResultState.status`; the card then offers Approve and Deny);
 * - `running`: the app is running it (only the app knows: the store passes it explicitly);
 * - `result` / `error`: it ran and returned a result, or a failure;
 * - `interrupted`: the stream ended before the input was whole; it will not run;
 * - `denied`: the user declined it (Deny); `skipped`: the user sent a new message while it
 *   waited for approval. Neither ran, and neither is a failure: the model still gets an
 *   `is_error` result saying why, but the card says "Declined" / "Skipped", not "Failed";
 * - `stopped`: the user stopped it while it ran (a page reload shows as `interrupted`).
 */
export type ToolCallStatus =
  | 'input-streaming'
  | 'input-complete'
  | 'awaiting-approval'
  | 'running'
  | 'result'
  | 'error'
  | 'interrupted'
  | 'denied'
  | 'skipped'
  | 'stopped';

/** What a tool returned, as the app sends it back in its `tool_result` block. */
export interface ToolResultView {
  /** A string, an array of content blocks (`{type: 'text', text}`, images, …) or any JSON. */
  content: unknown;
  /** The tool failed; `content` says why. */
  isError?: boolean;
  /**
   * The user declined the call (the store's `ToolResultState.declined`): `'denied'` with Deny,
   * `'skipped'` by sending a new message instead. Shown as that, not as a failure.
   */
  declined?: 'denied' | 'skipped' | undefined;
  /** The reason the user typed when denying, if any: shown as "Your reason: …". */
  reason?: string | undefined;
  /**
   * The call was cut short before it returned (the store's `ToolResultState.endedBy`):
   * `'stop'` by the user, `'reload'` by the page going away. Shown as that, not as a failure.
   */
  endedBy?: 'stop' | 'reload' | undefined;
}

/** The words for each status: the badge says it in text, colour only repeats it. */
export const TOOL_STATUS_LABELS: Readonly<Record<ToolCallStatus, string>> = {
  'input-streaming': 'Writing input…',
  'input-complete': 'Not run',
  'awaiting-approval': 'Awaiting approval',
  running: 'Running…',
  result: 'Done',
  error: 'Failed',
  interrupted: 'Interrupted',
  denied: 'Declined',
  skipped: 'Skipped',
  stopped: 'Stopped',
};

/**
 * The status a tool call shows when none is given: from the block's own status and whether a
 * result is known. An explicit status (the store's `running`) always wins.
 */
export function deriveToolStatus(
  block: BlockState,
  result?: ToolResultView | null,
  status?: ToolCallStatus | null,
): ToolCallStatus {
  if (status) return status;
  if (block.status === 'streaming') return 'input-streaming';
  if (block.status === 'incomplete') return 'interrupted';
  if (result) {
    if (result.declined) return result.declined;
    if (result.endedBy) return result.endedBy === 'stop' ? 'stopped' : 'interrupted';
    return result.isError ? 'error' : 'result';
  }
  return 'input-complete';
}

/**
 * Two results show the same: same content (by identity), error flag and decline. Block views compare
 * results with this rather than by object, so a caller that rebuilds `{content, isError}` on
 * every render does not re-render every tool card on every delta.
 */
export function sameToolResult(
  a: ToolResultView | null | undefined,
  b: ToolResultView | null | undefined,
): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.content === b.content &&
    (a.isError === true) === (b.isError === true) &&
    a.declined === b.declined &&
    a.endedBy === b.endedBy &&
    a.reason === b.reason
  );
}
