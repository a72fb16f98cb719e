/**
 * Resolves in a new task of the event loop, not a microtask: work split across such waits
 * lets the page paint and take input in between. A message on a fresh channel, because
 * timers are clamped to 4 ms once nested and `scheduler.postTask` is not everywhere; the
 * port is closed on arrival, so it never keeps a Node process alive.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
