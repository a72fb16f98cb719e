import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * Finished markdown that mounts in bulk (a conversation of hundreds of turns restored at
 * once) is shown as its plain text first and parsed later: right away once it comes near the
 * viewport, otherwise a couple at a time in idle periods, newest first. The text is in the DOM
 * from the start, so find-in-page and screen readers reach it; only the formatting waits.
 * Without it, opening a 1,000-turn thread parsed every answer before the first paint.
 */

/** Finished markdown views rendered at once in one task before the rest is deferred. */
const EAGER_PER_TASK = 12;
/** Deferred views parsed per idle period: each is a few milliseconds of parsing. */
const PER_IDLE_PERIOD = 2;

let mountsThisTask = 0;
let resetQueued = false;

/** Counts a mount in the current task (one React render pass runs in one task). */
function countMount(): number {
  if (!resetQueued) {
    resetQueued = true;
    queueMicrotask(() => {
      mountsThisTask = 0;
      resetQueued = false;
    });
  }
  return ++mountsThisTask;
}

const canDefer = (): boolean =>
  typeof window !== 'undefined' &&
  typeof IntersectionObserver === 'function' &&
  typeof window.requestIdleCallback === 'function';

interface Waiting {
  readonly element: Element;
  readonly render: () => void;
}

/** Deferred views, oldest first; the idle loop takes from the end. */
const waiting: Waiting[] = [];
let observer: IntersectionObserver | null = null;
let idleQueued = false;

function release(entry: Waiting): void {
  const at = waiting.indexOf(entry);
  if (at !== -1) waiting.splice(at, 1);
  observer?.unobserve(entry.element);
  entry.render();
}

function onIdle(): void {
  idleQueued = false;
  for (let i = 0; i < PER_IDLE_PERIOD; i++) {
    const next = waiting.at(-1);
    if (next === undefined) return;
    release(next);
  }
  queueIdle();
}

function queueIdle(): void {
  if (idleQueued || waiting.length === 0) return;
  idleQueued = true;
  window.requestIdleCallback(onIdle, { timeout: 5000 });
}

function defer(element: Element, render: () => void): () => void {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const found = waiting.find((w) => w.element === entry.target);
        if (found) release(found);
      }
    },
    // A screen above and below: parsed before the reader scrolls to it.
    { rootMargin: '100% 0px' },
  );
  const entry: Waiting = { element, render };
  waiting.push(entry);
  observer.observe(element);
  queueIdle();
  return () => {
    const at = waiting.indexOf(entry);
    if (at !== -1) waiting.splice(at, 1);
    observer?.unobserve(element);
  };
}

/**
 * Whether a finished markdown view should show its plain text for now, and the ref for the
 * element that shows it. Streaming text is never deferred.
 */
export function useDeferredMarkdown(
  finished: boolean,
): readonly [pending: boolean, ref: RefObject<HTMLDivElement | null>] {
  const [pending, setPending] = useState(
    () => finished && canDefer() && countMount() > EAGER_PER_TASK,
  );
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!pending || element === null) return;
    return defer(element, () => setPending(false));
  }, [pending]);
  return [pending && finished, ref];
}
