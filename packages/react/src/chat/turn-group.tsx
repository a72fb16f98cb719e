import {
  memo,
  type ReactElement,
  type ReactNode,
  startTransition,
  useEffect,
  useRef,
  useState,
} from 'react';
import { isToolResultsTurn } from '../store/conversation.js';
import type { Turn } from '../store/types.js';
import { standInText, TurnStandIn } from './turn-stand-in.js';

/**
 * Turns per group in the log. A group is the unit the log contains and windows: every group
 * but the newest skips layout and paint while off screen (`content-visibility`, styles.css),
 * and a group far from the viewport is not mounted at all (its turns' text stands in for them,
 * see `TurnGroup`). Small enough that mounting one as it scrolls into view fits in a frame,
 * large enough that a thread of 1,000 questions and answers is 250 boxes, not 2,000. A turn stays in its group
 * for good (groups are by index), so nothing is re-parented as the thread grows.
 */
export const TURNS_PER_GROUP = 8;

/** Groups rendered in full on first render (the newest ones: a restored thread opens at its end). */
export const EAGER_GROUPS = 2;

/**
 * A thread of more groups than this lets its far groups go (their text stands in, see
 * `TurnGroup`). A shorter one keeps every group mounted, content-visibility still skipping
 * what is off screen: a few dozen turns are cheap to keep, and then the keyboard and a screen
 * reader reach every message as it is (its headings, links, tool cards and actions), not as
 * its markdown source. Windowing is for the threads whose size needs it (load time at
 * hundreds of turns).
 */
export const WINDOW_FROM_GROUPS = 8;

/**
 * `turns` cut into groups of `TURNS_PER_GROUP`, by index. A group whose turns are the ones of
 * `previous`'s group there is that same array, so a frame of a streaming answer allocates
 * only the newest group and every other group's props compare by identity.
 */
export function groupTurns(
  turns: readonly Turn[],
  previous: readonly (readonly Turn[])[] = [],
): (readonly Turn[])[] {
  const groups: (readonly Turn[])[] = [];
  for (let start = 0, g = 0; start < turns.length; start += TURNS_PER_GROUP, g++) {
    const end = Math.min(start + TURNS_PER_GROUP, turns.length);
    const old = previous[g];
    groups.push(old !== undefined && holds(old, turns, start, end) ? old : turns.slice(start, end));
  }
  return groups;
}

/** Whether `group` is exactly `turns[start, end)`. */
function holds(group: readonly Turn[], turns: readonly Turn[], start: number, end: number) {
  if (group.length !== end - start) return false;
  for (let i = start; i < end; i++) if (group[i - start] !== turns[i]) return false;
  return true;
}

const sameTurns = (a: readonly Turn[], b: readonly Turn[]): boolean =>
  a === b || (a.length === b.length && a.every((turn, i) => turn === b[i]));

/**
 * Estimates by turn object: turns are immutable and kept while unchanged, and a send or a
 * finish re-renders every group, which would otherwise read every turn's text again.
 */
const estimates = new WeakMap<Turn, number>();

/** Rough rendered height of a turn from its text (px), until the browser has measured it. */
function estimateHeight(turn: Turn): number {
  let height = estimates.get(turn);
  if (height === undefined) {
    height = measureText(turn);
    estimates.set(turn, height);
  }
  return height;
}

function measureText(turn: Turn): number {
  if (isToolResultsTurn(turn)) return 0;
  const text = standInText(turn);
  // Lines found by index, not by split: no string per line (2,000 turns at a thread's load).
  let lines = 0;
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    lines += 1 + Math.floor(((end === -1 ? text.length : end) - start) / 80);
    if (end === -1) break;
    start = end + 1;
  }
  // Line height, and the message's padding, gap and action row.
  return Math.round(lines * 22 + (turn.role === 'user' ? 90 : 70));
}

/** A group's size before it was ever laid out: `auto` keeps the measured one after that. */
const estimateGroupHeight = (turns: readonly Turn[]): number =>
  turns.reduce((sum, turn) => sum + estimateHeight(turn), 0);

/** Shown instead of a group's turns while it is far from the viewport: their stand-ins. */
const StandIns = memo(
  function StandIns({ turns }: { readonly turns: readonly Turn[] }): ReactElement {
    return (
      <>
        {turns.map((turn) =>
          isToolResultsTurn(turn) ? null : <TurnStandIn key={turn.id} turn={turn} />,
        )}
      </>
    );
  },
  (a, b) => sameTurns(a.turns, b.turns),
);

const canWindow = (): boolean =>
  typeof window !== 'undefined' && typeof IntersectionObserver === 'function';

type Listener = (near: boolean) => void;

/**
 * Scrolling faster than this (px per ms: ~500 px a frame) is a fling or a drag through the
 * thread: groups that come near meanwhile wait (their text stands in) until it slows down,
 * instead of mounting and unmounting a group every few frames on the way (the frames a
 * fast scroll would drop). A reader's wheel or keys scroll far slower than this.
 */
const FAST_PX_PER_MS = 30;
/**
 * A move this long between two scroll events of one motion is a fling too, however long the
 * frame took: on a busy machine frames come late and the speed looks low, yet every group
 * still passes by in a frame or two.
 */
const FAST_PX_PER_EVENT = 500;
/** Scroll events further apart than this are not one motion. */
const ONE_MOTION_MS = 250;
/** How long after the last fast scroll event the scrolling counts as settled. */
const SETTLE_MS = 120;

/** Groups that came near while the scrolling was fast: mounted once it settles. */
const waiting = new Map<Element, () => void>();
let fastUntil = 0;
/** The last scroll event: where, when, and whether it was a long move (its direction, or 0). */
let last: { target: Element | null; top: number; time: number; long: number } = {
  target: null,
  top: 0,
  time: 0,
  long: 0,
};
let flushTimer: ReturnType<typeof setTimeout> | undefined;

function flushWaiting(): void {
  flushTimer = undefined;
  const rest = fastUntil - performance.now();
  if (rest > 0) {
    flushTimer = setTimeout(flushWaiting, rest);
    return;
  }
  const mounts = [...waiting.values()];
  waiting.clear();
  for (const mount of mounts) mount();
}

/** Any scroll on the page (capture phase): how fast its element's position moved. */
function onScroll(event: Event): void {
  const target = event.target instanceof Element ? event.target : document.scrollingElement;
  if (target === null) return;
  const time = performance.now();
  const top = target.scrollTop;
  // Scroll events come once a frame at most; a first one after a pause measures nothing
  // (a single jump, Home or a click on "Jump to latest", is not a fling).
  const gap = time - last.time;
  const same = last.target === target;
  const inMotion = same && gap < ONE_MOTION_MS;
  const delta = same ? top - last.top : 0;
  const long = Math.abs(delta) > FAST_PX_PER_EVENT ? Math.sign(delta) : 0;
  const fast =
    (inMotion && gap < 100 && Math.abs(delta) / Math.max(1, gap) > FAST_PX_PER_MS) ||
    // Long moves in a row the same way, not one: a jump soon after a small scroll, or back
    // the other way, is still a jump.
    (inMotion && long !== 0 && long === last.long);
  // Settled means no fast event for a while, measured in this motion's own frames.
  if (fast) fastUntil = time + Math.max(SETTLE_MS, 2 * gap);
  last = { target, top, time, long };
}

/** Mounts now, or once the scrolling settles if it is fast. */
function mountWhenSettled(element: Element, mount: () => void): void {
  if (performance.now() >= fastUntil) {
    mount();
    return;
  }
  waiting.set(element, mount);
  if (flushTimer === undefined)
    flushTimer = setTimeout(flushWaiting, fastUntil - performance.now());
}

/**
 * One observer for every group of every log on the page: a group mounts once it is within
 * two screens of the viewport (before the reader gets there) and unmounts past that. One
 * observer, not a "near" and a "far" one: the browser computes each observer's intersections
 * for each of its targets on every frame that scrolls: 250 in a thread of 1,000 answers.
 */
let watcher: { observer: IntersectionObserver; listeners: Map<Element, Listener> } | null = null;

function observe(element: Element, listener: Listener): () => void {
  if (watcher === null) {
    const listeners = new Map<Element, Listener>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
      },
      // The viewport, not the log: a log fills most of it, and a root per log would need an
      // observer per log. Vertical margins in % are of the viewport's height.
      { rootMargin: '200% 0px' },
    );
    document.addEventListener('scroll', onScroll, { capture: true, passive: true });
    watcher = { observer, listeners };
  }
  const { observer, listeners } = watcher;
  listeners.set(element, listener);
  observer.observe(element);
  return () => {
    listeners.delete(element);
    waiting.delete(element);
    observer.unobserve(element);
  };
}

export interface TurnGroupProps {
  /** The group's turns, from the store. */
  readonly turns: readonly Turn[];
  /** The newest group: always mounted, never skipped (an answer may be streaming in it). */
  readonly live: boolean;
  /** Mounted on first render, before any observer has reported (the groups at the end). */
  readonly eager: boolean;
  /**
   * The thread is long enough to window (`WINDOW_FROM_GROUPS`): far from the viewport the
   * group gives way to its turns' text. Otherwise it mounts and stays mounted.
   */
  readonly windowed: boolean;
  /** Renders one turn (stable while nothing but the turns changed, so groups can bail out). */
  readonly renderTurn: (turn: Turn, index: number) => ReactNode;
  /** Index of the group's first turn in the thread. */
  readonly start: number;
}

/**
 * One group of the log. Off screen it costs neither layout nor paint (content-visibility); far
 * off screen it is not mounted: its turns' text stands in (`StandIns`) at the size the group
 * was last laid out at (`contain-intrinsic-size: auto`, an estimate from the text before
 * that), so the scrollbar does not jump and browsers' scroll anchoring keeps the reader's
 * place when a group above them mounts. A group holding the focus stays mounted. In a thread
 * too short to window (`windowed` false), and without IntersectionObserver (jsdom, old
 * engines), every group mounts right after the first render.
 */
export const TurnGroup = memo(
  function TurnGroup({
    turns,
    live,
    eager,
    windowed,
    renderTurn,
    start,
  }: TurnGroupProps): ReactElement {
    const ref = useRef<HTMLDivElement>(null);
    // The same first render on the server and in the browser (so hydration matches): the
    // newest groups, and the others' stand-ins.
    const [mounted, setMounted] = useState(live || eager);
    const show = mounted || live;

    useEffect(() => {
      const element = ref.current;
      if (live || element === null) return;
      // A short thread, or nothing will say when the group is near: mount it now.
      if (!windowed || !canWindow()) {
        setMounted(true);
        return;
      }
      // A transition: React renders the group's turns in slices between frames, so scrolling
      // keeps its frame rate and sees the stand-in text for a moment instead.
      const mount = () => startTransition(() => setMounted(true));
      return observe(element, (near) => {
        if (near) {
          mountWhenSettled(element, mount);
          return;
        }
        waiting.delete(element);
        // Keep what the keyboard is in (an edit being written, a menu): unmounting would
        // drop the focus to the page.
        if (!element.contains(document.activeElement)) setMounted(false);
      });
    }, [live, windowed]);

    return (
      <div
        ref={ref}
        className="ms-chat__turns"
        data-windowed={show ? undefined : ''}
        style={live ? undefined : { containIntrinsicSize: `auto ${estimateGroupHeight(turns)}px` }}
      >
        {show ? turns.map((turn, j) => renderTurn(turn, start + j)) : <StandIns turns={turns} />}
      </div>
    );
  },
  (a, b) =>
    a.live === b.live &&
    a.eager === b.eager &&
    a.windowed === b.windowed &&
    a.start === b.start &&
    a.renderTurn === b.renderTurn &&
    sameTurns(a.turns, b.turns),
);
