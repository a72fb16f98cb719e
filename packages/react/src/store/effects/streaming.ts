/** Sending: one request streamed into one answer, published at most once per frame. */
import {
  createStreamState,
  type MessageRequest,
  type StreamState,
  streamMessage,
} from '@message-stream/core';
import { forgetAppends } from '../../text-growth.js';
import { nextTask } from '../next-task.js';
import { PAGE_LEFT_MID_ANSWER } from '../page-left.js';
import { createScheduler } from '../scheduler.js';
import { createTextAppends } from '../text-appends.js';
import type { AssistantTurn } from '../types.js';
import type { EffectContext, StreamedAnswer } from './context.js';

/**
 * Streams `request` into the answer `id`. `view` maps each raw state to what the turn
 * shows (identity for a fresh answer, a merge for a continued one); it runs at flush time,
 * not per event. Resolves with the final shown state and when its first content was read;
 * never rejects (the transport ends every failure as a state). `controller`: the request's
 * own, begun earlier (a stop before the request went out then ends it as stopped).
 */
export async function streamInto(
  ctx: EffectContext,
  id: string,
  request: MessageRequest,
  view: (state: StreamState) => StreamState,
  controller: AbortController = ctx.flight.begin(),
): Promise<StreamedAnswer> {
  const options = ctx.options();
  let latest: StreamState | null = null;
  // What the last update showed: a continued answer's merge, whose text the view reads.
  let shown: StreamState | null = null;
  // The turn keeps the first time it is given (a continuation does not reset it).
  let firstContentAt: number | undefined;
  // What each text gained between two updates, so the view reads only that (text-growth.ts).
  const appends = createTextAppends();
  const scheduler = createScheduler(
    options.batch ?? 'frame',
    () => {
      if (latest === null) return;
      // Recorded before the view is made: a continued answer's merge reads the records.
      appends.made();
      const stream = view(latest);
      appends.published(shown, stream);
      latest = null;
      shown = stream;
      ctx.dispatch({ type: 'stream-updated', id, stream, firstContentAt });
    },
    // Spaced by what the view reads: for a continued answer, the earlier part with the new.
    () => (shown === null ? 1 : framesBetweenUpdates(shown)),
  );
  // A page on its way out (a reload, a closed tab) may see its connection fail before it goes:
  // a service worker's mock (MSW) ends its streams on `beforeunload`. Said as what happened,
  // not as a network failure. Listened for only while an answer streams.
  let leaving = false;
  const onLeave = () => {
    leaving = true;
  };
  const watch = typeof addEventListener === 'function';
  if (watch) addEventListener('beforeunload', onLeave);
  const {
    onToolCall: _t,
    onFinish: _f,
    onError: _e,
    onPersistError: _p,
    request: _r,
    tools: _tools,
    ...transport
  } = options;
  try {
    const final = await streamMessage(request, {
      ...transport,
      signal: controller.signal,
      onEvent: (event, state) => appends.event(event, state),
      onState: (state) => {
        // Timed as the event is read: a frame later would add the wait for the frame.
        if (firstContentAt === undefined && (state.message?.content.length ?? 0) > 0) {
          firstContentAt = Date.now();
        }
        latest = state;
        scheduler.request();
      },
    });
    appends.made();
    const cut = final.error?.type;
    const shownFinal = view(
      leaving && (cut === 'network_error' || cut === 'stream_interrupted')
        ? { ...final, error: PAGE_LEFT_MID_ANSWER }
        : final,
    );
    // The last update is recorded like the others: drawing it reads only its new text (it
    // read the whole answer again, 1-2 ms at the end of a 250 KB answer).
    appends.published(shown, shownFinal);
    return { final: shownFinal, firstContentAt };
  } finally {
    if (watch) removeEventListener('beforeunload', onLeave);
    scheduler.cancel();
    // What the journal holds of this answer (its versions' texts) is not needed past its end:
    // dropped in a later task, once the final state (dispatched after this returns) is drawn.
    void nextTask().then(forgetAppends);
    ctx.flight.end(controller);
  }
}

/** Characters of an answer's text per frame added between two of its updates. */
export const CHARS_PER_UPDATE_FRAME = 96 * 1024;

/**
 * Frames between two published updates of a streaming answer: one, until its text is long.
 * Each update of a long answer renders, lays out and paints its growing block: at 275 KB of
 * code, publishing every frame cost some 25% more main-thread time than every third frame
 * (the 5,000-line row of `pnpm bench`). Spaced by its length, an answer's updates cost about
 * the same each second however long it grows (at 275 KB, 20 updates a second: text still
 * moves smoothly to a reader). Every event is still reduced as it arrives. (The view no longer
 * reads each update's text whole: the store records what it gained, `text-appends.ts`.)
 */
export function framesBetweenUpdates(state: StreamState): number {
  let chars = 0;
  for (const entry of state.message?.content ?? []) {
    const block = entry.block as { text?: unknown; thinking?: unknown };
    if (typeof block.text === 'string') chars += block.text.length;
    else if (typeof block.thinking === 'string') chars += block.thinking.length;
  }
  return 1 + Math.floor(chars / CHARS_PER_UPDATE_FRAME);
}

/** A new answer under `parentId`: the request from the path above it, then what follows. */
export async function startAnswer(
  ctx: EffectContext,
  parentId: string,
  roundtrip: number,
  replacing?: string,
): Promise<void> {
  const defaults = ctx.options().request;
  const turns = ctx.model().turns;
  const at = parentId === '' ? 0 : turns.findIndex((turn) => turn.id === parentId) + 1;
  const history = turns.slice(0, at);
  // Begun before any wait: a stop from here on ends the answer as stopped, sent or not.
  const controller = ctx.flight.begin();
  // A long thread sent before its idle preparation finished: the rest in slices, not one task.
  const preparing = ctx.prepareHistory(history);
  if (preparing !== null) await preparing;
  const turn: AssistantTurn = {
    id: replacing ?? ctx.newId('answer'),
    role: 'assistant',
    // Without its messages: they are the turns before this one (see AssistantTurn).
    request: defaults,
    stream: createStreamState(),
    toolResults: {},
    startedAt: Date.now(),
    finishedAt: null,
  };
  ctx.dispatch({ type: 'answer-started', turn, parentId, inPlace: replacing !== undefined });
  // The request is built and sent in a task of its own, after the one that puts the new turns
  // on the page: at 1,000 turns its JSON is a megabyte and the two made one 30 ms task.
  await nextTask();
  const request: MessageRequest = { ...defaults, messages: ctx.history(history) };
  const streamed = await streamInto(ctx, turn.id, request, (state) => state, controller);
  await ctx.afterAnswer(turn.id, streamed, roundtrip);
}
