import type { BlockState } from '@message-stream/core';
import { memo, type ReactElement } from 'react';
import { RedactedThinking } from './redacted-thinking.js';
import { ThinkingDisclosure } from './thinking-disclosure.js';

export interface ThinkingBlockViewProps {
  /** A `thinking` or `redacted_thinking` block. */
  block: BlockState;
  /**
   * The answer after the thinking has started arriving. On that change an open thinking block
   * collapses by itself, out of the reader's way, unless the reader opened or closed it.
   */
  answerStarted?: boolean;
  /**
   * Whether the block starts open. By default it is open while it streams (a live tail of the
   * reasoning) and closed when mounted already finished, e.g. a restored conversation.
   */
  defaultOpen?: boolean;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * The model's reasoning: a disclosure for `thinking` blocks, a short note for
 * `redacted_thinking` ones (their content is encrypted; there is nothing to show).
 */
export const ThinkingBlockView = memo(function ThinkingBlockView({
  block,
  answerStarted = false,
  defaultOpen,
  className,
}: ThinkingBlockViewProps): ReactElement {
  if (block.block?.type === 'redacted_thinking') return <RedactedThinking className={className} />;
  return (
    <ThinkingDisclosure
      block={block}
      answerStarted={answerStarted}
      defaultOpen={defaultOpen}
      className={className}
    />
  );
});
