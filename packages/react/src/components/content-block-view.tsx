import type { BlockState, Citation } from '@message-stream/core';
import { type ComponentType, memo, type ReactElement, useCallback, useContext } from 'react';
import { isPairedResult, PairedResultsContext } from './answer-scope.js';
import { FallbackNote } from './fallback-note.js';
import { isPlainObject, stringOr } from './format.js';
import { GenericBlockView } from './generic-block-view.js';
import { SERVER_TOOL_RESULT_TYPES } from './server-tool-result-types.js';
import { ServerToolResultView } from './server-tool-result-view.js';
import { ServerToolUseView } from './server-tool-use-view.js';
import { TextBlockView } from './text-block-view.js';
import { ThinkingBlockView } from './thinking-block-view.js';
import { ToolCallCard } from './tool-call-card.js';
import { ToolResult } from './tool-result.js';
import { sameToolResult, type ToolCallStatus, type ToolResultView } from './tool-status.js';
import { WebSearchResultsView } from './web-search-results-view.js';

/** What a custom block renderer receives: the same props as `ContentBlockView`, minus renderers. */
export interface BlockRendererProps {
  /** The block's live state from the stream (`state.message.content[k]`). */
  block: BlockState;
  /** The answer's text has begun: an open thinking block folds away. */
  answerStarted?: boolean | undefined;
  /** The result of this tool call, once the app (or the API) returned one. */
  toolResult?: ToolResultView | undefined;
  /** Overrides the derived status of a tool call (`running`, `awaiting-approval`). */
  toolStatus?: ToolCallStatus | undefined;
}

/**
 * Custom views, tried before the built-in ones. `byToolName` applies to tool calls
 * (`tool_use`, `server_tool_use`, `mcp_tool_use`) by their `name` and wins over `byType`,
 * which is keyed by `block.type` (including types this kit does not know). Keep the object
 * stable (a module constant or `useMemo`): it is a prop of every memoized block view.
 */
export interface BlockRenderers {
  byType?: Record<string, ComponentType<BlockRendererProps>>;
  byToolName?: Record<string, ComponentType<BlockRendererProps>>;
}

export interface ContentBlockViewProps {
  /** The block's live state from the stream (`state.message.content[k]`). */
  block: BlockState;
  /** Custom views per block type and per tool name, tried before the built-in ones. */
  renderers?: BlockRenderers;
  /** The answer after any thinking has started: thinking blocks collapse. */
  answerStarted?: boolean;
  /** The result of this block's tool call, when it is one and the result is known. */
  toolResult?: ToolResultView;
  /** The status of this block's tool call, when the app knows better than the stream (`running`). */
  toolStatus?: ToolCallStatus;
  /** How text blocks render: `markdown` (default) or `plain`; see `TextBlockViewProps.mode`. */
  textMode?: 'markdown' | 'plain';
  /** Math in text blocks (`$…$`, `$$…$$`, KaTeX, loaded on first use); see `TextBlockViewProps.math`. */
  math?: boolean;
  /**
   * Approves a tool call awaiting approval, by its `tool_use` id: pass the store's
   * `approveToolCall`. Keep it stable; the card's Approve button calls it with this block's id.
   */
  onApproveTool?: (toolUseId: string) => void;
  /** Denies a tool call awaiting approval, by id and with the user's reason: the store's `denyToolCall`. */
  onDenyTool?: (toolUseId: string, reason?: string) => void;
}

const TOOL_TYPES: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * One content block, by type: custom renderers first, then the built-in view, then
 * `GenericBlockView` for anything else. Memoized: a block that did not change (the core keeps its
 * object) does not render again when a sibling does. `toolResult` is compared by its content
 * and error flag, not by object, so a caller may rebuild it on each render.
 */
export const ContentBlockView = memo(function ContentBlockView({
  block,
  renderers,
  answerStarted,
  toolResult,
  toolStatus,
  textMode,
  math,
  onApproveTool,
  onDenyTool,
}: ContentBlockViewProps): ReactElement | null {
  const fields = isPlainObject(block.block) ? block.block : undefined;
  const type = stringOr(fields?.type) ?? 'unknown';
  const toolName = TOOL_TYPES.has(type) ? stringOr(fields?.name) : undefined;
  const toolUseId = stringOr(fields?.id);
  const paired = useContext(PairedResultsContext);
  const approve = useCallback(() => {
    if (toolUseId) onApproveTool?.(toolUseId);
  }, [onApproveTool, toolUseId]);
  const deny = useCallback(
    (reason?: string) => {
      if (toolUseId) onDenyTool?.(toolUseId, reason);
    },
    [onDenyTool, toolUseId],
  );

  const Custom =
    (toolName !== undefined ? own(renderers?.byToolName, toolName) : undefined) ??
    own(renderers?.byType, type);
  if (Custom) {
    return (
      <Custom
        block={block}
        answerStarted={answerStarted}
        toolResult={toolResult}
        toolStatus={toolStatus}
      />
    );
  }

  switch (type) {
    case 'text':
      if (typeof fields?.text === 'string') {
        return (
          <TextBlockView
            text={fields.text}
            streaming={block.status === 'streaming'}
            incomplete={block.status === 'incomplete'}
            citations={Array.isArray(fields.citations) ? (fields.citations as Citation[]) : null}
            mode={textMode}
            math={math}
          />
        );
      }
      break;
    case 'thinking':
    case 'redacted_thinking':
      return <ThinkingBlockView block={block} answerStarted={answerStarted} />;
    case 'tool_use':
    case 'mcp_tool_use':
      return (
        <ToolCallCard
          block={block}
          result={toolResult ?? pairedResult(paired, toolUseId)}
          status={toolStatus}
          onApprove={onApproveTool ? approve : undefined}
          onDeny={onDenyTool ? deny : undefined}
        />
      );
    case 'mcp_tool_result':
      // Shown inside its call's card when both are in the same `AnswerScope`.
      if (isPairedResult(block, paired)) return null;
      return <ToolResult result={resultOf(block)} />;
    case 'server_tool_use':
      return <ServerToolUseView block={block} />;
    case 'web_search_tool_result':
      return <WebSearchResultsView block={block} />;
    case 'fallback':
      return <FallbackNote block={block} />;
  }
  if (SERVER_TOOL_RESULT_TYPES.has(type)) return <ServerToolResultView block={block} />;
  return <GenericBlockView block={block} />;
}, sameProps);

function sameProps(a: ContentBlockViewProps, b: ContentBlockViewProps): boolean {
  return (
    a.block === b.block &&
    a.renderers === b.renderers &&
    a.answerStarted === b.answerStarted &&
    a.toolStatus === b.toolStatus &&
    a.textMode === b.textMode &&
    a.math === b.math &&
    a.onApproveTool === b.onApproveTool &&
    a.onDenyTool === b.onDenyTool &&
    sameToolResult(a.toolResult, b.toolResult)
  );
}

/** The result an `mcp_tool_result` block carries, in the shape tool cards show. */
function resultOf(block: BlockState): ToolResultView {
  const fields: Record<string, unknown> = isPlainObject(block.block) ? block.block : {};
  return { content: fields.content, isError: fields.is_error === true };
}

const resultViews = new WeakMap<BlockState, ToolResultView>();

/** The paired result of a call, one view object per result block (so the card stays memoized). */
function pairedResult(
  paired: ReadonlyMap<string, BlockState> | null,
  toolUseId: string | undefined,
): ToolResultView | undefined {
  const block = toolUseId ? paired?.get(toolUseId) : undefined;
  if (!block) return undefined;
  let view = resultViews.get(block);
  if (!view) {
    view = resultOf(block);
    resultViews.set(block, view);
  }
  return view;
}

/** `record[key]` only for the record's own keys: a block type `constructor` is not a renderer. */
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
