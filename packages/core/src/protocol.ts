/**
 * The wire types of a streamed Messages response, as the API sends them.
 *
 * They are deliberately open: the API adds fields, block types, delta types and event
 * types over time, and a streaming kit must carry what it does not know yet instead of
 * dropping it. Known shapes are typed precisely; every object also admits extra keys.
 */

/** Why the model stopped. Known values are listed; anything newer passes through. */
export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | (string & {});

export interface Usage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  server_tool_use?: { web_search_requests?: number; [key: string]: unknown } | null;
  [key: string]: unknown;
}

export interface Citation {
  type: string;
  cited_text?: string;
  [key: string]: unknown;
}

export interface TextBlock {
  type: 'text';
  text: string;
  citations?: Citation[] | null;
  [key: string]: unknown;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
  [key: string]: unknown;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
  [key: string]: unknown;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  [key: string]: unknown;
}

export interface ServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: unknown;
  [key: string]: unknown;
}

export interface WebSearchResult {
  type: 'web_search_result';
  title: string;
  url: string;
  encrypted_content?: string;
  page_age?: string | null;
  [key: string]: unknown;
}

export interface WebSearchToolResultBlock {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: WebSearchResult[] | { type: string; error_code?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** A block whose type this version does not know (e.g. a newer server tool result). */
export interface OtherBlock {
  type: string;
  [key: string]: unknown;
}

export type KnownBlock =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock
  | ServerToolUseBlock
  | WebSearchToolResultBlock;

/**
 * A content block as it appears in `Message.content`. Narrow with the `is*Block` guards:
 * `OtherBlock` keeps the union open, so `block.type === 'text'` alone does not narrow.
 */
export type ContentBlock = KnownBlock | OtherBlock;

/** Every field of a Message but its content (shared by `Message` and the live message). */
export interface MessageFields {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: Usage;
  [key: string]: unknown;
}

/** The Message the non-streaming API returns. */
export interface Message extends MessageFields {
  content: ContentBlock[];
}

export interface TextDelta {
  type: 'text_delta';
  text: string;
}
export interface ThinkingDelta {
  type: 'thinking_delta';
  thinking: string;
}
export interface SignatureDelta {
  type: 'signature_delta';
  signature: string;
}
export interface InputJsonDelta {
  type: 'input_json_delta';
  partial_json: string;
}
export interface CitationsDelta {
  type: 'citations_delta';
  citation: Citation;
}
export interface OtherDelta {
  type: string;
  [key: string]: unknown;
}
export type ContentBlockDelta =
  | TextDelta
  | ThinkingDelta
  | SignatureDelta
  | InputJsonDelta
  | CitationsDelta
  | OtherDelta;

export interface MessageStartEvent {
  type: 'message_start';
  message: Message;
}
export interface ContentBlockStartEvent {
  type: 'content_block_start';
  index: number;
  content_block: ContentBlock;
}
export interface ContentBlockDeltaEvent {
  type: 'content_block_delta';
  index: number;
  delta: ContentBlockDelta;
}
export interface ContentBlockStopEvent {
  type: 'content_block_stop';
  index: number;
}
export interface MessageDeltaEvent {
  type: 'message_delta';
  delta: { stop_reason?: StopReason | null; stop_sequence?: string | null; [key: string]: unknown };
  usage?: Usage | null;
  [key: string]: unknown;
}
export interface MessageStopEvent {
  type: 'message_stop';
}
export interface PingEvent {
  type: 'ping';
}
export interface ErrorEvent {
  type: 'error';
  error: { type: string; message: string; [key: string]: unknown };
  request_id?: string;
  [key: string]: unknown;
}

/** An event whose `data` was not valid JSON (or not a JSON object). Nothing is thrown. */
export interface InvalidEvent {
  type: 'invalid_event';
  /** The SSE `event:` name, if the event had one. */
  event: string | null;
  /** The raw `data` text, exactly as received. */
  data: string;
  reason: string;
}

/** A well-formed event of a type this version does not know. Kept whole, never dropped. */
export interface UnknownEvent {
  type: 'unknown_event';
  event: string | null;
  data: unknown;
}

export type MessageStreamEvent =
  | MessageStartEvent
  | ContentBlockStartEvent
  | ContentBlockDeltaEvent
  | ContentBlockStopEvent
  | MessageDeltaEvent
  | MessageStopEvent
  | PingEvent
  | ErrorEvent;

/** What `decodeEventStream` yields and `reduceStream` accepts. */
export type StreamEvent = MessageStreamEvent | InvalidEvent | UnknownEvent;

export const isTextBlock = (block: ContentBlock): block is TextBlock => block.type === 'text';
export const isThinkingBlock = (block: ContentBlock): block is ThinkingBlock =>
  block.type === 'thinking';
export const isRedactedThinkingBlock = (block: ContentBlock): block is RedactedThinkingBlock =>
  block.type === 'redacted_thinking';
export const isToolUseBlock = (block: ContentBlock): block is ToolUseBlock =>
  block.type === 'tool_use';
export const isServerToolUseBlock = (block: ContentBlock): block is ServerToolUseBlock =>
  block.type === 'server_tool_use';
export const isWebSearchToolResultBlock = (
  block: ContentBlock,
): block is WebSearchToolResultBlock => block.type === 'web_search_tool_result';

/** A block of a request message: the response blocks plus what only requests carry. */
export type ContentBlockParam =
  | ContentBlock
  | {
      type: 'tool_result';
      tool_use_id: string;
      content?: string | ContentBlockParam[];
      is_error?: boolean;
      [key: string]: unknown;
    }
  | { type: 'image' | 'document'; source: unknown; [key: string]: unknown };

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | ContentBlockParam[];
}

/** Every field of a Messages request but its messages (defaults a chat sends each time). */
export interface MessageRequestFields {
  model: string;
  max_tokens: number;
  system?: string | Array<{ type: 'text'; text: string; [key: string]: unknown }>;
  tools?: Array<{ name: string; [key: string]: unknown }>;
  tool_choice?: { type: string; [key: string]: unknown };
  thinking?: { type: string; [key: string]: unknown };
  stop_sequences?: string[];
  temperature?: number;
  metadata?: Record<string, unknown>;
  stream?: boolean;
  [key: string]: unknown;
}

/** The body of `POST /v1/messages`. Fields this kit does not use pass through untouched. */
export interface MessageRequest extends MessageRequestFields {
  messages: MessageParam[];
}
