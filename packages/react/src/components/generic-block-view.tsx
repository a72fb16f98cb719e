import type { BlockState } from '@message-stream/core';
import { memo, type ReactElement } from 'react';
import { useDisclosure } from '../hooks/use-disclosure.js';
import { cx } from './cx.js';
import { isPlainObject, stringOr, toJson } from './format.js';
import { ScrollablePre } from './scrollable.js';

export interface GenericBlockViewProps {
  /** A block of a type no renderer knows (a newer API, a beta feature). */
  block: BlockState;
  /** Whether the JSON starts shown; closed by default. */
  defaultOpen?: boolean;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * Any block this kit has no view for: a collapsed card naming its type, which opens to the
 * block's JSON (and any deltas it could not apply). Nothing is hidden for good and nothing
 * crashes, whatever the block's shape.
 */
export const GenericBlockView = memo(function GenericBlockView({
  block,
  defaultOpen = false,
  className,
}: GenericBlockViewProps): ReactElement {
  const disclosure = useDisclosure(defaultOpen);
  const type = (isPlainObject(block.block) && stringOr(block.block.type)) || 'unknown';
  const status = block.status;
  const deltas = Array.isArray(block.otherDeltas) && block.otherDeltas.length > 0;
  return (
    <div className={cx('ms-generic', `ms-generic--${String(status)}`, className)}>
      <button type="button" className="ms-generic__toggle" {...disclosure.buttonProps}>
        <span className="ms-generic__icon" aria-hidden="true" />
        <span className="ms-generic__type">{type}</span>
        {status === 'streaming' ? ' (streaming)' : status === 'incomplete' ? ' (incomplete)' : ''}
      </button>
      <div className="ms-generic__panel" {...disclosure.panelProps}>
        <ScrollablePre className="ms-generic__json">{toJson(block.block)}</ScrollablePre>
        {deltas ? (
          <>
            <p className="ms-generic__label">Deltas not applied</p>
            <ScrollablePre className="ms-generic__json">{toJson(block.otherDeltas)}</ScrollablePre>
          </>
        ) : null}
      </div>
    </div>
  );
});
