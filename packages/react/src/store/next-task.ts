/**
 * Resolves in a later task of the event loop, so the page can commit and paint in between.
 * A timer (not core's MessageChannel wait): fake timers in a user's tests drive it too.
 */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
