/**
 * Shared helpers for the stories: stream states built from the mock's fixtures (final,
 * mid-stream, every step), block states by hand, and small DOM watchers for play functions.
 */
import type { BlockState, StreamState } from '@message-stream/core';
import { loadFixture } from '@message-stream/mock';
import { everyStateOf, finalStateOf } from '@message-stream/mock/testing';

export {
  answerText,
  blockOfType,
  blockState,
  blocksOf,
  blockText,
} from '@message-stream/mock/testing';

/**
 * True when the stories run as tests (Vitest through @storybook/addon-vitest), false in the
 * Storybook UI. Tests keep realistic pacing where it is short, and go fast where it is not.
 */
export const IN_TEST: boolean =
  import.meta.env.MODE === 'test' || Boolean((import.meta.env as { VITEST?: unknown }).VITEST);

/** The final state of a fixture, as the core accumulates it. */
export async function finalState(name: string): Promise<StreamState> {
  return finalStateOf(await loadFixture(name));
}

/** Every state a fixture passes through, one per event, as a live UI sees them. */
export async function statesOf(name: string): Promise<StreamState[]> {
  return everyStateOf(await loadFixture(name));
}

/** The first state of a fixture for which `pick` finds a block; that state and block. */
export async function midStream(
  name: string,
  pick: (state: StreamState) => BlockState | undefined,
): Promise<{ state: StreamState; block: BlockState }> {
  for (const state of await statesOf(name)) {
    const block = pick(state);
    if (block) return { state, block };
  }
  throw new Error(`No state of ${name} has the block asked for.`);
}

/** How many content deltas a fixture streams: how long it takes at a given pace. */
export const deltaCount = (fixtureText: string): number =>
  (fixtureText.match(/"type"\s*:\s*"content_block_delta"/g) ?? []).length;

/**
 * A piece of `markdown` that renders literally (no markdown syntax, no line break, no URL), to
 * look for in the DOM: the longest such run in the text's last 400 characters.
 */
export function plainProbe(markdown: string): string {
  const tail = markdown.slice(-400);
  const runs = tail.match(/[A-Za-z0-9 ,.'!?]{6,}/g) ?? [];
  const best = runs
    .map((run) =>
      run
        .trim()
        .replace(/^\d+[.)]\s+/, '')
        .replace(/\s+/g, ' '),
    )
    .filter((run) => /[A-Za-z]{3}/.test(run) && !/ {2}/.test(run))
    .sort((a, b) => b.length - a.length)[0];
  return best ?? '';
}

/**
 * Records what `read` returns after each DOM change under `root` (text, attributes), so a play
 * function can tell that something arrived in steps rather than all at once.
 */
export function watch<T>(root: Node, read: () => T): { values: T[]; stop(): void } {
  const values: T[] = [read()];
  const observer = new MutationObserver(() => {
    const value = read();
    if (!Object.is(values[values.length - 1], value)) values.push(value);
  });
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  return {
    values,
    stop() {
      const value = read();
      if (!Object.is(values[values.length - 1], value)) values.push(value);
      observer.disconnect();
    },
  };
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The a11y setting of stories whose content overflows a scrolling box (long tool input, long
 * result, wide code or table): those boxes are focusable so keyboard users can scroll them
 * (axe: scrollable-region-focusable), and a violation fails the story like any other.
 */
export const SCROLLABLE_REGION_A11Y = { test: 'error' } as const;
