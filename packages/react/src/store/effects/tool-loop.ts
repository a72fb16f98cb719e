/**
 * The tool loop's decisions, which take effect at once: who runs a call, the calls a new
 * message settles, approve / deny / the app's own result, and the request that sends the
 * results back. What runs a tool is tool-runs.ts, a chunk loaded on demand (asked for here).
 */
import { createStreamError, type ToolUseBlock } from '@message-stream/core';
import { loadOnce } from '../../load-once.js';
import { clientToolCalls, isSettledResult, toolResultsTurn } from '../conversation.js';
import { nodeOf } from '../tree.js';
import type { AssistantTurn, ToolCall, ToolResultState, Turn } from '../types.js';
import type { EffectContext } from './context.js';

export const STOPPED_RESULT: ToolResultState = {
  status: 'error',
  content: 'Stopped before the tool finished.',
  isError: true,
  endedBy: 'stop',
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
 * A call the user declined: to the API an error result saying why (it needs one for every
 * `tool_use`), recorded as declined so the UI does not show the user's choice as a failure.
 */
const declined = (as: 'denied' | 'skipped', content: string, reason?: string): ToolResultState =>
  reason === undefined
    ? { ...denial(content), declined: as }
    : { ...denial(content), declined: as, reason };

/**
 * Before a new message goes out under the last answer: calls awaiting approval, and calls
 * nobody ran, are skipped ("The user sent a new message instead."), a call still running is
 * stopped, and every result goes back in the same request, so no `tool_use` is left without
 * its `tool_result`. Returns the parent id for the new message.
 */
export function settleBeforeNewMessage(ctx: EffectContext): string {
  const last = ctx.model().turns.at(-1);
  if (last === undefined) return '';
  if (last.role !== 'assistant') return last.id;
  const calls = clientToolCalls(last);
  // A call nobody ran (no runner, and the app never added a result) is skipped as well:
  // left out, its `tool_use` vanished from the history without a word, and its card waited on.
  // One still running was stopped by this send (its stop lands later): stopped, here, so it
  // goes back now; left out, a reload sent its call with no result, a 400 for good.
  const pending = calls.filter((call) => !isSettledResult(last.toolResults[call.id]));
  if (pending.length > 0) {
    ctx.dispatch({
      type: 'tool-results-updated',
      id: last.id,
      results: Object.fromEntries(
        pending.map((call) => [
          call.id,
          last.toolResults[call.id]?.status === 'running'
            ? STOPPED_RESULT
            : declined('skipped', DENIED_BY_NEW_MESSAGE),
        ]),
      ),
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

type ToolRuns = typeof import('./tool-runs.js');
/** The part that runs tools: its own chunk. */
const toolRuns = loadOnce(() => import('./tool-runs.js'));

/** A store that runs tools asks for their chunk at once, long before an answer needs it. */
export function preloadToolRuns(ctx: EffectContext): void {
  const { tools, onToolCall } = ctx.options();
  if (tools !== undefined || onToolCall !== undefined) toolRuns().catch(() => {});
}

/** The chunk; or what the calls end with when `signal` aborts first, or it cannot be loaded. */
type Loaded =
  | { readonly runs: ToolRuns }
  | { readonly stopped: true }
  | { readonly stopped: false; readonly reason: string };

/**
 * The chunk, unless `signal` is aborted first: `stop()` (or a newer request) then ends the
 * calls at once, whenever (if ever) the chunk arrives.
 */
const toolRunsUnless = (signal: AbortSignal): Promise<Loaded> =>
  Promise.race([
    toolRuns().then(
      (runs): Loaded => ({ runs }),
      (error: unknown): Loaded => ({
        stopped: false,
        reason: `The tool could not be run: ${String(error)}`,
      }),
    ),
    whenAborted<Loaded>(signal, { stopped: true }),
  ]);

/**
 * Resolves to `value` when `signal` aborts (at once if it has): what a wait is raced with to
 * stop it. Resolved from the abort itself, with no `.then` after it, so a stop in the same
 * tick still wins a race against a promise that settled just before.
 */
export const whenAborted = <T>(signal: AbortSignal, value: T): Promise<T> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve(value);
    else signal.addEventListener('abort', () => resolve(value), { once: true });
  });

/**
 * Runs the client tools of a finished answer with the chunk. Stopped while it loads, the
 * calls end as stopped; if it cannot load (offline, a replaced deploy), they end with the
 * reason, and nothing more is sent.
 */
export async function runToolsOf(ctx: EffectContext, id: string, roundtrip: number) {
  const waiting = ctx.flight.join();
  const loaded = await toolRunsUnless(waiting.signal);
  ctx.flight.end(waiting);
  if ('runs' in loaded) return loaded.runs.runToolCalls(ctx, id, roundtrip);
  const result = loaded.stopped ? STOPPED_RESULT : denial(loaded.reason);
  const turn = nodeOf(ctx.model().tree, id);
  if (turn?.role !== 'assistant') return;
  const open = openToolCalls(ctx, turn).map((call) => [call.id, result]);
  ctx.dispatch({ type: 'tools-stopped', id, results: Object.fromEntries(open) });
}

/**
 * Runs a call that waited for approval: it is `running` at once (under a stop of its own),
 * then runs with the chunk, and the answer continues when it was the last undecided. If the
 * chunk cannot load, the call waits for approval again and the conversation says why.
 */
export async function approveToolCall(ctx: EffectContext, toolUseId: string) {
  const found = findCall(ctx, toolUseId);
  if (found === null || found.turn.toolResults[toolUseId]?.status !== 'awaiting-approval') return;
  const id = found.turn.id;
  const controller = ctx.flight.join();
  ctx.dispatch({
    type: 'tool-results-updated',
    id,
    results: { [toolUseId]: { status: 'running' } },
  });
  const loaded = await toolRunsUnless(controller.signal);
  if ('runs' in loaded) {
    if (await loaded.runs.runCalls(ctx, id, [found.block], controller)) {
      await continueWhenDecided(ctx, id, 1);
    }
    return;
  }
  ctx.flight.end(controller);
  if (loaded.stopped) {
    ctx.dispatch({ type: 'tools-stopped', id, results: { [toolUseId]: STOPPED_RESULT } });
    return;
  }
  ctx.dispatch({
    type: 'tool-results-updated',
    id,
    results: { [toolUseId]: { status: 'awaiting-approval' } },
  });
  const error = createStreamError({ type: 'tool_error', message: loaded.reason, retryable: true });
  ctx.dispatch({ type: 'send-refused', error });
  ctx.options().onError?.(error, null);
}

/** Answers a call that waited for approval with an error result holding the reason, declined. */
export async function denyToolCall(ctx: EffectContext, toolUseId: string, reason?: string) {
  const found = findCall(ctx, toolUseId);
  if (found === null || found.turn.toolResults[toolUseId]?.status !== 'awaiting-approval') return;
  ctx.dispatch({
    type: 'tool-results-updated',
    id: found.turn.id,
    // The model is told it was the user's no, not the tool failing, and why when the user said.
    results: {
      [toolUseId]: declined(
        'denied',
        reason === undefined ? DEFAULT_DENIAL : `${DEFAULT_DENIAL} Their reason: ${reason}`,
        reason,
      ),
    },
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

/**
 * The answer that made call `toolUseId`: looked for on the shown path, newest first (where a
 * decision is taken), then in the rest of the tree.
 */
function findCall(
  ctx: EffectContext,
  toolUseId: string,
): { turn: AssistantTurn; block: ToolUseBlock } | null {
  const { turns, tree } = ctx.model();
  const callIn = (turn: Turn) => {
    if (turn.role !== 'assistant') return null;
    const block = clientToolCalls(turn).find((call) => call.id === toolUseId);
    return block === undefined ? null : { turn, block };
  };
  for (let i = turns.length - 1; i >= 0; i--) {
    const found = callIn(turns[i] as Turn);
    if (found !== null) return found;
  }
  for (const turn of Object.values(tree.nodes)) {
    const found = callIn(turn);
    if (found !== null) return found;
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
