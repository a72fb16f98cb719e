import type { BlockState } from '@message-stream/core';
import type { ReactElement } from 'react';
import { cx } from './cx.js';
import { isPlainObject, stringOr } from './format.js';

export interface FallbackNoteProps {
  /** A `fallback` block: where the service switched models mid-answer. */
  block: BlockState;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

const modelOf = (side: unknown): string | undefined =>
  isPlainObject(side) ? stringOr(side.model) : undefined;

/**
 * A server-side fallback, where it happened in the answer: a quiet line naming the model
 * that answers from here on (and the one it replaced), not a block of JSON.
 */
export function FallbackNote({ block, className }: FallbackNoteProps): ReactElement {
  const wire: Record<string, unknown> = isPlainObject(block.block) ? block.block : {};
  const to = modelOf(wire.to);
  const from = modelOf(wire.from);
  return (
    <p className={cx('ms-stop', 'ms-stop--note', 'ms-fallback', className)} data-block="fallback">
      {to ? `Continued by ${to}` : 'Continued by another model'}
      {from ? ` (switched from ${from})` : ''}
    </p>
  );
}
