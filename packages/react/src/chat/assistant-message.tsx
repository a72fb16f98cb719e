import type { BlockState } from '@message-stream/core';
import { memo, type ReactElement } from 'react';
import { type BlockRenderers, ContentBlockView } from '../components/content-block-view.js';
import type { AssistantTurn } from '../store/types.js';

export interface AssistantMessageProps {
  readonly turn: AssistantTurn;
  readonly renderers?: BlockRenderers;
  readonly textMode?: 'markdown' | 'plain';
}

const hasText = (block: BlockState): boolean =>
  block.block.type === 'text' && String((block.block as { text?: unknown }).text ?? '') !== '';

/**
 * One answer. It re-renders when its turn changes, but each block is memoized on its own
 * state object, so a delta to one block re-renders only that block.
 */
export const AssistantMessage = memo(function AssistantMessage({
  turn,
  renderers,
  textMode,
}: AssistantMessageProps): ReactElement {
  const content = turn.stream.message?.content ?? [];
  const answerStarted = content.some(hasText);
  return (
    <article
      className="ms-message ms-message--assistant"
      aria-label="Assistant"
      data-status={turn.stream.status}
    >
      {content.map((block) => {
        const id = (block.block as { id?: unknown }).id;
        const result = typeof id === 'string' ? turn.toolResults[id] : undefined;
        return (
          <ContentBlockView
            key={block.index}
            block={block}
            renderers={renderers}
            answerStarted={answerStarted}
            textMode={textMode}
            toolResult={
              result && result.status !== 'running'
                ? { content: result.content, isError: result.isError === true }
                : undefined
            }
            toolStatus={result?.status === 'running' ? 'running' : undefined}
          />
        );
      })}
      {content.length === 0 && turn.stream.status === 'idle' ? (
        <p className="ms-message__pending">Waiting for the answer…</p>
      ) : null}
    </article>
  );
});
