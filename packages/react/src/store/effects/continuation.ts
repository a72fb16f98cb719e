/**
 * Continuing an answer in place: `resume` (an interrupted stream) and `continueAnswer` (an
 * answer cut at `max_tokens`) both send the core's continuation request and show the
 * merge of the two attempts in the same turn.
 */
import {
  canResume,
  continuationRequest,
  continuationStrategy,
  mergeContinuation,
} from '@message-stream/core';
import { appendedSince } from '../../text-growth.js';
import type { AssistantTurn } from '../types.js';
import type { EffectContext } from './context.js';
import { streamInto } from './streaming.js';

/** Whether `continueAnswer` applies: the answer ended whole but cut at its token limit. */
export const stoppedAtMaxTokens = (turn: AssistantTurn): boolean =>
  turn.stream.status === 'complete' && turn.stream.message?.stop_reason === 'max_tokens';

export const canContinueInPlace = (turn: AssistantTurn, kind: 'resume' | 'max-tokens') =>
  kind === 'resume' ? canResume(turn.stream) : stoppedAtMaxTokens(turn);

/** Continues `turn` (on the shown path) in place; one continuation at a time. */
export async function continueInPlace(
  ctx: EffectContext,
  turn: AssistantTurn,
  kind: 'resume' | 'max-tokens',
): Promise<void> {
  const turns = ctx.model().turns;
  const at = turns.indexOf(turn);
  // A second click while one runs would abort it.
  if (at < 0 || ctx.flight.busy || !canContinueInPlace(turn, kind)) return;
  const base = turn.stream;
  const history = ctx.history(turns.slice(0, at));
  // Always from the answer's original request, however many times it was continued.
  // The history alternates already, and the continuation keeps it so.
  const original = { ...turn.request, messages: history };
  const request = continuationRequest(original, base, ctx.options().resume);
  // The seam is joined the way the request was made: left to its default, the merge judges
  // by the stream's model, which a gateway may not name, and took a prefill's continuation
  // for a restatement (a word was cut).
  const strategy = continuationStrategy(original, base, ctx.options().resume);
  // The turn changes in place: the next request must send it as it will then be.
  ctx.forgetSent(turn.id);
  ctx.dispatch({ type: 'continuation-started', id: turn.id });
  const streamed = await streamInto(ctx, turn.id, request, (state) =>
    // `appendedSince`: the store's record of each update's appends (recorded before the merge
    // runs), so the joined text grows by the continuation's new text, with neither read.
    mergeContinuation(base, state, { strategy, appendedSince }),
  );
  await ctx.afterAnswer(turn.id, streamed, 0);
}
