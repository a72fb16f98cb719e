import type { Turn } from '../store/types.js';

/**
 * Turns per group in the log. The log holds groups, not turns, so that a 1,000-turn thread is
 * ~60 boxes for the browser to lay out and paint each frame rather than 2,000: every group but
 * the newest skips layout and paint while off screen (`content-visibility`, styles.css), and a
 * skipped box still costs a visit per frame. A turn stays in its group for good (groups are by
 * index), so nothing is re-parented and no turn loses its state as the thread grows.
 */
export const TURNS_PER_GROUP = 32;

/** `turns` cut into groups of `TURNS_PER_GROUP`, by index. */
export function groupTurns(turns: readonly Turn[]): Turn[][] {
  const groups: Turn[][] = [];
  for (let i = 0; i < turns.length; i += TURNS_PER_GROUP) {
    groups.push(turns.slice(i, i + TURNS_PER_GROUP));
  }
  return groups;
}
