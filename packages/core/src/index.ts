export { accumulate } from './accumulate.js';
export {
  decodeEventStream,
  type EventStreamBody,
  EventStreamDecoder,
  toStreamEvent,
} from './decode.js';
export { type EndCause, endStream } from './end.js';
export {
  createStreamError,
  describeError,
  errorFromEvent,
  errorFromResponse,
  isRetryableErrorType,
  RETRYABLE_STATUSES,
  retryAfterMs,
  type StreamError,
} from './errors.js';
export { liveToMessage, toMessage } from './message.js';
export { type JsonSyntaxError, PartialJsonParser, parsePartialJson } from './partial-json.js';
export * from './protocol.js';
export { MAX_DIAGNOSTICS, mergeUsage, reduceStream } from './reduce.js';
export {
  type ContinuationOptions,
  canResume,
  continuationRequest,
  defaultInstruction,
  mergeContinuation,
  type ResumeStrategy,
  resumeStrategyFor,
} from './resume.js';
export {
  type AttemptSummary,
  type BlockState,
  type BlockStatus,
  createStreamState,
  type Diagnostic,
  type DiagnosticCode,
  isFinalStatus,
  type LiveMessage,
  type StreamState,
  type StreamStatus,
} from './state.js';
export {
  type HeaderRecord,
  type RetryOptions,
  type StreamMessageOptions,
  streamMessage,
} from './transport.js';
