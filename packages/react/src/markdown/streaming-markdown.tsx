import {
  type CSSProperties,
  Fragment,
  memo,
  type ReactElement,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useReducer,
  useRef,
} from 'react';
import { CodeBlock } from '../components/code-block.js';
import { useMarkdownSplit } from '../hooks/use-markdown-split.js';
import { type GroupStarts, groupStarts, NO_GROUP_STARTS } from './chunk-groups.js';
import { CodeOptionsContext } from './code-options.js';
import { useDeferredMarkdown } from './deferred-history.js';
import { useDisplayProgressMark } from './display-progress.js';
import { type FencedCode, fencedCode } from './fenced-code.js';
import { MarkdownChunkView } from './markdown-chunk-view.js';
import type { MarkdownPlugins } from './plugins.js';
import type { MarkdownChunk, OpenFence } from './split.js';
import { repairStreamingTail } from './tail.js';

export interface StreamingMarkdownProps {
  /** The markdown so far; it only grows while streaming. */
  text: string;
  /**
   * While true, the last chunk's unsettled syntax is repaired for display (see
   * `repairStreamingTail`), and the last paragraph shown carries the `ms-text__caret` class,
   * after which the default stylesheet draws a blinking caret.
   */
  streaming?: boolean;
  /**
   * The text was cut off where its stream broke (interrupted, failed or stopped): its end stays
   * repaired as it was while streaming (half a link shown as its text), not shown as written.
   */
  incomplete?: boolean;
  /** Test and profiling hook: called with a chunk's start offset each time that chunk is parsed. */
  onChunkRender?: ((start: number) => void) | undefined;
  /** Plugins instead of the default (GFM), e.g. math; keep the object stable. */
  plugins?: MarkdownPlugins | null | undefined;
}

/**
 * New blocks rendered per frame while an answer grows. Each is a markdown parse of a few
 * milliseconds; when text arrives faster than frames (a fast network, a tab brought back to
 * the front), the blocks that came in one frame are shown over the next few instead of in one
 * long task. The first render shows everything (a thread shown again).
 */
const NEW_CHUNKS_PER_FRAME = 2;

/**
 * New blocks rendered per frame once the answer has ended: what is left of a burst shows at
 * once (one frame, as it always did), and only a large remainder (a read that brought a
 * hundred blocks) is spread over frames. Inside an answer, the answer shows itself finished
 * once they are all on the page (`display-progress.ts`).
 */
const NEW_CHUNKS_PER_FRAME_AFTER_END = 6;

/**
 * Markdown rendered per top-level block: each chunk is its own memoized child keyed by its
 * start offset, so a delta re-renders the last chunk and nothing before it.
 */
export function StreamingMarkdown({
  text,
  streaming = false,
  incomplete = false,
  onChunkRender,
  plugins,
}: StreamingMarkdownProps): ReactElement {
  const id = useId().replace(/[^\w-]/g, '');
  const [pending, pendingRef] = useDeferredMarkdown(!streaming);
  const { chunks, openFence } = useMarkdownSplit(text);
  // The last chunk's fence as last read: a growing fence is read from it, by what was appended.
  const lastFence = useRef<{ chunk: MarkdownChunk; fence: FencedCode | null } | null>(null);
  // Where the groups of chunks start, carried from render to render (chunk-groups.ts).
  const knownStarts = useRef<GroupStarts>(NO_GROUP_STARTS);
  // How many chunks the last commit showed; null before the first.
  const shown = useRef<number | null>(null);
  const [, nextFrame] = useReducer((n: number) => n + 1, 0);
  const previous = shown.current;
  const perFrame = streaming ? NEW_CHUNKS_PER_FRAME : NEW_CHUNKS_PER_FRAME_AFTER_END;
  const count =
    previous !== null && chunks.length - previous > perFrame ? previous + perFrame : chunks.length;
  useLayoutEffect(() => {
    shown.current = count;
  }, [count]);
  const behind = count < chunks.length;
  const stepAnswer = useDisplayProgressMark(behind);
  // Each step shows more: the next frame shows the next ones, until it has caught up. The
  // answer's end steps with it (one batch, one commit).
  useEffect(() => {
    if (count >= chunks.length) return;
    const frame = requestAnimationFrame(() => {
      nextFrame();
      stepAnswer();
    });
    return () => cancelAnimationFrame(frame);
  }, [count, chunks.length, stepAnswer]);
  if (pending) {
    // Restored in bulk: the words now, the formatting once it is near the viewport or idle.
    return (
      <div ref={pendingRef} className="ms-markdown ms-markdown--pending">
        {text}
      </div>
    );
  }
  let definitions = '';
  for (const chunk of chunks) {
    if (chunk.definitions !== '') definitions += `${chunk.definitions}\n\n`;
  }
  const last = chunks.length - 1;
  // The end that is not settled: still arriving, or cut off where the stream broke.
  const unsettled = streaming || incomplete;
  // The caret follows the last chunk shown that draws something (one still to come is not on
  // the page yet, and a chunk of link definitions draws nothing).
  let caretAt = streaming ? (behind ? count : chunks.length) - 1 : -1;
  while (caretAt >= 0 && chunks[caretAt]?.definitionsOnly) caretAt--;
  const visible = behind ? chunks.slice(0, count) : chunks;
  const shared = { definitions, idPrefix: `ms${id}c`, plugins, onChunkRender, caretAt };
  const starts = groupStarts(chunks, knownStarts.current);
  knownStarts.current = starts;
  const groups: ReactElement[] = [];
  for (let g = 0; g < starts.starts.length; g++) {
    const first = starts.starts[g] as number;
    if (first >= visible.length) break;
    const members = visible.slice(first, starts.starts[g + 1] ?? visible.length);
    const holdsLast = first + members.length - 1 === last;
    groups.push(
      <ChunkGroup
        key={first}
        chunks={members}
        first={first}
        {...shared}
        // The last group drawn stays open while a burst is drawn over frames: closing it for a
        // frame and opening it again restyled all it holds twice (its class and its inline
        // property change), 3-4 ms each time, every few frames of a fast answer.
        open={(starts.starts[g + 1] ?? Number.POSITIVE_INFINITY) >= visible.length}
        tail={holdsLast ? { unsettled, openFence, lastFence } : null}
      />,
    );
  }
  return <div className="ms-markdown">{groups}</div>;
}

interface ChunkGroupProps {
  readonly chunks: readonly MarkdownChunk[];
  /** The index of the group's first chunk in the text's chunks. */
  readonly first: number;
  /** Every link definition of the text, put before a chunk that uses one. */
  readonly definitions: string;
  readonly idPrefix: string;
  readonly plugins: MarkdownPlugins | null | undefined;
  readonly onChunkRender: ((start: number) => void) | undefined;
  /** Index (in the text's chunks) of the chunk that shows the caret, or -1. */
  readonly caretAt: number;
  /**
   * The group that grows: the last one drawn. It is not skipped out of view, and its last block
   * ends the answer (styles.css).
   */
  readonly open: boolean;
  /** For the group that holds the text's last chunk: how that chunk grows. */
  readonly tail: {
    readonly unsettled: boolean;
    readonly openFence: OpenFence | null;
    readonly lastFence: { current: { chunk: MarkdownChunk; fence: FencedCode | null } | null };
  } | null;
}

/**
 * Chunks in groups (`chunk-groups.ts`), each a memoized element: as an answer grows, only the
 * group holding its last chunk renders, and the browser lays out and walks the page's groups,
 * not every block of a long answer (whose cost per frame grew with the answer: the long markdown row of
 * `pnpm bench`). A closed group renders again only when what it shows changed: its chunks,
 * the caret coming or going, or the link definitions one of its chunks uses.
 */
const ChunkGroup = memo(function ChunkGroup({
  chunks,
  first,
  definitions,
  idPrefix,
  plugins,
  onChunkRender,
  caretAt,
  open,
  tail,
}: ChunkGroupProps): ReactElement {
  const last = first + chunks.length - 1;
  return (
    <div
      // The last group drawn: where the answer ends (its last block's margin, styles.css).
      className={open ? 'ms-markdown__group ms-markdown__group--open' : 'ms-markdown__group'}
      // A closed group out of view is skipped at the height it was drawn at; one never drawn
      // (a restored answer) at about its lines' height. Not on the group that grows: it is never
      // skipped, and the property would change at every update for nothing.
      style={open ? undefined : ({ '--ms-group-lines': estimatedLines(chunks) } as CSSProperties)}
    >
      {chunks.map((chunk, k) => {
        const i = first + k;
        // A chunk of nothing but definitions renders nothing of its own.
        if (chunk.definitionsOnly) return null;
        const growing = tail !== null && i === last;
        const open = growing && tail.unsettled ? tail.openFence : null;
        const before = growing ? tail.lastFence.current : null;
        const fence = fencedCode(chunk, open, before?.chunk.start === chunk.start ? before : null);
        // Set in render: a render React drops leaves a later read here, which the journal
        // relates to the next text or not at all, so a fence is never grown from a wrong base.
        if (open !== null && tail !== null) tail.lastFence.current = { chunk, fence };
        if (fence !== null) {
          return (
            <Fragment key={chunk.start}>
              {i > 0 ? '\n' : null}
              <FencedCodeChunk
                code={fence.code}
                language={fence.language}
                start={chunk.start}
                onRender={onChunkRender}
              />
            </Fragment>
          );
        }
        let source = chunk.text;
        if (growing && tail.unsettled) source = repairStreamingTail(source, tail.openFence);
        // Before the chunk, not after: an open fence at its end must not swallow them.
        if (definitions !== '' && chunk.references) source = definitions + source;
        // The newline between blocks is what react-markdown puts between them in one document:
        // it keeps raw text of adjacent blocks (HTML shown as text) from running together.
        return (
          <Fragment key={chunk.start}>
            {i > 0 ? '\n' : null}
            <MarkdownChunkView
              source={source}
              start={chunk.start}
              idPrefix={`${idPrefix}${chunk.start}-`}
              onRender={onChunkRender}
              plugins={plugins}
              caret={i === caretAt}
            />
          </Fragment>
        );
      })}
    </div>
  );
}, sameGroup);

/** Characters a line of an answer holds, about: for a skipped group's height before it is drawn. */
const CHARS_PER_LINE = 80;

/** About how many lines a group's blocks take, a line of gap between blocks included. */
function estimatedLines(chunks: readonly MarkdownChunk[]): number {
  let lines = 0;
  for (const chunk of chunks) lines += Math.ceil(chunk.text.length / CHARS_PER_LINE) + 1;
  return lines;
}

/** Whether a closed group would render the same: the group that grows always renders. */
function sameGroup(a: ChunkGroupProps, b: ChunkGroupProps): boolean {
  if (a.tail !== null || b.tail !== null) return false;
  if (
    a.open !== b.open ||
    a.first !== b.first ||
    a.idPrefix !== b.idPrefix ||
    a.plugins !== b.plugins ||
    a.onChunkRender !== b.onChunkRender ||
    a.chunks.length !== b.chunks.length
  ) {
    return false;
  }
  const end = a.first + a.chunks.length;
  if ((a.caretAt >= a.first && a.caretAt < end) || (b.caretAt >= b.first && b.caretAt < end)) {
    if (a.caretAt !== b.caretAt) return false;
  }
  let references = false;
  for (let k = 0; k < a.chunks.length; k++) {
    const chunk = a.chunks[k] as MarkdownChunk;
    if (chunk !== b.chunks[k]) return false;
    if (chunk.references) references = true;
  }
  return !references || a.definitions === b.definitions;
}

/**
 * A chunk that is one fenced code block, rendered as the markdown parser would render it (a
 * `CodeBlock`, see `components.tsx`) without parsing it: a code answer that grows by a line
 * costs a slice, not a parse of every line so far. Finished and growing fences take the same
 * path, so the block keeps its element (and its tokens) when its closing fence arrives.
 */
const FencedCodeChunk = memo(function FencedCodeChunk({
  code,
  language,
  start,
  onRender,
}: {
  code: string;
  language: string | undefined;
  start: number;
  onRender: ((start: number) => void) | undefined;
}): ReactElement {
  onRender?.(start);
  const options = useContext(CodeOptionsContext);
  return (
    <CodeBlock
      code={code}
      language={language}
      highlight={options.highlight}
      download={options.download}
    />
  );
});
