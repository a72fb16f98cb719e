/**
 * The tool loop's part a send needs at once: who runs a call, and the calls a new message
 * settles. What runs the calls is tool-runs.ts, loaded on demand.
 */
import type { ToolUseBlock } from '@message-stream/core';
import { clientToolCalls, isSettledResult, toolResultsTurn } from '../conversation.js';
import { nodeOf } from '../tree.js';
import type { AssistantTurn, ToolCall, ToolResultState } from '../types.js';
import type { EffectContext } from './context.js';

export const STOPPED_RESULT: ToolResultState = {
  status: 'error',
  content: 'Stopped before the tool finished.',
  isError: true,
};
export const DENIED_BY_NEW_MESSAGE = 'The user sent a new message instead.';
export const DEFAULT_DENIAL = 'The user denied this tool call.';

export type Runner = (call: ToolCall) => unknown | Promise<unknown>;

/** Who runs this call: its `tools` entry, else `onToolCall`, else the app (addToolResult). */
export function runnerOf(ctx: EffectContext, block: ToolUseBlock): Runner | null {
  const { tools, onToolCall } = ctx.options();
  const tool = tools?.[block.name];
  if (tool !== undefined) return (call) => tool.run(call.input, call);
  return onToolCall ?? null;
}

/** Whether the store itself takes care of some client call of this answer. */
export function storeRunsTools(ctx: EffectContext, turn: AssistantTurn): boolean {
  return clientToolCalls(turn).some((block) => runnerOf(ctx, block) !== null);
}

/** The client calls of `turn` the store runs and that have no result yet. */
export const openToolCalls = (ctx: EffectContext, turn: AssistantTurn): ToolUseBlock[] =>
  clientToolCalls(turn).filter(
    (block) => runnerOf(ctx, block) !== null && !isSettledResult(turn.toolResults[block.id]),
  );

export const denial = (reason: string): ToolResultState => ({
  status: 'error',
  content: reason,
  isError: true,
});

/**
 * Before a new message goes out under the last answer: calls awaiting approval are denied
 * ("The user sent a new message instead."), and every decided result goes back in the same
 * request, so no `tool_use` is left without its `tool_result`. Returns the parent id for
 * the new message.
 */
export function settleBeforeNewMessage(ctx: EffectContext): string {
  const last = ctx.model().turns.at(-1);
  if (last === undefined) return '';
  if (last.role !== 'assistant') return last.id;
  const calls = clientToolCalls(last);
  const pending = calls.filter((call) => last.toolResults[call.id]?.status === 'awaiting-approval');
  if (pending.length > 0) {
    ctx.dispatch({
      type: 'tool-results-updated',
      id: last.id,
      results: Object.fromEntries(pending.map((call) => [call.id, denial(DENIED_BY_NEW_MESSAGE)])),
    });
  }
  const answered = nodeOf(ctx.model().tree, last.id) as AssistantTurn;
  const settled = calls
    .map((call) => call.id)
    .filter((call) => isSettledResult(answered.toolResults[call]));
  if (settled.length === 0) return last.id;
  const results = toolResultsTurn(ctx.newId('tools'), settled, answered.toolResults);
  ctx.dispatch({ type: 'user-turn-added', turn: results, parentId: last.id });
  return results.id;
}
