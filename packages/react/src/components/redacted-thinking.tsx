import type { ReactElement } from 'react';
import { cx } from './cx.js';

export interface RedactedThinkingProps {
  /** Extra class names on the root element, for your own styles. */
  className?: string | undefined;
}

/**
 * Stands for a `redacted_thinking` block: the provider encrypted that part of the reasoning.
 * Saying so (rather than showing nothing) explains a gap the reader might otherwise wonder about.
 */
export function RedactedThinking({ className }: RedactedThinkingProps): ReactElement {
  return (
    <p className={cx('ms-thinking', 'ms-thinking--redacted', className)}>
      Some reasoning was redacted by the model provider.
    </p>
  );
}
