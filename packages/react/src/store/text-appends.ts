import type { BlockState, StreamEvent, StreamState } from '@message-stream/core';
import { recordAppend } from '../text-growth.js';

/**
 * The text (or thinking) each block of a streaming answer gained between two published states,
 * recorded in the text-growth journal so the view reads only the new part (`text-growth.ts`).
 * Collected from the events as they are reduced; recorded when a state is published.
 */
export interface TextAppends {
  /** An event the reducer has just applied, and the state it made. */
  event(event: StreamEvent, state: StreamState): void;
  /**
   * `next` is published after `previous` (null: the first). Records what each text block
   * gained, when the reducer built it from `previous` by those appends alone: only for the
   * state the last event made. Any other (one published before its event was told, a merged
   * view of a continued answer, which builds its texts anew) is not recorded.
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
  let latest: StreamState | null = null;
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
    published(previous, next) {
      if (!broken && previous !== null && next === latest) {
        for (const { index, field, appended } of pending.values()) {
          const before = textAt(previous, index, field);
          const after = textAt(next, index, field);
          if (before !== undefined && after !== undefined) recordAppend(after, before, appended);
        }
      }
      pending = new Map();
      broken = false;
    },
  };
}

/** The `field` of block `index`, when the block has that text. */
function textAt(state: StreamState, index: number, field: TextField): string | undefined {
  const content = state.message?.content;
  if (content === undefined) return undefined;
  const entry: BlockState | undefined =
    content[index]?.index === index ? content[index] : content.find((e) => e.index === index);
  const text = (entry?.block as Record<string, unknown> | undefined)?.[field];
  return typeof text === 'string' ? text : undefined;
}
