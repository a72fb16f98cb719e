/**
 * `@message-stream/react`: the drop-in `<ChatStream/>`, the parts it is built from (for your
 * own layout), the chat store and hooks, and the helpers the parts use. Grouped in that order.
 */

// Conversation parts: compose your own layout from these.
export {
  AssistantMessage,
  type AssistantMessageActions,
  type AssistantMessageProps,
  answerMarkdown,
} from './chat/assistant-message.js';
// The drop-in chat.
export { ChatStream, type ChatStreamProps, type ChatTransport } from './chat/chat-stream.js';
export { Composer, type ComposerProps } from './chat/composer.js';
export { Icon, type IconName } from './chat/icons.js';
export {
  createStreamRecorder,
  type RecordedStream,
  type StreamRecorder,
  type StreamRecorderOptions,
} from './chat/stream-recorder.js';
export { UserMessage, type UserMessageProps, userText } from './chat/user-message.js';
// Block parts: one component per content block of an answer.
export { CitationList, type CitationListProps } from './components/citation-list.js';
export {
  type BlockRendererProps,
  type BlockRenderers,
  ContentBlockView,
  type ContentBlockViewProps,
} from './components/content-block-view.js';
export { CopyButton, type CopyButtonProps } from './components/copy-button.js';
export { EmptyState, type EmptyStateProps, type Suggestion } from './components/empty-state.js';
export {
  GenericBlockView,
  type GenericBlockViewProps,
} from './components/generic-block-view.js';
export {
  type Feedback,
  MessageActions,
  type MessageActionsProps,
} from './components/message-actions.js';
export { RedactedThinking, type RedactedThinkingProps } from './components/redacted-thinking.js';
export {
  canRecover,
  type Recovery,
  ResumeControl,
  type ResumeControlProps,
  recoveryFor,
} from './components/resume-control.js';
export {
  ServerToolUseView,
  type ServerToolUseViewProps,
} from './components/server-tool-use-view.js';
export {
  type StopReasonInfo,
  StopReasonNotice,
  type StopReasonNoticeProps,
  stopReasonInfo,
} from './components/stop-reason-notice.js';
export {
  StreamDetails,
  type StreamDetailsProps,
  type StreamDownload,
  type StreamTimings,
  streamFigures,
} from './components/stream-details.js';
export {
  StreamErrorNotice,
  type StreamErrorNoticeProps,
} from './components/stream-error-notice.js';
export { TextBlockView, type TextBlockViewProps } from './components/text-block-view.js';
export {
  ThinkingBlockView,
  type ThinkingBlockViewProps,
} from './components/thinking-block-view.js';
export { ToolCallCard, type ToolCallCardProps } from './components/tool-call-card.js';
export { resultText, ToolResult, type ToolResultProps } from './components/tool-result.js';
// Helpers the parts use, for custom parts.
export {
  deriveToolStatus,
  sameToolResult,
  TOOL_STATUS_LABELS,
  type ToolCallStatus,
  type ToolResultView,
} from './components/tool-status.js';
export { isPartialUsage, UsageBadge, type UsageBadgeProps } from './components/usage-badge.js';
export {
  WebSearchResultsView,
  type WebSearchResultsViewProps,
} from './components/web-search-results-view.js';

// The chat store and hooks.
export { type FollowScroll, useFollowScroll } from './hooks/use-follow-scroll.js';
export { type MessageStreamView, useMessageStream } from './hooks/use-message-stream.js';
export { type MarkdownChunk, type MarkdownSplit, splitMarkdown } from './markdown/split.js';
export { StreamingMarkdown, type StreamingMarkdownProps } from './markdown/streaming-markdown.js';
export { repairStreamingTail } from './markdown/tail.js';
export { hostnameOf, markdownUrlTransform, safeHref } from './markdown/url.js';
export { isToolResultsTurn, toMessageParams } from './store/conversation.js';
export { type ChatStore, createChatStore } from './store/create-chat-store.js';
/** @deprecated Renamed to `ChatPersistStorage` (zustand exports a `PersistStorage` of its own). */
export type {
  AssistantTurn,
  ChatActions,
  ChatPersistStorage,
  ChatPersistStorage as PersistStorage,
  ChatState,
  ChatStatus,
  ChatStoreOptions,
  RequestDefaults,
  ToolCall,
  ToolResultState,
  Turn,
  UserTurn,
} from './store/types.js';
