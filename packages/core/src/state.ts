import type { StreamError } from './errors.js';
import type { JsonSyntaxError } from './partial-json.js';
import type {
  ContentBlock,
  ContentBlockDelta,
  MessageFields,
  StreamEvent,
  Usage,
} from './protocol.js';

/**
 * Where a stream is in its life. `idle` before the first event, `streaming` while events
 * arrive; the other four are final and only `endStream` (or an in-stream `error` event)
 * reaches them.
 */
export type StreamStatus = 'idle' | 'streaming' | 'complete' | 'interrupted' | 'error' | 'aborted';

/**
 * `incomplete` marks a block that was still streaming when its stream ended: its content is
 * kept, but it never received `content_block_stop`.
 */
export type BlockStatus = 'streaming' | 'complete' | 'incomplete';

/** One content block of the live message, with what the UI needs beside the API shape. */
export interface BlockState<B extends ContentBlock = ContentBlock> {
  /** The block's `index` on the wire (its position in the final `Message.content`). */
  readonly index: number;
  readonly status: BlockStatus;
  /**
   * The block as the API would return it, best effort so far. For blocks with an `input`
   * (tool_use, server_tool_use, mcp_tool_use, …) `input` is the incremental parser's
   * current value, computed when read, so a delta costs nothing a reader does not ask for.
   */
  readonly block: B;
  /** Raw text of every `input_json_delta` fragment so far (input-bearing blocks only). */
  readonly inputJson?: string;
  /** The first JSON syntax error in `inputJson`; `block.input` keeps the last good value. */
  readonly inputError?: JsonSyntaxError | null;
  /** Deltas this block could not apply (unknown type, or not fitting the block), kept raw. */
  readonly otherDeltas?: readonly ContentBlockDelta[];
  /** Such deltas past the first 256, counted but not kept. */
  readonly otherDeltasDropped?: number;
}

/**
 * The message being streamed: the API's `Message`, with live blocks as its content. Past 64
 * blocks, `content` is built from the reducer's own store of the blocks (shared by successive
 * states) the first time it is read and then kept, so an event never copies every block; it
 * is an own enumerable property like any other, so spreads, JSON and structured clones see
 * the array.
 */
export interface LiveMessage extends MessageFields {
  readonly content: readonly BlockState[];
}

export type DiagnosticCode =
  | 'invalid_event'
  | 'unknown_event'
  | 'malformed_event'
  | 'unknown_block_type'
  | 'unknown_delta_type'
  | 'delta_type_mismatch'
  | 'unknown_block_index'
  | 'duplicate_block_index'
  | 'event_before_message_start'
  | 'event_after_message_stop'
  | 'event_after_end'
  | 'second_message_start'
  | 'invalid_tool_input'
  | 'internal_error';

/**
 * A protocol anomaly the reducer recovered from. The offending event is kept whole when it
 * is small; a large one (past `MAX_DIAGNOSTIC_EVENT_CHARS` of JSON) is kept as the start of
 * its JSON text in `excerpt`, with its full length in `eventChars`, so a stream of large
 * bad events cannot hold megabytes alive through its diagnostics.
 */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly event?: StreamEvent;
  /** The first `MAX_DIAGNOSTIC_EVENT_CHARS` characters of a large event's JSON. */
  readonly excerpt?: string;
  /** The length of that event's JSON text. */
  readonly eventChars?: number;
}

export interface StreamState {
  readonly status: StreamStatus;
  /** The live message; `null` until `message_start` (or the first content event) arrives. */
  readonly message: LiveMessage | null;
  /**
   * Earlier messages replaced by a later `message_start` in the same stream (gateways that
   * retry upstream and splice the retry into one response). Oldest first.
   */
  readonly superseded: readonly LiveMessage[];
  /** Superseded messages past the most recent `MAX_SUPERSEDED`, counted but not kept. */
  readonly supersededDropped?: number;
  /** `message_stop` arrived: the answer is whole, whatever happens to the connection next. */
  readonly stopReceived: boolean;
  readonly error: StreamError | null;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Diagnostics past the first 256, counted but not kept (see `MAX_DIAGNOSTICS`). One is
   * kept past them: `event_before_message_start`, made once a stream, which a late
   * `message_start` needs to find the message started for the content before it.
   */
  readonly diagnosticsDropped?: number;
  /**
   * Set by `mergeContinuation` on an answer finished by resume: one entry per request that
   * contributed to it, oldest first. Absent on an answer that took one request.
   */
  readonly attempts?: readonly AttemptSummary[];
}

/** One request's share of an answer that was resumed. */
export interface AttemptSummary {
  readonly messageId: string;
  readonly status: StreamStatus;
  readonly usage: Usage;
  readonly error: StreamError | null;
}

export function createStreamState(): StreamState {
  return {
    status: 'idle',
    message: null,
    superseded: [],
    stopReceived: false,
    error: null,
    diagnostics: [],
  };
}

export const isFinalStatus = (status: StreamStatus): boolean =>
  status !== 'idle' && status !== 'streaming';
