/**
 * The tokenizer in a module Worker: Shiki compiles a grammar's expressions the first time they
 * run, which takes tens to hundreds of milliseconds per line at first. Here that never holds up
 * the page's frames.
 */
import { createLineTokenizer, WORKER_RETRY_BUDGETS } from './engine.js';
import type { TokenizeRequest } from './protocol.js';
import { TokenizeSessions } from './session.js';
import type { LineTokenizer } from './tokens.js';

/** The worker's global scope, typed by what is used (the DOM lib is the package's). */
const scope = self as unknown as {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<TokenizeRequest>) => void): void;
};

const sessions = new TokenizeSessions({
  load: (language) =>
    createLineTokenizer(
      language,
      undefined,
      WORKER_RETRY_BUDGETS,
    ) as Promise<LineTokenizer<unknown> | null>,
  post: (result) => scope.postMessage(result),
  // A task of its own between slices, so requests that came in meanwhile are read first.
  schedule: (run) => setTimeout(run, 0),
});

scope.addEventListener('message', (event: MessageEvent<TokenizeRequest>) => {
  sessions.receive(event.data);
});
