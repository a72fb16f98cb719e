import {
  type BlockState,
  joinedContinuationBlock,
  type StreamEvent,
  type StreamState,
} from '@message-stream/core';
import { recordAppend } from '../text-growth.js';

/**
 * The text (or thinking) each block of a streaming answer gained between two published states,
 * recorded in the text-growth journal so the view reads only the new part (`text-growth.ts`).
 * Collected from the events as they are reduced; recorded when an update is due (`made`).
 */
export interface TextAppends {
  /** An event the reducer has just applied, and the state it made. */
  event(event: StreamEvent, state: StreamState): void;
  /**
   * An update is due: records what each text block gained by the appends since the last
   * update, in the state the events made. Call it before making the view of that state: a
   * merge reads the records (`mergeContinuation`'s `appendedSince`). `published` calls it when
   * it was not called.
   */
  made(): void;
  /**
   * `next` is published after `previous` (null: the first): the state the last event made, or
   * a merged view of it (a continued answer, `mergeContinuation`). Records, in a merged view,
   * a text joined at the seam when it grew by the same append as the continuation's
   * (`joinedContinuationBlock`). Nothing is recorded across a second `message_start`, or for a
   * state published before its event was told.
   */
  published(previous: StreamState | null, next: StreamState): void;
}

/** A text block's `text` or a thinking block's `thinking`: the two a delta appends to. */
type TextField = 'text' | 'thinking';
const fieldOf = (deltaType: unknown): TextField | undefined =>
  deltaType === 'text_delta' ? 'text' : deltaType === 'thinking_delta' ? 'thinking' : undefined;

export function createTextAppends(): TextAppends {
  /** Appended text per block index and field (a delta of the wrong type is not applied). */
  let pending = new Map<string, { index: number; field: TextField; appended: string }>();
  let broken = false;
  /** `made` ran for this update: what the events made is recorded already. */
  let recorded = false;
  let latest: StreamState | null = null;
  // The state the events had made at the last update (what `previous` shows, merged or not).
  let lastMade: StreamState | null = null;
  const made = () => {
    if (recorded || broken || latest === null || lastMade === null) return;
    recorded = true;
    for (const { index, field, appended } of pending.values()) {
      const before = textAt(lastMade, index, field);
      const after = textAt(latest, index, field);
      if (before !== undefined && after !== undefined) recordAppend(after, before, appended);
    }
  };
  return {
    event(event, state) {
      latest = state;
      if (event.type === 'content_block_delta') {
        const delta = event.delta as Record<string, unknown> | null;
        const field = delta !== null && typeof delta === 'object' ? fieldOf(delta.type) : undefined;
        const value = field === undefined ? undefined : delta?.[field];
        if (field !== undefined && typeof value === 'string') {
          const key = `${field}:${event.index}`;
          const entry = pending.get(key);
          if (entry === undefined) pending.set(key, { index: event.index, field, appended: value });
          else entry.appended += value;
        }
      } else if (event.type === 'message_start') {
        // A second message (a spliced retry) starts its blocks again at the same indexes.
        broken = true;
      }
    },
    made,
    published(previous, next) {
      made();
      const state = latest;
      if (!broken && previous !== null && state !== null && lastMade !== null && next !== state) {
        // A merged view has the continuation's blocks after the interrupted ones: a block's
        // position there is its index plus the difference in length (each pairing is checked
        // with `joinedContinuationBlock` before anything is recorded on it).
        const shift = (next.message?.content.length ?? 0) - (state.message?.content.length ?? 0);
        for (const { index, field, appended } of pending.values()) {
          if (field === 'text') {
            const from = entryAt(lastMade, index);
            recordJoined(previous, next, index + shift, from, entryAt(state, index), appended);
          }
        }
      }
      lastMade = state;
      pending = new Map();
      broken = false;
      recorded = false;
    },
  };
}

/** Block `index` of a state's message. */
function entryAt(state: StreamState, index: number): BlockState | undefined {
  const content = state.message?.content;
  if (content === undefined) return undefined;
  return content[index]?.index === index ? content[index] : content.find((e) => e.index === index);
}

/** The `field` of block `index`, when the block has that text. */
function textAt(state: StreamState, index: number, field: TextField): string | undefined {
  const text = (entryAt(state, index)?.block as Record<string, unknown> | undefined)?.[field];
  return typeof text === 'string' ? text : undefined;
}

/**
 * In a merged view: the text at `position` was joined at the seam from the continuation's
 * block, `from` at the last update and `to` now, which grew by `appended`. The joined text is
 * the interrupted text then an end of the continuation's (`joinedContinuationBlock`), so if
 * its length grew by as much, it grew by that append (a jump at the seam, restated words
 * dropped or shown at once, changes the length by another amount).
 */
function recordJoined(
  previous: StreamState,
  next: StreamState,
  position: number,
  from: BlockState | undefined,
  to: BlockState | undefined,
  appended: string,
): void {
  const before = previous.message?.content[position];
  const after = next.message?.content[position];
  if (
    before === undefined ||
    after === undefined ||
    from === undefined ||
    to === undefined ||
    joinedContinuationBlock(before) !== from ||
    joinedContinuationBlock(after) !== to
  ) {
    return;
  }
  const beforeText = (before.block as { text?: unknown }).text;
  const afterText = (after.block as { text?: unknown }).text;
  // Taken only if the lengths add up, which here is the proof.
  if (typeof beforeText === 'string' && typeof afterText === 'string') {
    recordAppend(afterText, beforeText, appended);
  }
}
