import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react';

/** How close to the bottom still counts as "at the bottom" (sub-pixel rounding, a last line). */
const SLACK_PX = 24;

export interface FollowScroll {
  /** The log follows new content (the user has not scrolled away). */
  readonly following: boolean;
  readonly onScroll: () => void;
  /** Scrolls to the newest content and follows it again. */
  readonly jumpToLatest: () => void;
}

const prefersReducedMotion = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Scrolls to the bottom; returns where that left the position. */
function pinToBottom(element: HTMLElement): number {
  if (element.scrollHeight - element.clientHeight - element.scrollTop > 1) {
    element.scrollTop = element.scrollHeight;
  }
  return element.scrollTop;
}

/**
 * Keeps a scrolling log pinned to its newest content while it grows, and lets go as soon
 * as the user scrolls up to read: following resumes only when they come back to the
 * bottom or ask to jump there.
 *
 * `version` changes whenever content may have grown (a new turn to watch); the log is
 * scrolled before paint, so the reader never sees a frame of content below the fold.
 */
export function useFollowScroll(
  ref: RefObject<HTMLElement | null>,
  version: unknown,
): FollowScroll {
  const [following, setFollowing] = useState(true);
  const followingRef = useRef(true);
  /** A smooth jump is on its way down: its intermediate positions are not the user leaving. */
  const jumping = useRef(false);
  /** scrollTop at the last scroll event: which way the position moved since. */
  const lastTop = useRef(0);

  const setFollow = useCallback((value: boolean) => {
    followingRef.current = value;
    setFollowing(value);
  }, []);

  // Follows growth with a ResizeObserver where there is one: its callback runs after the
  // frame's layout, so reading `scrollHeight` there is free. Reading it in a layout effect
  // forces a second, synchronous layout of the whole log on every commit (the longest task
  // while streaming). jsdom and old engines have no ResizeObserver: they get the effect read.
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef<Element | null>(null);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const resize = new ResizeObserver(() => {
      if (followingRef.current) lastTop.current = pinToBottom(element);
    });
    // The log itself: its viewport changes (window, composer) move the bottom too.
    resize.observe(element);
    observer.current = resize;
    return () => {
      resize.disconnect();
      observer.current = null;
      observed.current = null;
    };
  }, [ref]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    // `version` is what makes this run: new content, maybe a new last turn to watch.
    void version;
    const resize = observer.current;
    if (resize === null) {
      if (followingRef.current) lastTop.current = pinToBottom(element);
      return;
    }
    // The newest turn is what grows; watching it (not every turn) keeps the observer O(1).
    const last = element.lastElementChild;
    if (last === observed.current) return;
    if (observed.current !== null) resize.unobserve(observed.current);
    observed.current = last;
    // Observing delivers a first notification in this frame: a new turn is scrolled to.
    if (last !== null) resize.observe(last);
  }, [ref, version]);

  const onScroll = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const distance = element.scrollHeight - element.clientHeight - element.scrollTop;
    const atBottom = distance <= SLACK_PX;
    // A scroll event is dispatched a frame after the scroll, by when more content may have
    // arrived below it: far from the bottom is the user leaving only if the position moved
    // up. Growth never moves scrollTop, so a fast stream cannot unpin itself.
    const movedUp = element.scrollTop < lastTop.current - 1;
    lastTop.current = element.scrollTop;
    if (jumping.current) {
      if (!atBottom) return;
      jumping.current = false;
    }
    if (atBottom && !followingRef.current) setFollow(true);
    else if (!atBottom && movedUp && followingRef.current) setFollow(false);
  }, [ref, setFollow]);

  const jumpToLatest = useCallback(() => {
    const element = ref.current;
    setFollow(true);
    if (!element) return;
    jumping.current = true;
    if (typeof element.scrollTo === 'function') {
      element.scrollTo({
        top: element.scrollHeight,
        behavior: prefersReducedMotion() ? 'auto' : 'smooth',
      });
    } else {
      element.scrollTop = element.scrollHeight;
    }
  }, [ref, setFollow]);

  return { following, onScroll, jumpToLatest };
}
