import { type ReactNode, useEffect, useState } from 'react';

export interface ReplayProps<T> {
  /** The states to show, in order; the last one stays. */
  readonly steps: readonly T[];
  /** Time between two steps. */
  readonly intervalMs?: number;
  readonly children: (step: T, index: number) => ReactNode;
}

/**
 * Plays a list of states (a fixture's, one per event) through a component, as a live stream
 * would: a component story that animates without a network.
 */
export function Replay<T>({ steps, intervalMs = 40, children }: ReplayProps<T>): ReactNode {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (index >= steps.length - 1) return;
    const timer = setTimeout(() => setIndex(index + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [index, steps.length, intervalMs]);
  const step = steps[Math.min(index, steps.length - 1)];
  return step === undefined ? null : children(step, index);
}
