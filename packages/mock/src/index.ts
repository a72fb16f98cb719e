/**
 * `@message-stream/mock`: recorded Anthropic Messages streams, replayed with realistic
 * pacing and failures, for tests, demos and stories. This entry is browser-safe (no `node:`
 * imports); the Node server and file helpers are in `@message-stream/mock/node`.
 */
export {
  type FixtureInfo,
  type FixtureName,
  fixtureNames,
  fixtureRequest,
  fixtures,
  getFixture,
  isFixtureName,
  loadFixture,
} from './catalog.js';
export { type TextFixtureOptions, textFixture } from './follow-up.js';
export {
  type HttpErrorKind,
  type HttpErrorOptions,
  httpError,
  httpErrorKinds,
  httpErrorStatus,
} from './http-errors.js';
export { createMockHandlers, type MockHandlerOptions } from './msw.js';
export {
  type FixtureMeta,
  type RecordEnd,
  type RecordedFixture,
  type RecordSink,
  recordingFetch,
  recordStream,
  teeToFixture,
  toFixtureText,
} from './record.js';
export {
  type ApiErrorBody,
  type Chunking,
  DEFAULT_STREAM_ERROR,
  type ReplayFaults,
  type ReplayOptions,
  type ReplayPacing,
  replay,
  type Speed,
  speeds,
} from './replay.js';
export {
  createMockFetch,
  createMockResponder,
  type FixtureSource,
  fixtureForMessages,
  MODEL_PREFIX,
  type MockOptions,
  type MockRequestInfo,
  SCENARIO_HEADER,
} from './responder.js';
export {
  type Continuation,
  continuationText,
  DEFAULT_CONTINUATION_PATTERN,
  detectContinuation,
} from './resume.js';
export { formatScenario, parseScenario, type Scenario, ScenarioError } from './scenario.js';
export { type FixtureHeader, parseFixtureHeader, sseEvent } from './sse.js';
