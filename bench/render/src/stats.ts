/**
 * What the page reports to the bench, shared by the page (bench/render/src) and the Node side
 * (bench/src/render.ts): plain types, no DOM.
 */

/** `network` reads the response and renders nothing: the mock's own share of every figure. */
export const CONTENDERS = ['ours', 'ai-sdk', 'assistant-ui', 'naive', 'network'] as const;
export type Contender = (typeof CONTENDERS)[number];

export interface BlockRenders {
  /** The block's type (`thinking`, `text`, `tool_use`). */
  readonly type: string;
  /** Commits in which something in the block rendered (its first render included). */
  readonly renders: number;
  /** Renders after the commit that showed it complete. */
  readonly rendersAfterComplete: number;
  /** Renders whose block data (the core's block object, or the text) had not changed. */
  readonly unchangedRenders: number;
  /**
   * Why those happened: the props of the block view that changed (`answerStarted`: the answer
   * began, a thinking block collapses), `state` (a component inside rendered on its own),
   * `PACING` (one that put more of the block's markdown on the page), or `parent` (the naive
   * baseline renders everything on every delta).
   */
  readonly unchangedBecause: Readonly<Record<string, number>>;
}

/**
 * A render of a block whose data had not changed that mounted more of its markdown: markdown
 * shown a few blocks a frame, catching up with text that came faster than frames.
 */
export const PACING = 'display catching up';

export interface MarkdownRenders {
  /** Top-level markdown elements that were ever in the final DOM. */
  readonly blocks: number;
  readonly meanRenders: number;
  readonly maxRenders: number;
  /** Renders of elements that already had a later sibling (finished blocks), in total. */
  readonly rendersAfterFinish: number;
  /** Elements rendered at least once after they were finished. */
  readonly blocksRenderedAfterFinish: number;
}

export interface RenderReport {
  readonly commits: number;
  readonly blocks: readonly BlockRenders[];
  readonly markdown: MarkdownRenders;
  /**
   * With `?trace=1`: per commit (the first 300), whether it ran in a frame callback and the
   * components where rendering began (rendered while their parent did not): what caused it.
   */
  readonly trace?: readonly string[];
}

export interface RunStats {
  readonly contender: Contender;
  readonly profiling: boolean;
  readonly events: number;
  readonly chunks: number;
  readonly bytes: number;
  readonly markdownChars: number;
  /** Commits from the send to the end of the settle time. */
  readonly commits: number;
  /** `<Profiler onRender>` calls in the same window (profiling build only, else 0). */
  readonly profilerCommits: number;
  readonly frames: number;
  readonly maxCommitsPerFrame: number;
  /** Frames with more than one commit. */
  readonly framesOverOneCommit: number;
  /** The commits (numbered from 1) of each frame that painted more than one. */
  readonly crowdedFrames: readonly (readonly number[])[];
  /** PerformanceObserver 'longtask' entries (50 ms or more). */
  readonly longTasks: number;
  /** The longest gap between two animation frames: the worst visible stall. */
  readonly longestFrameGapMs: number;
  /** Send to the final DOM. */
  readonly totalMs: number;
  /** First byte to last byte handed to the reader. */
  readonly streamMs: number;
  /** Last byte handed to the reader to the final answer's DOM (status complete committed). */
  readonly lastByteToDomMs: number;
  readonly renders: RenderReport;
}
