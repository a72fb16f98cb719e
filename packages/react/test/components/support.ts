import {
  accumulate,
  type BlockState,
  type ContentBlock,
  createStreamState,
  EventStreamDecoder,
  reduceStream,
  type StreamState,
} from '@message-stream/core';
import axe from 'axe-core';

/** The final state of a fixture body, as the core accumulates it. */
export function finalState(body: string): Promise<StreamState> {
  return accumulate(body);
}

/** Every state a fixture body passes through, one per event, as a live UI would see them. */
export function everyState(body: string): StreamState[] {
  const decoder = new EventStreamDecoder();
  const events = [...decoder.push(body), ...decoder.end()];
  const states: StreamState[] = [];
  let state = createStreamState();
  for (const event of events) {
    state = reduceStream(state, event);
    states.push(state);
  }
  return states;
}

/** The blocks of a state's message (none before `message_start`). */
export function blocksOf(state: StreamState): readonly BlockState[] {
  return state.message?.content ?? [];
}

/** The block at wire index `index` of a state, or a failure that names it. */
export function blockAt(state: StreamState, index: number): BlockState {
  const block = blocksOf(state).find((b) => b.index === index);
  if (!block) throw new Error(`no block ${index} in this state`);
  return block;
}

/** A block state by hand, for shapes no fixture has. */
export function blockState(
  block: ContentBlock,
  status: BlockState['status'] = 'complete',
  extra: Partial<BlockState> = {},
): BlockState {
  return { index: 0, status, block, ...extra };
}

/**
 * axe-core on a rendered fragment. `region` is off: these are components tested on their own,
 * outside any page landmarks, and that rule is about the page around them, not the component.
 */
export async function axeViolations(container: Element): Promise<string[]> {
  const result = await axe.run(container, { rules: { region: { enabled: false } } });
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}
