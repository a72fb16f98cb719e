// @message-stream/core: its public names, grouped by what a reader comes for. Every name is
// listed here explicitly; nothing is re-exported wholesale.

// --- Events to state: the reducer and what it produces --------------------------------------
export { accumulate } from './accumulate.js';
// --- Bytes to events: SSE decoding ----------------------------------------------------------
export type { EventStreamBody } from './body.js';
export {
  type ContinuationOptions,
  canResume,
  continuationRequest,
  continuationStrategy,
  defaultInstruction,
} from './continuation.js';
export { decodeEventStream } from './decode.js';
// --- Streaming a request: the transport, its options and its defaults ----------------------
export {
  DEFAULT_ENDPOINT,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_TOOL_ROUNDTRIPS,
  MAX_TIMER_MS,
} from './defaults.js';
export { type EndCause, endStream } from './end.js';
// --- Errors ----------------------------------------------------------------------------------
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
export { toStreamEvent } from './events.js';
export { joinedContinuationBlock, mergeContinuation } from './merge.js';
export { emptyMessage, liveToMessage, toMessage } from './message.js';
// --- Helpers: partial JSON, plain objects ----------------------------------------------------
export { isPlainObject } from './object.js';
export {
  DEFAULT_MAX_JSON_DEPTH,
  type JsonSyntaxError,
  type PartialJsonOptions,
  PartialJsonParser,
  parsePartialJson,
} from './partial-json.js';
// --- Wire types of the Messages API ----------------------------------------------------------
export {
  type Citation,
  type CitationsDelta,
  type ContentBlock,
  type ContentBlockDelta,
  type ContentBlockDeltaEvent,
  type ContentBlockParam,
  type ContentBlockStartEvent,
  type ContentBlockStopEvent,
  type ErrorEvent,
  type InputJsonDelta,
  type InvalidEvent,
  isRedactedThinkingBlock,
  isServerToolUseBlock,
  isTextBlock,
  isThinkingBlock,
  isToolUseBlock,
  isWebSearchToolResultBlock,
  type KnownBlock,
  type Message,
  type MessageDeltaEvent,
  type MessageFields,
  type MessageParam,
  type MessageRequest,
  type MessageRequestFields,
  type MessageStartEvent,
  type MessageStopEvent,
  type MessageStreamEvent,
  type OtherBlock,
  type OtherDelta,
  type PingEvent,
  type RedactedThinkingBlock,
  type ServerToolUseBlock,
  type SignatureDelta,
  type StopReason,
  type StreamEvent,
  type TextBlock,
  type TextDelta,
  type ThinkingBlock,
  type ThinkingDelta,
  type ToolUseBlock,
  type UnknownEvent,
  type Usage,
  type WebSearchResult,
  type WebSearchToolResultBlock,
} from './protocol.js';
export {
  MAX_DIAGNOSTIC_EVENT_CHARS,
  MAX_DIAGNOSTICS,
  MAX_SUPERSEDED,
  mergeUsage,
  reduceStream,
} from './reduce.js';
export { prepareMessagesJson } from './request-body.js';
export { type ResumeStrategy, resumeStrategyFor } from './resume-strategy.js';
// --- Sending an answer back: history and resume ---------------------------------------------
export {
  isSendableBlock,
  type SendableOptions,
  sendableBlocks,
  sendableContent,
  toBlockParam,
} from './sendable.js';
export {
  EventStreamDecoder,
  type EventStreamDecoderOptions,
  MAX_SSE_EVENT_CHARS,
  SSE_LINE_END,
  splitSseLines,
} from './sse.js';
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
export {
  type MessageProblem,
  type MessageProblemCode,
  validateMessages,
} from './validate-messages.js';
