import { memo, type ReactElement } from 'react';
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
  /** Called on every render of this chunk; keep it stable, or every chunk re-renders. */
  onRender?: ((start: number) => void) | undefined;
  /** Plugins instead of the default (GFM), e.g. math; keep the object stable. */
  plugins?: MarkdownPlugins | null | undefined;
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
}: MarkdownChunkViewProps): ReactElement {
  warm = true;
  onRender?.(start);
  return (
    <Markdown
      remarkPlugins={plugins?.remark ?? REMARK_PLUGINS}
      rehypePlugins={plugins?.rehype}
      remarkRehypeOptions={{ clobberPrefix: idPrefix }}
      components={markdownComponents}
      urlTransform={markdownUrlTransform}
    >
      {source}
    </Markdown>
  );
});
