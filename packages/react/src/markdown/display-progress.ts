import { createContext, useContext, useLayoutEffect, useState } from 'react';

/**
 * Whether an answer's text is all on the page yet. Markdown shows a burst of new blocks over
 * a few frames (see `StreamingMarkdown`), so a fast answer can end before its display has
 * caught up; the answer is shown as finished (its status, notes and actions) only once it has,
 * instead of painting the rest in one long frame.
 */
export interface DisplayProgress {
  /** A text view says, after each commit, whether it shows less than its text. */
  report(view: object, behind: boolean): void;
  /** Calls back once no view is behind (at once when none is); returns a cancel. */
  whenCaughtUp(callback: () => void): () => void;
}

export const DisplayProgressContext = createContext<DisplayProgress | null>(null);

export function createDisplayProgress(): DisplayProgress {
  const behind = new Set<object>();
  let waiting: (() => void) | null = null;
  const settle = () => {
    if (behind.size > 0 || waiting === null) return;
    const callback = waiting;
    waiting = null;
    callback();
  };
  return {
    report(view, isBehind) {
      if (isBehind) behind.add(view);
      else if (behind.delete(view)) settle();
    },
    whenCaughtUp(callback) {
      waiting = callback;
      settle();
      return () => {
        if (waiting === callback) waiting = null;
      };
    },
  };
}

/**
 * Reports a text view's `behind` to the answer around it (if any) after each commit that
 * changes it, and as caught up when it unmounts. Layout effects: a child's run before its
 * answer's, so a view that falls behind in the commit that ends the answer is counted before
 * the answer asks, and an answer whose text is all shown is marked finished before that
 * commit paints, not one frame later.
 */
export function useReportDisplayProgress(behind: boolean): void {
  const progress = useContext(DisplayProgressContext);
  const [view] = useState(() => ({}));
  useLayoutEffect(() => {
    progress?.report(view, behind);
  }, [progress, view, behind]);
  // Its own effect: a cleanup between two reports would say "caught up" for a moment.
  useLayoutEffect(() => () => progress?.report(view, false), [progress, view]);
}

/**
 * `final`, held back until the answer's text views have caught up: the answer's displayed
 * end. An answer first rendered finished (a restored thread) is shown finished at once.
 */
export function useDisplayedFinal(final: boolean, progress: DisplayProgress): boolean {
  const [shown, setShown] = useState(final);
  // A finished answer that streams again (Resume, Continue) is held again at its next end.
  if (!final && shown) setShown(false);
  useLayoutEffect(() => {
    if (!final || shown) return;
    return progress.whenCaughtUp(() => setShown(true));
  }, [final, shown, progress]);
  return final && shown;
}
