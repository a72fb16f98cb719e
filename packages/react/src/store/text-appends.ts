import type { BlockState, StreamEvent, StreamState } from '@message-stream/core';
import { recordAppend } from '../text-growth.js';

/**
 * The text each block of a streaming answer gained between two published states, recorded in
 * the text-growth journal so the view reads only the new part (`text-growth.ts`). Collected
 * from the events as they are reduced; recorded when a state is published.
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

export function createTextAppends(): TextAppends {
  let pending = new Map<number, string>();
  let broken = false;
  let latest: StreamState | null = null;
  return {
    event(event, state) {
      latest = state;
      if (event.type === 'content_block_delta') {
        const delta = event.delta as { type?: unknown; text?: unknown } | null;
        if (
          delta !== null &&
          typeof delta === 'object' &&
          delta.type === 'text_delta' &&
          typeof delta.text === 'string'
        ) {
          pending.set(event.index, (pending.get(event.index) ?? '') + delta.text);
        }
      } else if (event.type === 'message_start') {
        // A second message (a spliced retry) starts its blocks again at the same indexes.
        broken = true;
      }
    },
    published(previous, next) {
      if (!broken && previous !== null && next === latest) {
        for (const [index, appended] of pending) {
          const before = textAt(previous, index);
          const after = textAt(next, index);
          if (before !== undefined && after !== undefined) recordAppend(after, before, appended);
        }
      }
      pending = new Map();
      broken = false;
    },
  };
}

/** The text of block `index`, when it is a text block. */
function textAt(state: StreamState, index: number): string | undefined {
  const content = state.message?.content;
  if (content === undefined) return undefined;
  const entry: BlockState | undefined =
    content[index]?.index === index ? content[index] : content.find((e) => e.index === index);
  const text = (entry?.block as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : undefined;
}
