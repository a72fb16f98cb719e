import { memo, type ReactElement } from 'react';
import { stopReasonInfo } from '../components/answer-info.js';
import type { AnswerScopeProps } from '../components/answer-scope.js';
import type { AttachmentPreviewProps } from '../components/attachment-preview.js';
import type { BranchPickerProps } from '../components/branch-picker.js';
import type { CitationListProps } from '../components/citation-list.js';
import type { AnswerSourcesProps } from '../components/citations.js';
import type { CodeBlockProps } from '../components/code-block.js';
import type { ContentBlockViewProps } from '../components/content-block-view.js';
import type { CopyButtonProps } from '../components/copy-button.js';
import type { FallbackNoteProps } from '../components/fallback-note.js';
import type { GenericBlockViewProps } from '../components/generic-block-view.js';
import type { JsonViewProps } from '../components/json-view.js';
import { lazyParts } from '../components/lazy-part.js';
import type { MessageActionsProps } from '../components/message-actions.js';
import type { RedactedThinkingProps } from '../components/redacted-thinking.js';
import type { ResumeControlProps } from '../components/resume-control.js';
import type { ServerToolResultViewProps } from '../components/server-tool-result-view.js';
import type { ServerToolUseViewProps } from '../components/server-tool-use-view.js';
import type { StopReasonNoticeProps } from '../components/stop-reason-notice.js';
import type { StreamDetailsProps } from '../components/stream-details.js';
import type { TextBlockViewProps } from '../components/text-block-view.js';
import type { ThinkingBlockViewProps } from '../components/thinking-block-view.js';
import type { ToolCallCardProps } from '../components/tool-call-card.js';
import type { ToolResultProps } from '../components/tool-result.js';
import type { UsageBadgeProps } from '../components/usage-badge.js';
import type { WebSearchResultsViewProps } from '../components/web-search-results-view.js';
import type { StreamingMarkdownProps } from '../markdown/streaming-markdown.js';
import type { AssistantMessageProps } from './assistant-message.js';
import { TurnStandIn } from './turn-stand-in.js';
import { blockText } from './turn-text.js';
import type { UserMessageProps } from './user-message.js';

/**
 * Everything that draws a message: the answer and the question, every block view, the footer
 * parts and the markdown renderer with its plugins. One chunk, loaded on demand: the chat asks
 * for it as soon as it has painted, so the shell (the log, the composer, the store) paints
 * first and the chunk is there before the first answer. Until it arrives, a message shows as
 * its text (`TurnStandIn`, the same stand-in as a far part of a long log) and a footer part as
 * nothing; `preloadParts()` loads it ahead (tests, a server render).
 */
export const messageParts = lazyParts(() => import('./message-parts-body.js'));

/** A text's stand-in until the markdown renderer arrives: the source, as plain text. */
const TextStandIn = ({ text }: { readonly text: string }): ReactElement => (
  <p className="ms-message__text ms-chat__stand-in">{text}</p>
);

const nothing = (): null => null;

/**
 * One answer. It re-renders when its turn changes, but each block is memoized on its own
 * state object, so a delta to one block re-renders only that block. Under the content: why it
 * ended (length limit with Continue, refusal, a Stopped / Interrupted mark), its error said
 * once, Resume or Retry, and the action row with usage and stream details.
 */
export const AssistantMessage = memo(
  messageParts.part<AssistantMessageProps>(
    'AssistantMessage',
    (parts) => parts.AssistantMessage,
    ({ turn }) => <TurnStandIn turn={turn} />,
  ),
);

/** What the user wrote, as plain text (never markdown or HTML), with Copy and Edit. */
export const UserMessage = memo(
  messageParts.part<UserMessageProps>(
    'UserMessage',
    (parts) => parts.UserMessage,
    ({ turn }) => <TurnStandIn turn={turn} />,
  ),
);

/**
 * One content block, by type: custom renderers first, then the built-in view, then
 * `GenericBlockView` for anything else. Memoized: a block that did not change (the core keeps its
 * object) does not render again when a sibling does. `toolResult` is compared by its content
 * and error flag, not by object, so a caller may rebuild it on each render.
 */
export const ContentBlockView = memo(
  messageParts.part<ContentBlockViewProps>(
    'ContentBlockView',
    (parts) => parts.ContentBlockView,
    ({ block }) => {
      const text = blockText(block);
      return text === '' ? null : <TextStandIn text={text} />;
    },
  ),
);

/**
 * A text block. Markdown is rendered one top-level block at a time, each a memoized child, so
 * a streaming answer costs one chunk's parse per delta however long it already is.
 */
export const TextBlockView = memo(
  messageParts.part<TextBlockViewProps>(
    'TextBlockView',
    (parts) => parts.TextBlockView,
    ({ text }) => <TextStandIn text={text} />,
  ),
);

/**
 * Markdown rendered per top-level block: each chunk is its own memoized child keyed by its
 * start offset, so a delta re-renders the last chunk and nothing before it.
 */
export const StreamingMarkdown = messageParts.part<StreamingMarkdownProps>(
  'StreamingMarkdown',
  (parts) => parts.StreamingMarkdown,
  ({ text }) => <TextStandIn text={text} />,
);

/**
 * The model's reasoning: a disclosure for `thinking` blocks, a short note for
 * `redacted_thinking` ones (their content is encrypted; there is nothing to show).
 */
export const ThinkingBlockView = messageParts.part<ThinkingBlockViewProps>(
  'ThinkingBlockView',
  (parts) => parts.ThinkingBlockView,
  nothing,
);

/**
 * Stands for a `redacted_thinking` block: the provider encrypted that part of the reasoning.
 * Saying so (rather than showing nothing) explains a gap the reader might otherwise wonder about.
 */
export const RedactedThinking = messageParts.part<RedactedThinkingProps>(
  'RedactedThinking',
  (parts) => parts.RedactedThinking,
  nothing,
);

/**
 * A tool call as a compact row (status icon, tool name, a one-line summary of its input) that
 * opens to the full card: the call's id, the input as formatted JSON with colours or the raw
 * text received, Copy, the JSON error if the input is malformed, and the result once known. A
 * call awaiting approval shows Approve and Deny (with an optional reason) beside its input.
 *
 * A large input (a 1 MB file) costs one bounded frame per delta: the row reads only what its
 * summary shows, and the open card draws the first part of the value (see `JsonView`).
 */
export const ToolCallCard = messageParts.part<ToolCallCardProps>(
  'ToolCallCard',
  (parts) => parts.ToolCallCard,
  nothing,
);

/**
 * A tool's result as text: a string as it is, an array of content blocks as their text (other
 * blocks, such as images, as a placeholder naming their type), anything else as JSON. Never
 * rendered as HTML or markdown: tool output is data.
 */
export const ToolResult = messageParts.part<ToolResultProps>(
  'ToolResult',
  (parts) => parts.ToolResult,
  nothing,
);

/**
 * Any block this kit has no view for: a collapsed card naming its type, which opens to the
 * block's JSON (and any deltas it could not apply). Nothing is hidden for good and nothing
 * crashes, whatever the block's shape.
 */
export const GenericBlockView = messageParts.part<GenericBlockViewProps>(
  'GenericBlockView',
  (parts) => parts.GenericBlockView,
  nothing,
);

/**
 * A server-side fallback, where it happened in the answer: a quiet line naming the model
 * that answers from here on (and the one it replaced), not a block of JSON.
 */
export const FallbackNote = messageParts.part<FallbackNoteProps>(
  'FallbackNote',
  (parts) => parts.FallbackNote,
  nothing,
);

/**
 * Wraps the blocks of one answer so that they work as one: citation markers are numbered the
 * same across all its text blocks (and match `<AnswerSources/>`, which lists them once), and an
 * `mcp_tool_use` shows the `mcp_tool_result` that answers it inside its card, instead of as a
 * block of its own. Without a scope every text block numbers and lists its own sources.
 *
 * Cheap on every delta: the context values are rebuilt only when a citation list or a result
 * block changes, so text blocks stay memoized while the answer streams.
 */
export const AnswerScope = messageParts.part<AnswerScopeProps>(
  'AnswerScope',
  (parts) => parts.AnswerScope,
  ({ children }) => <>{children}</>,
);

/**
 * The sources of one answer, listed once, numbered like the answer's citation markers. Place it
 * inside `<AnswerScope>`, after the blocks; it renders nothing when the answer cites nothing.
 */
export const AnswerSources = messageParts.part<AnswerSourcesProps>(
  'AnswerSources',
  (parts) => parts.AnswerSources,
  nothing,
);

/**
 * The sources of one text block, numbered in order of first citation: a link per source (only
 * http/https/mailto, opened in a new tab without an opener) and each passage cited from it as a
 * quote. Citation types differ (web search results, document locations, search results); each
 * shows whatever title and URL it has. For a whole answer, use `AnswerScope` and
 * `AnswerSources`, which list every block's sources once.
 */
export const CitationList = messageParts.part<CitationListProps>(
  'CitationList',
  (parts) => parts.CitationList,
  nothing,
);

/**
 * The row under a message: Copy, Regenerate (answers), Edit (user messages), optional
 * thumbs up / down, and whatever the app adds. Icon buttons, each with its own name; the copy
 * outcome is announced through a polite status.
 */
export const MessageActions = messageParts.part<MessageActionsProps>(
  'MessageActions',
  (parts) => parts.MessageActions,
  nothing,
);

/**
 * ‹ 2 / 3 ›: switches between the versions of a turn. Renders nothing for a turn without
 * siblings. Two buttons (and ←/→ while focus is inside), named for screen readers; a button
 * at the end of the range stays focusable but does nothing (`aria-disabled`), so focus is
 * never lost.
 */
export const BranchPicker = messageParts.part<BranchPickerProps>(
  'BranchPicker',
  (parts) => parts.BranchPicker,
  nothing,
);

/**
 * The end of an answer made visible: "The answer reached the length limit" with Continue, a
 * refusal notice, a quiet note for a stop sequence or a full context window, and a lasting
 * "Stopped" / "Interrupted" tag on an answer that did not finish. Until its code arrives, the
 * same sentence without the button.
 */
export const StopReasonNotice = messageParts.part<StopReasonNoticeProps>(
  'StopReasonNotice',
  (parts) => parts.StopReasonNotice,
  ({ stream }) => {
    const info = stopReasonInfo(stream);
    return info === null ? null : <p className="ms-stop">{info.text}</p>;
  },
);

/**
 * Token usage in a line: "1,234 in · 567 out · 89 cached". Input and output show whenever the
 * usage has them; cache reads and writes only when non-zero. Screen readers hear the words in
 * full ("1,234 input tokens"), not the abbreviations and separators.
 */
export const UsageBadge = messageParts.part<UsageBadgeProps>(
  'UsageBadge',
  (parts) => parts.UsageBadge,
  nothing,
);

/**
 * An ⓘ button that opens a popover with an answer's figures: input, output and cache tokens,
 * time to first token and tokens per second, the stop reason and the message id; with
 * recording on, its raw stream as an `.sse` file. A native popover: Escape and a click outside
 * close it, and it sits in the top layer, so no scrolling container clips it.
 */
export const StreamDetails = messageParts.part<StreamDetailsProps>(
  'StreamDetails',
  (parts) => parts.StreamDetails,
  nothing,
);

/**
 * A code block: the language, Copy (the exact code) and optional Download in a header, and the
 * code with syntax colours in light and dark themes. Highlighting never uses HTML strings: every
 * token is a `<span>` made with the DOM's own methods. Long lines scroll inside the block; the
 * block never widens the page.
 * The highlighter (Shiki, a grammar, the themes) loads only when a block shows code of a known
 * language; until then, and until this part's code arrives, the code shows plain.
 */
export const CodeBlock = messageParts.part<CodeBlockProps>(
  'CodeBlock',
  (parts) => parts.CodeBlock,
  ({ code }) => (
    <pre className="ms-code">
      <code>{code}</code>
    </pre>
  ),
);

/**
 * Copies text with the Clipboard API. The outcome ("Copied", or "Copy failed" where the API is
 * missing or refused) is announced through a polite status region that is always in the DOM,
 * so screen readers hear it, then cleared after two seconds.
 */
export const CopyButton = messageParts.part<CopyButtonProps>(
  'CopyButton',
  (parts) => parts.CopyButton,
  nothing,
);

/**
 * A server tool call, in a line. For `web_search`, the query as the model writes it
 * ("Searching the web for “weather NYC today”"); for other server tools, their name and input.
 * The result arrives as a separate block (e.g. `web_search_tool_result`).
 */
export const ServerToolUseView = messageParts.part<ServerToolUseViewProps>(
  'ServerToolUseView',
  (parts) => parts.ServerToolUseView,
  nothing,
);

/**
 * The results of a web search: a link per result with its host and age. Titles and URLs come
 * from the web, so they are text only, and a URL that is not http/https gets no link. An error
 * result says so ("Search failed: max_uses_exceeded").
 */
export const WebSearchResultsView = messageParts.part<WebSearchResultsViewProps>(
  'WebSearchResultsView',
  (parts) => parts.WebSearchResultsView,
  nothing,
);

/**
 * Resume or Retry for an answer that stopped early: after an interruption, a stop by the user,
 * or an error that trying again can fix. Resume shows only when part of the answer arrived
 * (`recoveryFor`); otherwise Retry. A rate limit with `retry-after` shows the wait and retries
 * by itself when it ends. Renders nothing for an answer that needs neither.
 */
export const ResumeControl = messageParts.part<ResumeControlProps>(
  'ResumeControl',
  (parts) => parts.ResumeControl,
  nothing,
);

/**
 * JSON, readable: indented, keys, strings, numbers and literals in their own colours, a string
 * with line breaks (a file's content) shown on real lines, and a Raw view of the exact text.
 * Copy gives valid JSON. Only the first `JSON_VIEW_LIMITS` of a large value are drawn while it
 * streams; once complete, "Show all" draws the rest. Until its code arrives, an empty group of
 * the same name holds its place.
 */
export const JsonView = messageParts.part<JsonViewProps>(
  'JsonView',
  (parts) => parts.JsonView,
  ({ label }) => (
    // biome-ignore lint/a11y/useSemanticElements: a named group standing in for the view, not a form's fieldset.
    <div role="group" aria-label={label} className="ms-json" />
  ),
);

/**
 * A readable default for the documented server tool results (`SERVER_TOOL_RESULT_TYPES`): a
 * fetched page as its title, link and the start of its text; a program run as its exit code,
 * stdout and stderr; a file view as its lines. All of it is text.
 */
export const ServerToolResultView = messageParts.part<ServerToolResultViewProps>(
  'ServerToolResultView',
  (parts) => parts.ServerToolResultView,
  nothing,
);

/**
 * A file, larger, in a modal dialog: an image whole, a text file's text, a PDF with Open in a
 * new tab, and Download for each. Escape or Close shuts it; focus goes back to the opener. A
 * sent message's files open in it (`AttachmentList`'s `onOpen`).
 */
export const AttachmentPreview = messageParts.part<AttachmentPreviewProps>(
  'AttachmentPreview',
  (parts) => parts.AttachmentPreview,
  nothing,
);
