/**
 * The tool loop's decisions, which take effect at once: who runs a call, the calls a new
 * message settles, approve / deny / the app's own result, and the request that sends the
 * results back. What runs a tool is tool-runs.ts, loaded on demand.
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

/**
 * Starts running a call that waited for approval: it is `running` at once, under a stop of
 * its own. Null when there is no such call waiting. The store then runs it with the chunk.
 */
export function startApproved(
  ctx: EffectContext,
  toolUseId: string,
): { turnId: string; block: ToolUseBlock; controller: AbortController } | null {
  const found = findCall(ctx, toolUseId);
  if (found === null || found.turn.toolResults[toolUseId]?.status !== 'awaiting-approval') {
    return null;
  }
  const controller = ctx.flight.join();
  ctx.dispatch({
    type: 'tool-results-updated',
    id: found.turn.id,
    results: { [toolUseId]: { status: 'running' } },
  });
  return { turnId: found.turn.id, block: found.block, controller };
}

/** Answers a call that waited for approval with an error result holding the reason. */
export async function denyToolCall(ctx: EffectContext, toolUseId: string, reason?: string) {
  const found = findCall(ctx, toolUseId);
  if (found === null || found.turn.toolResults[toolUseId]?.status !== 'awaiting-approval') return;
  ctx.dispatch({
    type: 'tool-results-updated',
    id: found.turn.id,
    results: { [toolUseId]: denial(reason ?? DEFAULT_DENIAL) },
  });
  await continueWhenDecided(ctx, found.turn.id, 1);
}

/** The app's own result for a call; continues when every call has one. */
export async function addToolResult(
  ctx: EffectContext,
  toolUseId: string,
  result: unknown,
  isError: boolean,
) {
  const found = findCall(ctx, toolUseId);
  if (found === null) return;
  ctx.dispatch({
    type: 'tool-results-updated',
    id: found.turn.id,
    results: { [toolUseId]: { status: isError ? 'error' : 'complete', content: result, isError } },
  });
  await continueWhenDecided(ctx, found.turn.id, 1);
}

function findCall(
  ctx: EffectContext,
  toolUseId: string,
): { turn: AssistantTurn; block: ToolUseBlock } | null {
  for (const turn of Object.values(ctx.model().tree.nodes)) {
    if (turn.role !== 'assistant') continue;
    const block = clientToolCalls(turn).find((call) => call.id === toolUseId);
    if (block !== undefined) return { turn, block };
  }
  return null;
}

/** When every client call of the shown last answer is decided, sends them and continues. */
export async function continueWhenDecided(ctx: EffectContext, id: string, roundtrip: number) {
  const turn = ctx.model().turns.at(-1);
  if (turn?.id !== id || turn.role !== 'assistant') return;
  const calls = clientToolCalls(turn).map((call) => call.id);
  if (calls.length === 0 || !calls.every((call) => isSettledResult(turn.toolResults[call]))) {
    return;
  }
  const results = toolResultsTurn(ctx.newId('tools'), calls, turn.toolResults);
  ctx.dispatch({ type: 'user-turn-added', turn: results, parentId: id });
  await ctx.answer(results.id, roundtrip);
}
