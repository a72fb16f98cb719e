/**
 * Everything the stories render, from the package entry as users import it: the built `dist`
 * (run `pnpm build` first), so the stories show exactly what ships.
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
  GenericBlock,
  isToolResultsTurn,
  ResumeControl,
  ServerToolUseBlock,
  StreamError,
  TextBlock,
  ThinkingBlock,
  ToolCallCard,
  type ToolCallStatus,
  type ToolResultView,
  UsageBadge,
  UserMessage,
  WebSearchResultsBlock,
} from '@message-stream/react';
