import type { KeyboardEvent, ReactElement } from 'react';
import { useStore } from 'zustand';
import type { ChatStore } from '../store/create-chat-store.js';
import { shownBranch } from '../store/tree.js';
import { cx } from './cx.js';

export interface BranchPickerProps {
  /** The conversation the turn belongs to. */
  store: ChatStore;
  /** A turn with siblings (an edited question, a regenerated answer); any of them will do. */
  turnId: string;
  /** What the versions are called, for the group's name. Default "Version". */
  label?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
}

/**
 * ‹ 2 / 3 ›: switches between the versions of a turn. Renders nothing for a turn without
 * siblings. Two buttons (and ←/→ while focus is inside), named for screen readers; a button
 * at the end of the range stays focusable but does nothing (`aria-disabled`), so focus is
 * never lost.
 */
export function BranchPicker({
  store,
  turnId,
  label = 'Version',
  className,
}: BranchPickerProps): ReactElement | null {
  const index = useStore(store, (state) => shownBranch(state.tree, turnId).index);
  const count = useStore(store, (state) => shownBranch(state.tree, turnId).count);
  if (count < 2) return null;
  const go = (next: number) => {
    if (next >= 0 && next < count) store.getState().selectBranch(turnId, next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'ArrowRight') go(index + 1);
    else return;
    event.preventDefault();
  };
  return (
    <fieldset
      aria-label={`${label} ${index + 1} of ${count}`}
      className={cx('ms-branch-picker', className)}
      onKeyDown={onKeyDown}
    >
      <button
        type="button"
        className="ms-branch-picker__button"
        aria-label={`Previous ${label.toLowerCase()}`}
        aria-disabled={index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span className="ms-branch-picker__count" aria-hidden="true">
        {index + 1} / {count}
      </span>
      <button
        type="button"
        className="ms-branch-picker__button"
        aria-label={`Next ${label.toLowerCase()}`}
        aria-disabled={index === count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </fieldset>
  );
}
