export { AssistantMessage, type AssistantMessageProps } from './chat/assistant-message.js';
export { ChatStream, type ChatStreamProps } from './chat/chat-stream.js';
export { Composer, type ComposerProps } from './chat/composer.js';
export { type FollowScroll, useFollowScroll } from './chat/use-follow-scroll.js';
export { UserMessage, type UserMessageProps } from './chat/user-message.js';
export {
  type MessageStreamView,
  useMessageStream,
} from './hooks/use-message-stream.js';
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
