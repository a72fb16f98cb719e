import { type KeyboardEvent, type ReactElement, useLayoutEffect, useRef } from 'react';
import { useStore } from 'zustand';
import type { ChatStore } from '../store/create-chat-store.js';
import { parentOf, shownBranch } from '../store/tree.js';
import { cx } from './cx.js';

/**
 * The picker that switched versions, to be focused again once the new version shows: the
 * version shown is another turn, whose message (and picker) is a new element, so the button
 * that had focus is gone. Taken by the next picker of the same versions that mounts.
 */
let refocus: { store: ChatStore; parent: string; button: 'previous' | 'next' } | null = null;

/**
 * Keeps the picker pressed where it is on screen through the switch: the reader chose what to
 * read there. A log that follows its bottom (ChatStream's) pins a longer version's end into
 * view from a ResizeObserver; one made now is called after it, in the same frame and before
 * paint, puts the position back and tells the log (a scroll event), which stops following.
 */
function keepInPlace(button: HTMLElement): void {
  const log = button.closest('[role="log"]');
  if (!log || typeof ResizeObserver === 'undefined') return;
  const top = button.getBoundingClientRect().top;
  // Observing gives a first call at once, after the log's own observer's.
  const watch = new ResizeObserver(() => {
    watch.disconnect();
    // The version's own picker has taken focus (below), or this one kept it.
    const shown = document.activeElement;
    if (shown && log.contains(shown)) log.scrollTop += shown.getBoundingClientRect().top - top;
    // Told at once: put back where it was, the position may not have moved since the last
    // frame, and then no scroll event comes (the log went on following, or offered a jump to
    // where it already was).
    log.dispatchEvent(new Event('scroll'));
  });
  watch.observe(log);
}

/** Leaves focus for the next picker of these versions to take, for a second at most. */
function handOff(store: ChatStore, turnId: string, button: 'previous' | 'next'): void {
  const parent = parentOf(store.getState().tree, turnId);
  const request = parent === undefined ? null : { store, parent, button };
  refocus = request;
  // Not taken (this picker stayed, and its focus with it): not left for a later one.
  setTimeout(() => {
    if (refocus === request) refocus = null;
  }, 1000);
}

export interface BranchPickerProps {
  /** The conversation the turn belongs to. */
  store: ChatStore;
  /** A turn with siblings (an edited question, a regenerated answer); any of them will do. */
  turnId: string;
  /** What the versions are called, for the group's name. Default "Version". */
  label?: string;
  /** Extra class names on the root element, for your own styles. */
  className?: string;
  /**
   * A request is under way: the buttons do nothing (`aria-disabled`). Another version would
   * hide the answer under way, and a message sent from it would stop that one unseen.
   */
  busy?: boolean;
}

/**
 * ‹ 2 / 3 ›: switches between the versions of a turn. Renders nothing for a turn without
 * siblings. Two buttons (and ←/→ while focus is inside), named for screen readers; a button
 * at the end of the range stays focusable but does nothing (`aria-disabled`), and the version
 * shown next (another message, another picker) takes focus on the same button, so focus is
 * never lost.
 */
export function BranchPicker({
  store,
  turnId,
  label = 'Version',
  className,
  busy = false,
}: BranchPickerProps): ReactElement | null {
  const index = useStore(store, (state) => shownBranch(state.tree, turnId).index);
  const count = useStore(store, (state) => shownBranch(state.tree, turnId).count);
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (refocus !== null && refocus.store === store) {
      if (refocus.parent === parentOf(store.getState().tree, turnId)) {
        const button = refocus.button === 'previous' ? previous.current : next.current;
        refocus = null;
        button?.focus();
      }
    }
    // Gone with focus on it (the answer went on past its tools: the part after them shows
    // these versions' picker now), it hands focus on rather than drop it to the page.
    // (A switch made here has said already which button goes on.)
    return () => {
      const active = document.activeElement;
      if (refocus !== null || active === null) return;
      if (active === previous.current) handOff(store, turnId, 'previous');
      else if (active === next.current) handOff(store, turnId, 'next');
    };
  }, [store, turnId]);
  if (count < 2) return null;
  const go = (to: number) => {
    if (busy || to < 0 || to >= count) return;
    handOff(store, turnId, to < index ? 'previous' : 'next');
    if (previous.current) keepInPlace(previous.current);
    store.getState().selectBranch(turnId, to);
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
        ref={previous}
        type="button"
        className="ms-branch-picker__button"
        aria-label={`Previous ${label.toLowerCase()}`}
        aria-disabled={busy || index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span className="ms-branch-picker__count" aria-hidden="true">
        {index + 1} / {count}
      </span>
      <button
        ref={next}
        type="button"
        className="ms-branch-picker__button"
        aria-label={`Next ${label.toLowerCase()}`}
        aria-disabled={busy || index === count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </fieldset>
  );
}
