/**
 * `pause_turn`: the API paused a long server-tool turn. Sending the answer back as it is
 * lets the model carry on (the API's own instruction); the continuation is a new answer
 * under the paused one, and the request joins both into one assistant message.
 */
import { DEFAULT_MAX_TOOL_ROUNDTRIPS, type StreamState } from '@message-stream/core';
import type { EffectContext } from './context.js';

export function continuesPausedTurn(
  ctx: EffectContext,
  final: StreamState,
  roundtrip: number,
): boolean {
  const options = ctx.options();
  return (
    final.status === 'complete' &&
    final.message?.stop_reason === 'pause_turn' &&
    options.continuePausedTurns !== false &&
    roundtrip < (options.maxToolRoundtrips ?? DEFAULT_MAX_TOOL_ROUNDTRIPS)
  );
}

export async function continuePausedTurn(ctx: EffectContext, id: string, roundtrip: number) {
  if (ctx.model().turns.at(-1)?.id !== id) return;
  await ctx.answer(id, roundtrip + 1);
}
