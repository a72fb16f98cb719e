// A client boundary: a Next.js App Router server component can import any of this directly
// (everything here runs in the browser: state, effects, event handlers).
'use client';

/**
 * `@message-stream/react`: the drop-in `<ChatStream/>`, the parts it is built from (for your
 * own layout), the chat store and hooks, and the helpers the parts use. Grouped in that order.
 */

// Conversation parts: compose your own layout from these.
export type {
  AssistantMessageActions,
  AssistantMessageProps,
} from './chat/assistant-message.js';
// The drop-in chat.
export { ChatStream, type ChatStreamProps, type ChatTransport } from './chat/chat-stream.js';
export { Composer, type ComposerProps } from './chat/composer.js';
export { Icon, type IconName } from './chat/icons.js';
// Parts that draw messages: their code is one chunk, loaded on demand (`preloadParts`).
export {
  AnswerScope,
  AnswerSources,
  AssistantMessage,
  AttachmentPreview,
  BranchPicker,
  CitationList,
  CodeBlock,
  ContentBlockView,
  CopyButton,
  FallbackNote,
  GenericBlockView,
  JsonView,
  MessageActions,
  RedactedThinking,
  ResumeControl,
  ServerToolResultView,
  ServerToolUseView,
  StopReasonNotice,
  StreamDetails,
  StreamingMarkdown,
  TextBlockView,
  ThinkingBlockView,
  ToolCallCard,
  ToolResult,
  UsageBadge,
  UserMessage,
  WebSearchResultsView,
} from './chat/message-parts.js';
export {
  createStreamRecorder,
  type RecordedStream,
  type StreamRecorder,
  type StreamRecorderOptions,
} from './chat/stream-recorder.js';
export { answerMarkdown, userText } from './chat/turn-text.js';
export type { UserMessageProps } from './chat/user-message.js';
export {
  isPartialUsage,
  partialUsage,
  resultText,
  type StopReasonInfo,
  type StreamTimings,
  stopReasonInfo,
  streamFigures,
} from './components/answer-info.js';
// Block parts: one component per content block of an answer.
export type { AnswerScopeProps } from './components/answer-scope.js';
// Conversation parts: versions and attachments (styles in conversation.css).
export {
  AttachmentList,
  type AttachmentListProps,
  formatFileSize,
} from './components/attachment-list.js';
export type { AttachmentPreviewProps } from './components/attachment-preview.js';
export type { BranchPickerProps } from './components/branch-picker.js';
export type { CitationIndex, CitedSource } from './components/citation-index.js';
export type { CitationListProps } from './components/citation-list.js';
export type { AnswerSourcesProps } from './components/citations.js';
export type { CodeBlockProps } from './components/code-block.js';
export type {
  BlockRendererProps,
  BlockRenderers,
  ContentBlockViewProps,
} from './components/content-block-view.js';
export type { CopyButtonProps } from './components/copy-button.js';
export { EmptyState, type EmptyStateProps, type Suggestion } from './components/empty-state.js';
export type { FallbackNoteProps } from './components/fallback-note.js';
export type { GenericBlockViewProps } from './components/generic-block-view.js';
export type { JsonViewProps } from './components/json-view.js';
export { JSON_VIEW_LIMITS } from './components/json-view-limits.js';
export { preloadParts } from './components/lazy-part.js';
export type { Feedback, MessageActionsProps } from './components/message-actions.js';
export { type Recovery, recoveryFor } from './components/recovery.js';
export type { RedactedThinkingProps } from './components/redacted-thinking.js';
export type { ResumeControlProps } from './components/resume-control.js';
export { SERVER_TOOL_RESULT_TYPES } from './components/server-tool-result-types.js';
export type { ServerToolResultViewProps } from './components/server-tool-result-view.js';
export type { ServerToolUseViewProps } from './components/server-tool-use-view.js';
export type { StopReasonNoticeProps } from './components/stop-reason-notice.js';
export type { StreamDetailsProps, StreamDownload } from './components/stream-details.js';
export {
  StreamErrorNotice,
  type StreamErrorNoticeProps,
} from './components/stream-error-notice.js';
export type { TextBlockViewProps } from './components/text-block-view.js';
export type { ThinkingBlockViewProps } from './components/thinking-block-view.js';
export type { ToolCallCardProps } from './components/tool-call-card.js';
export type { ToolResultProps } from './components/tool-result.js';
// Helpers the parts use, for custom parts.
export {
  deriveToolStatus,
  sameToolResult,
  TOOL_STATUS_LABELS,
  type ToolCallStatus,
  type ToolResultView,
} from './components/tool-status.js';
export type { UsageBadgeProps } from './components/usage-badge.js';
export type { WebSearchResultsViewProps } from './components/web-search-results-view.js';

// The chat store and hooks.
export {
  ATTACHMENT_ACCEPT,
  type AttachmentsController,
  useAttachments,
} from './hooks/use-attachments.js';
export { type FollowScroll, useFollowScroll } from './hooks/use-follow-scroll.js';
export { type MessageStreamView, useMessageStream } from './hooks/use-message-stream.js';
export type { StreamingMarkdownProps } from './markdown/streaming-markdown.js';
export { isToolResultsTurn, toMessageParams } from './store/conversation.js';
export { type ChatStore, createChatStore } from './store/create-chat-store.js';
export { type ChatAction, type ChatModel, chatReducer } from './store/reducer.js';
/** @deprecated Renamed to `ChatPersistStorage` (zustand exports a `PersistStorage` of its own). */
export type {
  AssistantTurn,
  Attachment,
  AttachmentMediaType,
  BranchInfo,
  ChatActions,
  ChatPersistStorage,
  ChatPersistStorage as PersistStorage,
  ChatState,
  ChatStatus,
  ChatStoreOptions,
  ChatTool,
  ConversationTree,
  EditOptions,
  PersistErrorInfo,
  RequestDefaults,
  SendOptions,
  ToolCall,
  ToolResultState,
  Turn,
  UserTurn,
} from './store/types.js';
