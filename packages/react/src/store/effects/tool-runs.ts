/**
 * The tool loop, the part that runs tools: the client tool calls of a finished answer run (or
 * wait for approval), and the turn continues, up to `maxToolRoundtrips`. Its own chunk,
 * loaded by the store when it is created with tools (or when a call first needs it);
 * tool-loop.ts keeps every decision (approve, deny, a result), which takes effect at once.
 */
import {
  createStreamError,
  DEFAULT_MAX_TOOL_ROUNDTRIPS,
  type ToolUseBlock,
} from '@message-stream/core';
import { nodeOf } from '../tree.js';
import type { AssistantTurn, ToolResultState } from '../types.js';
import type { EffectContext } from './context.js';
import {
  continueWhenDecided,
  openToolCalls,
  type Runner,
  runnerOf,
  STOPPED_RESULT,
  whenAborted,
} from './tool-loop.js';

function needsApproval(ctx: EffectContext, block: ToolUseBlock): boolean {
  const rule = ctx.options().tools?.[block.name]?.needsApproval;
  if (typeof rule !== 'function') return rule === true;
  try {
    return rule(block.input) === true;
  } catch {
    // A rule that cannot decide asks the user: running unasked is the worse mistake.
    return true;
  }
}

const answerOf = (ctx: EffectContext, id: string): AssistantTurn | undefined => {
  const turn = nodeOf(ctx.model().tree, id);
  return turn?.role === 'assistant' ? turn : undefined;
};

async function runOne(
  runner: Runner,
  block: ToolUseBlock,
  signal: AbortSignal,
): Promise<ToolResultState> {
  try {
    const content = await runner({
      id: block.id,
      name: block.name,
      input: block.input,
      block,
      signal,
    });
    return { status: 'complete', content };
  } catch (error) {
    return {
      status: 'error',
      content: error instanceof Error ? error.message : String(error),
      isError: true,
    };
  }
}

/** Runs `blocks` together under one stop; false when `stop()` ended them. */
export async function runCalls(
  ctx: EffectContext,
  id: string,
  blocks: readonly ToolUseBlock[],
  controller: AbortController,
): Promise<boolean> {
  // A stop ends the calls at once, whether or not the tools heed their signal: one that never
  // settles must not hold the conversation (and a Regenerate waiting on it) for good. A stop
  // that came first runs none.
  const results = controller.signal.aborted
    ? []
    : await Promise.race([
        Promise.all(
          blocks.map(async (block): Promise<[string, ToolResultState]> => {
            const runner = runnerOf(ctx, block);
            if (runner === null) return [block.id, STOPPED_RESULT];
            return [block.id, await runOne(runner, block, controller.signal)];
          }),
        ),
        whenAborted<[string, ToolResultState][]>(controller.signal, []),
      ]);
  ctx.flight.end(controller);
  if (controller.signal.aborted) {
    const stopped = Object.fromEntries(blocks.map((block) => [block.id, STOPPED_RESULT]));
    ctx.dispatch({ type: 'tools-stopped', id, results: stopped });
    return false;
  }
  ctx.dispatch({ type: 'tool-results-updated', id, results: Object.fromEntries(results) });
  return true;
}

/** Runs the client tools of answer `id` (asking approval where needed), then continues. */
export async function runToolCalls(ctx: EffectContext, id: string, roundtrip: number) {
  const turn = answerOf(ctx, id);
  if (turn === undefined) return;
  const max = ctx.options().maxToolRoundtrips ?? DEFAULT_MAX_TOOL_ROUNDTRIPS;
  if (roundtrip >= max) {
    const error = createStreamError({
      type: 'tool_loop_limit',
      message: `Stopped after ${roundtrip} tool round trips.`,
      retryable: false,
    });
    ctx.dispatch({ type: 'tool-loop-limited', id, error });
    ctx.options().onError?.(error, turn);
    return;
  }
  const open = openToolCalls(ctx, turn);
  const asking = open.filter((block) => needsApproval(ctx, block));
  const auto = open.filter((block) => !asking.includes(block));
  // Tools run under the same stop as a stream: `stop()` aborts their signal and ends the
  // loop before another (billed) request goes out.
  const controller = auto.length > 0 ? ctx.flight.begin() : null;
  ctx.dispatch({
    type: 'tool-results-updated',
    id,
    results: Object.fromEntries([
      ...asking.map((block) => [block.id, { status: 'awaiting-approval' }] as const),
      ...auto.map((block) => [block.id, { status: 'running' }] as const),
    ]),
  });
  if (controller !== null && !(await runCalls(ctx, id, auto, controller))) return;
  await continueWhenDecided(ctx, id, roundtrip + 1);
}
