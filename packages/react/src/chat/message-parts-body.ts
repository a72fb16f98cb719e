// The chunk `messageParts` loads on demand (message-parts.tsx): everything that draws a message
// and its blocks, with the markdown renderer they use. Nothing in the main entry imports these
// statically.
export { AnswerScope } from '../components/answer-scope.js';
export { AttachmentPreview } from '../components/attachment-preview.js';
export { BranchPicker } from '../components/branch-picker.js';
export { CitationList } from '../components/citation-list.js';
export { AnswerSources } from '../components/citations.js';
export { CodeBlock } from '../components/code-block.js';
export { ContentBlockView } from '../components/content-block-view.js';
export { CopyButton } from '../components/copy-button.js';
export { FallbackNote } from '../components/fallback-note.js';
export { GenericBlockView } from '../components/generic-block-view.js';
export { JsonView } from '../components/json-view.js';
export { MessageActions } from '../components/message-actions.js';
export { RedactedThinking } from '../components/redacted-thinking.js';
export { ResumeControl } from '../components/resume-control.js';
export { ServerToolResultView } from '../components/server-tool-result-view.js';
export { ServerToolUseView } from '../components/server-tool-use-view.js';
export { StopReasonNotice } from '../components/stop-reason-notice.js';
export { StreamDetails } from '../components/stream-details.js';
export { TextBlockView } from '../components/text-block-view.js';
export { ThinkingBlockView } from '../components/thinking-block-view.js';
export { ToolCallCard } from '../components/tool-call-card.js';
export { ToolResult } from '../components/tool-result.js';
export { UsageBadge } from '../components/usage-badge.js';
export { WebSearchResultsView } from '../components/web-search-results-view.js';
export { warmUpMarkdownWhenIdle } from '../markdown/markdown-chunk-view.js';
export { StreamingMarkdown } from '../markdown/streaming-markdown.js';
export { AssistantMessage } from './assistant-message.js';
export { UserMessage } from './user-message.js';
