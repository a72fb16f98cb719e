/**
 * Counts React commits through the DevTools global hook (installed before react-dom loads),
 * assigns each to the frame that paints it, and walks each committed fiber tree the way
 * React DevTools' profiler does to tell which parts rendered in that commit:
 *
 * - a component fiber rendered when React flagged it `PerformedWork` (its function ran and
 *   its output was used); a host element rendered when it got new props;
 * - only subtrees React actually visited are walked (a child list React did not clone is
 *   the previous commit's, untouched).
 *
 * Two kinds of "block" are tracked:
 * - content blocks: each `ContentBlockView` subtree of ChatStream (thinking, text, tool), or
 *   each `[data-block]` element of the naive baseline. A block counts one render per commit
 *   in which anything in it rendered.
 * - markdown blocks: each top-level element of the rendered markdown (`.ms-markdown__group > *`,
 *   `.naive-markdown > *`), identified by its DOM node. It is finished once a later block
 *   exists; any render after that is a re-render of a block that did not change.
 */

import { PACING, type RenderReport } from './stats.js';

interface Fiber {
  tag: number;
  key: string | null;
  elementType: unknown;
  type: unknown;
  stateNode: unknown;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  memoizedProps: Record<string, unknown> | null;
  flags: number;
}

interface FiberRoot {
  current: Fiber;
}

const PERFORMED_WORK = 1;
const HOST_COMPONENT = 5;
/** Function, class, forward-ref, memo and simple-memo components. */
const COMPONENT_TAGS: ReadonlySet<number> = new Set([0, 1, 11, 14, 15]);
/** What holds top-level markdown elements: ours in groups of blocks, the baseline's as is. */
const MARKDOWN_ROOTS = ['ms-markdown', 'ms-markdown__group', 'naive-markdown'];
const hasClass = (className: string, name: string): boolean =>
  ` ${className} `.includes(` ${name} `);

/** A later top-level markdown element exists: after it in its group, or a later group. */
const laterBlockExists = (element: Element): boolean =>
  element.nextElementSibling !== null ||
  (element.parentElement?.classList.contains('ms-markdown__group') === true &&
    element.parentElement.nextElementSibling !== null);

export interface Probe {
  /** Every commit of every root since the page loaded. */
  commits: number;
  /** `<Profiler onRender>` calls (only the profiling build of react-dom makes them). */
  profilerCommits: number;
  /** ChatStream's block view (`ContentBlockView`), set once the app is loaded. */
  blockComponent: unknown;
  /** Commits between `start()` and `stop()`. */
  readonly recorded: number;
  /**
   * Commits per painted frame while `record` is set. A commit made inside an animation-frame
   * callback (or the microtasks it queues, where React flushes the updates it caused) is
   * painted in that frame; any other commit is painted in the next frame.
   */
  readonly frames: FrameCounts;
  /** Whether commits are being counted and walked: between `start()` and `stop()`. */
  readonly record: boolean;
  start(): void;
  stop(): void;
  report(): RenderReport;
}

export interface FrameCounts {
  /** Frames seen (animation-frame timestamps). */
  count: number;
  maxCommits: number;
  /** Frames that painted more than one commit. */
  overOne: number;
  /** The first ten such frames, each as its commits (1 = the first after `start()`). */
  crowded: number[][];
}

interface BlockRecord {
  type: string;
  renders: number;
  completedAt: number | null;
  rendersAfterComplete: number;
  unchangedRenders: number;
  unchangedBecause: Record<string, number>;
}

interface MarkdownRecord {
  element: Element;
  renders: number;
  finishedAt: number | null;
  rendersAfterFinish: number;
}

export function installHook(): Probe {
  let commit = 0;
  const blocks = new Map<string, BlockRecord>();
  const markdown = new Map<Element, MarkdownRecord>();
  const unfinished = new Set<MarkdownRecord>();
  /** Per commit: blocks that rendered, and what their data was. */
  /** `because`: null when the block's data changed, else why it rendered all the same. */
  const touched = new Map<
    string,
    { record: BlockRecord; because: string | null; complete: boolean }
  >();
  /**
   * Per commit: blocks in which a top-level markdown element mounted. A render of such a block
   * with the same data is its display catching up (markdown paced a few blocks a frame), not
   * a wasted render: it is reported as `PACING`.
   */
  const grew = new Set<string>();

  const probe: Probe = {
    commits: 0,
    profilerCommits: 0,
    blockComponent: undefined,
    recorded: 0,
    frames: { count: 0, maxCommits: 0, overOne: 0, crowded: [] },
    record: false,
    start() {
      Object.assign(probe, { record: true });
      frameTime = -1;
      frameCommits = [];
      pendingCommits = [];
    },
    stop() {
      closeFrame(frameCommits);
      if (pendingCommits.length > 0) closeFrame(pendingCommits);
      frameCommits = [];
      pendingCommits = [];
      Object.assign(probe, { record: false });
    },
    report() {
      const records = [...markdown.values()].filter((r) => r.element.isConnected);
      const renders = records.map((r) => r.renders);
      return {
        commits: commit,
        blocks: [...blocks.values()].map(({ completedAt: _c, ...rest }) => rest),
        markdown: {
          blocks: records.length,
          meanRenders: renders.reduce((a, b) => a + b, 0) / Math.max(1, renders.length),
          maxRenders: Math.max(0, ...renders),
          rendersAfterFinish: records.reduce((a, r) => a + r.rendersAfterFinish, 0),
          blocksRenderedAfterFinish: records.filter((r) => r.rendersAfterFinish > 0).length,
        },
        ...(tracing ? { trace } : {}),
      };
    },
  };

  const didRender = (prev: Fiber | null, next: Fiber): boolean => {
    if (prev === null) return true;
    if (COMPONENT_TAGS.has(next.tag)) return (next.flags & PERFORMED_WORK) !== 0;
    return prev.memoizedProps !== next.memoizedProps;
  };

  const blockOf = (fiber: Fiber): { key: string; type: string; data: unknown } | null => {
    const props = fiber.memoizedProps;
    if (probe.blockComponent !== undefined && fiber.elementType === probe.blockComponent) {
      const block = props?.block as { status?: string; block?: { type?: string } } | undefined;
      return { key: `block-${fiber.key}`, type: block?.block?.type ?? '?', data: block };
    }
    if (fiber.tag === HOST_COMPONENT && typeof props?.['data-block'] === 'string') {
      return { key: `naive-${props['data-block']}`, type: props['data-block'], data: props };
    }
    return null;
  };

  /** Null when the block's data changed (or it mounted), else the props that did change. */
  const unchangedReason = (prev: Fiber | null, next: Fiber): string | null => {
    if (prev === null) return null;
    const before = prev.memoizedProps ?? {};
    const after = next.memoizedProps ?? {};
    if (typeof after['data-block'] === 'string') {
      return before['data-size'] === after['data-size'] ? 'parent' : null;
    }
    if (before.block !== after.block) return null;
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    const changed = [...keys].filter((key) => before[key] !== after[key]);
    return changed.sort().join('+') || 'state';
  };

  const isComplete = (fiber: Fiber): boolean => {
    const props = fiber.memoizedProps;
    const block = props?.block as { status?: string } | undefined;
    return block?.status === 'complete' || props?.['data-status'] === 'complete';
  };

  const tracing = new URLSearchParams(location.search).get('trace') === '1';
  const trace: string[] = [];
  let causes: string[] = [];
  const nameOf = (fiber: Fiber): string => {
    const type = (fiber as unknown as { elementType?: unknown }).elementType as
      | { displayName?: string; name?: string; type?: { name?: string } }
      | undefined;
    return type?.displayName ?? type?.name ?? type?.type?.name ?? `tag${fiber.tag}`;
  };

  const visit = (
    prev: Fiber | null,
    next: Fiber,
    block: string | null,
    inMarkdown: boolean,
    parentRendered = true,
  ): void => {
    let markdownRoot = inMarkdown;
    const rendered = didRender(prev, next);
    const component = COMPONENT_TAGS.has(next.tag);
    if (tracing && component && rendered && !parentRendered && causes.length < 8) {
      causes.push(nameOf(next));
    } else if (
      tracing &&
      prev !== null &&
      causes.length < 8 &&
      (prev as unknown as { memoizedState: unknown }).memoizedState !==
        (next as unknown as { memoizedState: unknown }).memoizedState
    ) {
      causes.push(`state of ${nameOf(next)}`);
    }
    const renderedHere = component ? rendered : parentRendered;
    let inside = block;
    const own = blockOf(next);
    if (own !== null) {
      inside = own.key;
      let record = blocks.get(own.key);
      if (record === undefined) {
        record = {
          type: own.type,
          renders: 0,
          completedAt: null,
          rendersAfterComplete: 0,
          unchangedRenders: 0,
          unchangedBecause: {},
        };
        blocks.set(own.key, record);
      }
      if (rendered) {
        touched.set(own.key, {
          record,
          because: unchangedReason(prev, next),
          complete: isComplete(next),
        });
      }
    } else if (rendered && block !== null && COMPONENT_TAGS.has(next.tag) && !touched.has(block)) {
      const record = blocks.get(block);
      if (record) touched.set(block, { record, because: 'state', complete: false });
    }
    if (next.tag === HOST_COMPONENT) {
      const className = next.memoizedProps?.className;
      const isRoot =
        typeof className === 'string' && MARKDOWN_ROOTS.some((n) => hasClass(className, n));
      if (markdownRoot && !isRoot) {
        // A top-level markdown element: counted, and nothing inside it is walked.
        if (rendered) {
          const element = next.stateNode as Element;
          let record = markdown.get(element);
          if (record === undefined) {
            record = { element, renders: 0, finishedAt: null, rendersAfterFinish: 0 };
            markdown.set(element, record);
            unfinished.add(record);
            if (block !== null) grew.add(block);
          }
          record.renders++;
          if (record.finishedAt !== null) record.rendersAfterFinish++;
        }
        return;
      }
      if (isRoot) markdownRoot = true;
    }
    // Children React did not clone are the previous commit's: nothing there rendered.
    if (prev !== null && next.child === prev.child) return;
    for (let child = next.child; child !== null; child = child.sibling) {
      visit(child.alternate, child, inside, markdownRoot, renderedHere);
    }
  };

  const onCommit = (root: FiberRoot): void => {
    commit++;
    touched.clear();
    grew.clear();
    causes = [];
    visit(root.current.alternate, root.current, null, false, false);
    if (tracing && trace.length < 300) {
      trace.push(`${probe.recorded}${inFrame ? ' frame' : ''}: ${causes.join(', ')}`);
    }
    for (const [key, touch] of touched) {
      const { record, complete } = touch;
      const because = touch.because === 'state' && grew.has(key) ? PACING : touch.because;
      record.renders++;
      if (record.completedAt !== null) record.rendersAfterComplete++;
      if (because !== null) {
        record.unchangedRenders++;
        record.unchangedBecause[because] = (record.unchangedBecause[because] ?? 0) + 1;
      }
      if (complete && record.completedAt === null) record.completedAt = commit;
    }
    for (const record of unfinished) {
      if (!record.element.isConnected) unfinished.delete(record);
      else if (laterBlockExists(record.element)) {
        record.finishedAt = commit;
        unfinished.delete(record);
      }
    }
  };

  // Frames: every animation-frame callback is wrapped to know which frame it runs in.
  let inFrame = false;
  let frameTime = -1;
  let frameCommits: number[] = [];
  let pendingCommits: number[] = [];
  const closeFrame = (commits: number[]) => {
    const frames = probe.frames;
    if (!probe.record) return;
    frames.count++;
    if (commits.length > frames.maxCommits) frames.maxCommits = commits.length;
    if (commits.length > 1) {
      frames.overOne++;
      if (frames.crowded.length < 10) frames.crowded.push(commits);
    }
  };
  const requestFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    requestFrame((time) => {
      if (time !== frameTime) {
        if (frameTime !== -1) closeFrame(frameCommits);
        frameTime = time;
        // Commits made since the last frame's callbacks are painted in this one.
        frameCommits = pendingCommits;
        pendingCommits = [];
      }
      inFrame = true;
      try {
        callback(time);
      } finally {
        // After the microtasks the callback queued (React flushes its updates in one).
        queueMicrotask(() => {
          inFrame = false;
        });
      }
    });

  let nextId = 1;
  const hook = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map<number, unknown>(),
    inject(internals: unknown): number {
      const id = nextId++;
      hook.renderers.set(id, internals);
      return id;
    },
    checkDCE(): void {},
    setStrictMode(): void {},
    onCommitFiberUnmount(): void {},
    onPostCommitFiberRoot(): void {},
    onCommitFiberRoot(_id: number, root: FiberRoot): void {
      probe.commits++;
      if (!probe.record) return;
      const id = probe.recorded + 1;
      Object.assign(probe, { recorded: id });
      if (inFrame) frameCommits.push(id);
      else pendingCommits.push(id);
      onCommit(root);
    },
  };
  (
    window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }
  ).__REACT_DEVTOOLS_GLOBAL_HOOK__ = hook;
  return probe;
}
