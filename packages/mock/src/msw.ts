/**
 * MSW front end: `setupServer(...createMockHandlers())` in tests, `setupWorker(...)` in the
 * demo and Storybook. MSW's `sse()` helper only answers GET, and the Messages API streams
 * from a POST, so this is an `http.post` handler with a streamed body.
 */
import { type HttpHandler, http } from 'msw';
import { createMockResponder, type MockOptions } from './responder.js';

export interface MockHandlerOptions extends MockOptions {
  /** The path (MSW syntax) to answer. Default `'*\/v1/messages'`: any origin, and relative URLs. */
  readonly path?: string | RegExp;
}

/**
 * MSW request handlers answering `POST …/v1/messages` from the fixtures (see
 * `createMockResponder` for how a request picks its scenario). In a browser, fixtures are
 * fetched with MSW's `bypass`, so loading one is never itself intercepted.
 *
 * In Node, MSW does not cancel a mocked body when the client aborts (a known interceptor
 * issue); the replay also listens to the request's signal, but test client aborts against
 * `createReplayServer` (real sockets) when it matters.
 */
export function createMockHandlers(options: MockHandlerOptions = {}): HttpHandler[] {
  const respond = createMockResponder(options);
  return [http.post(options.path ?? '*/v1/messages', ({ request }) => respond(request))];
}
