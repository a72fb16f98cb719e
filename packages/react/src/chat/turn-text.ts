import type { BlockState } from '@message-stream/core';
import type { AssistantTurn, UserTurn } from '../store/types.js';

/** What the user wrote: the text blocks, as one string (attachments apart). */
export const userText = (turn: UserTurn): string =>
  typeof turn.content === 'string'
    ? turn.content
    : turn.content
        .map((block) =>
          block.type === 'text' ? String((block as { text?: unknown }).text ?? '') : '',
        )
        .filter(Boolean)
        .join('\n');

/** A block's text, or '' for any block that is not text. */
export const blockText = (block: BlockState): string =>
  block.block.type === 'text' ? String((block.block as { text?: unknown }).text ?? '') : '';

/** The answer's markdown: its text blocks, as the model wrote them. */
export const answerMarkdown = (turn: AssistantTurn): string =>
  (turn.stream.message?.content ?? []).map(blockText).filter(Boolean).join('\n\n');
