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
