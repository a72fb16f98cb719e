import { createContext, useContext, useLayoutEffect, useReducer, useState } from 'react';

/**
 * Whether an answer's text is all on the page yet. Markdown shows a burst of new blocks over
 * a few frames (see `StreamingMarkdown`), also after a fast answer has ended, so the answer is
 * shown as finished (its status, notes and actions) only once its text views have caught up.
 *
 * It is read during render, never set in an effect, so it costs no commit of its own: a view
 * marks itself while it renders, and the answer's end, rendered after its views in the same
 * pass, reads the marks. A view's next step wakes the answer's end in the same batch. A mark
 * from a render React throws away is replaced by that view's next render, and a view's first
 * render is never behind, so a view that never commits leaves no mark that holds the answer.
 */
export interface DisplayProgress {
  /** While a text view renders: whether it shows less than its text. */
  mark(view: object, behind: boolean): void;
  /** While the answer's end renders (after its views): whether any view is behind. */
  behind(): boolean;
  /** A view takes its next step: the answer's end renders with it. */
  step(): void;
  /** The answer's end listens for steps. */
  subscribe(listener: () => void): () => void;
}

export const DisplayProgressContext = createContext<DisplayProgress | null>(null);

export function createDisplayProgress(): DisplayProgress {
  const behind = new Set<object>();
  const listeners = new Set<() => void>();
  const step = () => {
    for (const listener of listeners) listener();
  };
  return {
    mark(view, isBehind) {
      if (isBehind) behind.add(view);
      else behind.delete(view);
    },
    behind: () => behind.size > 0,
    step,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Marks a text view as behind or caught up in its answer (if it is in one), during render.
 * Returns what its next step calls with its own update, so the answer's end renders in the
 * same commit. A view removed while behind wakes the answer's end, which would wait for it.
 */
export function useDisplayProgressMark(behind: boolean): () => void {
  const progress = useContext(DisplayProgressContext);
  const [view] = useState(() => ({}));
  progress?.mark(view, behind);
  useLayoutEffect(
    () => () => {
      if (progress === null) return;
      const wasBehind = progress.behind();
      progress.mark(view, false);
      if (wasBehind && !progress.behind()) progress.step();
    },
    [progress, view],
  );
  return progress === null ? noStep : progress.step;
}

const noStep = () => {};

/** Re-renders the answer's end with each step of its text views. */
export function useDisplayProgressSteps(progress: DisplayProgress): void {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useLayoutEffect(() => progress.subscribe(rerender), [progress]);
}
