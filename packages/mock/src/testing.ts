/**
 * `@message-stream/mock/testing`: the helpers every test of a message-stream UI needs, once
 * (the kit's own tests, stories and bench use these too): SSE events by hand, a fixture's
 * stream states, block look-ups and a seeded random generator. Browser-safe; depends only on
 * the core.
 */
import {
  accumulate,
  type BlockState,
  type ContentBlock,
  createStreamState,
  EventStreamDecoder,
  reduceStream,
  type StreamState,
} from '@message-stream/core';

export { createRandom as seededRandom, DEFAULT_SEED } from './random.js';
export { sseEvent } from './sse.js';

/** The final state of an SSE body, as the core accumulates it. */
export function finalStateOf(body: string): Promise<StreamState> {
  return accumulate(body);
}

/** Every state an SSE body passes through, one per event, as a live UI sees them. */
export function everyStateOf(body: string): StreamState[] {
  const decoder = new EventStreamDecoder();
  const states: StreamState[] = [];
  let state = createStreamState();
  for (const event of [...decoder.push(body), ...decoder.end()]) {
    state = reduceStream(state, event);
    states.push(state);
  }
  return states;
}

/** The blocks of a state's message (none before `message_start`). */
export const blocksOf = (state: StreamState): readonly BlockState[] => state.message?.content ?? [];

/** The block at wire index `index` of a state, or an error that names it. */
export function blockAt(state: StreamState, index: number): BlockState {
  const block = blocksOf(state).find((b) => b.index === index);
  if (!block) throw new Error(`No block ${index} in this state.`);
  return block;
}

/** The `nth` block of `type` in a state, or an error that names it. */
export function blockOfType(state: StreamState, type: string, nth = 0): BlockState {
  const block = blocksOf(state).filter((b) => b.block.type === type)[nth];
  if (!block) throw new Error(`No ${type} block #${nth} in this state.`);
  return block;
}

/** A block state by hand, for shapes no fixture has. */
export function blockState(
  block: ContentBlock | Record<string, unknown>,
  status: BlockState['status'] = 'complete',
  extra: Partial<BlockState> = {},
): BlockState {
  return { index: 0, status, block: block as ContentBlock, ...extra };
}

/** The text of a block, or '' when it has none. */
export const blockText = (block: BlockState): string => {
  const text = (block.block as { text?: unknown }).text;
  return typeof text === 'string' ? text : '';
};

/** The text blocks of a state, joined by a blank line: what the reader gets to read. */
export const answerText = (state: StreamState | null | undefined): string =>
  state
    ? blocksOf(state)
        .filter((b) => b.block.type === 'text')
        .map(blockText)
        .join('\n\n')
    : '';
