import {
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
import { CodeOptionsContext } from './code-options.js';
import { useDeferredMarkdown } from './deferred-history.js';
import { useDisplayProgressMark } from './display-progress.js';
import { type FencedCode, fencedCode } from './fenced-code.js';
import { MarkdownChunkView } from './markdown-chunk-view.js';
import type { MarkdownPlugins } from './plugins.js';
import type { MarkdownChunk } from './split.js';
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
  return (
    <div className="ms-markdown">
      {(behind ? chunks.slice(0, count) : chunks).map((chunk, i) => {
        // A chunk of nothing but definitions renders nothing of its own.
        if (chunk.definitionsOnly) return null;
        const open = unsettled && i === last ? openFence : null;
        const before = lastFence.current;
        const fence = fencedCode(chunk, open, before?.chunk.start === chunk.start ? before : null);
        // Set in render: a render React drops leaves a later read here, which the journal
        // relates to the next text or not at all, so a fence is never grown from a wrong base.
        if (open !== null) lastFence.current = { chunk, fence };
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
        if (unsettled && i === last) source = repairStreamingTail(source, openFence);
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
              idPrefix={`ms${id}c${chunk.start}-`}
              onRender={onChunkRender}
              plugins={plugins}
              caret={i === caretAt}
            />
          </Fragment>
        );
      })}
    </div>
  );
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
