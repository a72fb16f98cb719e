/**
 * Runs `task` in the first idle period after the page has painted (two frames from now), for
 * work a first render must not wait for: warming a parser up, fetching code a later part may
 * need. Nothing runs where the browser has no `requestIdleCallback`.
 */
export function whenPaintedAndIdle(task: () => void): void {
  if (typeof requestIdleCallback !== 'function') return;
  requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => task())));
}
