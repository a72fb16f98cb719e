import {
  cloneElement,
  isValidElement,
  memo,
  type ReactElement,
  type ReactNode,
  useMemo,
} from 'react';
import Markdown, { type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { whenPaintedAndIdle } from '../after-paint.js';
import { markdownComponents } from './components.js';
import type { MarkdownPlugins } from './plugins.js';
import { markdownUrlTransform } from './url.js';

// A line end inside a paragraph is a line break, as in claude.ai: a poem, an address or a
// list of lines the model wrote one per line stays one per line.
const REMARK_PLUGINS: Options['remarkPlugins'] = [remarkGfm, remarkBreaks];

export interface MarkdownChunkViewProps {
  /** The markdown to render: one chunk, repaired and with the document's definitions added. */
  source: string;
  /** The chunk's offset in the whole text: passed back to `onRender`. */
  start: number;
  /**
   * Prefix for the ids GFM footnotes generate, unique per chunk, so two chunks (or two
   * messages) never produce the same id.
   */
  idPrefix: string;
  /** Called each time this chunk is parsed; keep it stable, or every chunk parses again. */
  onRender?: ((start: number) => void) | undefined;
  /** Plugins instead of the default (GFM), e.g. math; keep the object stable. */
  plugins?: MarkdownPlugins | null | undefined;
  /** The streaming caret goes after this chunk's text, when it ends in a paragraph. */
  caret?: boolean | undefined;
}

/** The class that draws the streaming caret after an element's text (styles.css). */
export const CARET_CLASS = 'ms-text__caret';

/**
 * The chunk's blocks with the caret class on the last one when it is a paragraph. Set on the
 * paragraph itself, not keyed on the streaming text by a rule: when an answer ends, a class
 * change on an ancestor makes the browser walk everything under it (a 5,000-line code block is
 * some 80,000 elements: an 18 ms style pass in the answer's last frame). A copy of the parsed
 * elements with one changed: moving the caret on re-parses nothing.
 */
function withCaret(rendered: ReactElement): ReactElement {
  const children = (rendered.props as { children?: unknown }).children;
  // One block is the fragment's only child, several an array (with newlines between them).
  const list: ReactNode[] = Array.isArray(children) ? children : [children as ReactNode];
  for (let i = list.length - 1; i >= 0; i--) {
    const child = list[i];
    // The newlines between blocks; text after the paragraph (HTML shown as written) is not.
    if (typeof child === 'string' && child.trim() === '') continue;
    if (!isValidElement<{ className?: string }>(child) || child.type !== 'p') return rendered;
    const marked = list.slice();
    const own = child.props.className;
    marked[i] = cloneElement(child, { className: own ? `${own} ${CARET_CLASS}` : CARET_CLASS });
    return cloneElement(rendered, undefined, ...marked);
  }
  return rendered;
}

/**
 * Runs the whole markdown pipeline once on a small document that uses every construct, in
 * an idle period after the chat has painted (`warmUpMarkdownWhenIdle`). The first parse of a
 * page compiles the parser, GFM and the tree transforms (tens of milliseconds): paid while the
 * page is idle, not in the first frame of the first answer, where it was the longest task of
 * the stream. Not at module load: there it ran before the page's first render and delayed it.
 */
const WARM_UP = [
  '# Heading',
  'A *paragraph* with **strong**, ~~struck~~, `code`, a [link](https://example.com) and a ' +
    'footnote[^1].',
  '- [ ] task\n- item\n  1. nested',
  '> quote',
  '| a | b |\n| - | :-: |\n| 1 | 2 |',
  '```ts\nconst a = 1;\n```',
  '[^1]: note',
].join('\n\n');

/** A chunk has been parsed (or the warm-up asked for): nothing left to warm. */
let warm = false;

function warmUp(): void {
  if (warm) return;
  warm = true;
  try {
    Markdown({
      children: WARM_UP,
      remarkPlugins: REMARK_PLUGINS,
      remarkRehypeOptions: { clobberPrefix: 'ms-warm-' },
      components: markdownComponents,
      urlTransform: markdownUrlTransform,
    });
  } catch {
    // Only ever an optimisation: a failure here shows up where it matters, in a real render.
  }
}

/** Whether the pipeline has run once (tests read it). */
export const isMarkdownWarm = (): boolean => warm;

/**
 * Warms the markdown pipeline up in the next idle period after two frames (so after the page
 * has painted), unless a chunk has been parsed by then. Called by the chat when it mounts;
 * it runs once however often it is called.
 */
export function warmUpMarkdownWhenIdle(): void {
  if (!warm) whenPaintedAndIdle(warmUp);
}

/**
 * One chunk of markdown. Memoized on its props, which are strings: a finished chunk has the
 * same source on every delta, so only the chunk still growing renders again.
 *
 * Raw HTML in the markdown is shown as text (react-markdown's default without rehype-raw and
 * without `skipHtml`): the model wrote those characters, and an answer explaining HTML should
 * still show them, but nothing of it ever becomes an element.
 */
export const MarkdownChunkView = memo(function MarkdownChunkView({
  source,
  start,
  idPrefix,
  onRender,
  plugins,
  caret = false,
}: MarkdownChunkViewProps): ReactElement {
  // Parsed once per source: the caret moving on to the next chunk does not parse this again.
  const rendered = useMemo(() => {
    warm = true;
    onRender?.(start);
    return Markdown({
      children: source,
      remarkPlugins: plugins?.remark ?? REMARK_PLUGINS,
      rehypePlugins: plugins?.rehype,
      remarkRehypeOptions: { clobberPrefix: idPrefix },
      components: markdownComponents,
      urlTransform: markdownUrlTransform,
    });
  }, [source, start, idPrefix, onRender, plugins]);
  return caret ? withCaret(rendered) : rendered;
});
