/**
 * Everything the stories render, from the package entry as users import it (resolved to its
 * source, so an edit shows without a build).
 */
export {
  AssistantMessage,
  type AssistantTurn,
  type BlockRendererProps,
  type BlockRenderers,
  type ChatStore,
  type ChatStoreOptions,
  ChatStream,
  CitationList,
  Composer,
  ContentBlockView,
  CopyButton,
  createChatStore,
  GenericBlockView,
  isToolResultsTurn,
  ResumeControl,
  ServerToolUseView,
  StreamErrorNotice,
  TextBlockView,
  ThinkingBlockView,
  ToolCallCard,
  type ToolCallStatus,
  type ToolResultView,
  UsageBadge,
  UserMessage,
  WebSearchResultsView,
} from '@message-stream/react';
