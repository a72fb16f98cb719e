export { AssistantMessage, type AssistantMessageProps } from './chat/assistant-message.js';
export { ChatStream, type ChatStreamProps } from './chat/chat-stream.js';
export { Composer, type ComposerProps } from './chat/composer.js';
export { type FollowScroll, useFollowScroll } from './chat/use-follow-scroll.js';
export { UserMessage, type UserMessageProps } from './chat/user-message.js';
export { CitationList, type CitationListProps } from './components/CitationList.js';
export {
  type BlockRendererProps,
  type BlockRenderers,
  ContentBlockView,
  type ContentBlockViewProps,
} from './components/ContentBlockView.js';
export { CopyButton, type CopyButtonProps } from './components/CopyButton.js';
export { GenericBlock, type GenericBlockProps } from './components/GenericBlock.js';
export { RedactedThinking, type RedactedThinkingProps } from './components/RedactedThinking.js';
export { canRecover, ResumeControl, type ResumeControlProps } from './components/ResumeControl.js';
export {
  ServerToolUseBlock,
  type ServerToolUseBlockProps,
} from './components/ServerToolUseBlock.js';
export { StreamError, type StreamErrorProps } from './components/StreamError.js';
export { TextBlock, type TextBlockProps } from './components/TextBlock.js';
export { ThinkingBlock, type ThinkingBlockProps } from './components/ThinkingBlock.js';
export { ToolCallCard, type ToolCallCardProps } from './components/ToolCallCard.js';
export { resultText, ToolResult, type ToolResultProps } from './components/ToolResult.js';
export {
  deriveToolStatus,
  sameToolResult,
  TOOL_STATUS_LABELS,
  type ToolCallStatus,
  type ToolResultView,
} from './components/toolStatus.js';
export { UsageBadge, type UsageBadgeProps } from './components/UsageBadge.js';
export {
  WebSearchResultsBlock,
  type WebSearchResultsBlockProps,
} from './components/WebSearchResultsBlock.js';
export {
  type MessageStreamView,
  useMessageStream,
} from './hooks/use-message-stream.js';
export { StreamingMarkdown } from './markdown/StreamingMarkdown.js';
export {
  type MarkdownChunk,
  type MarkdownSplit,
  splitMarkdown,
} from './markdown/split.js';
export { repairStreamingTail } from './markdown/tail.js';
export { hostnameOf, markdownUrlTransform, safeHref } from './markdown/url.js';
export { isToolResultsTurn, toMessageParams } from './store/conversation.js';
export { type ChatStore, createChatStore } from './store/create-chat-store.js';
export type {
  AssistantTurn,
  ChatActions,
  ChatState,
  ChatStatus,
  ChatStoreOptions,
  PersistStorage,
  RequestDefaults,
  ToolCall,
  ToolResultState,
  Turn,
  UserTurn,
} from './store/types.js';
