/**
 * Resolves in a later task of the event loop, so the page can commit and paint in between. A
 * zero timer: tests with fake timers advance it as they advance the transport's own timers.
 */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
