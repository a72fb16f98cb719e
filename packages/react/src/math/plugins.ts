/**
 * Math for markdown: remark-math parses `$…$` and `$$…$$`, rehype-katex typesets them, and the
 * result stays a syntax tree that react-markdown turns into React elements (KaTeX's HTML is
 * parsed into the tree, never inserted as a string). Loaded only through `load.ts`.
 */
import rehypeKatex from 'rehype-katex';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { MarkdownPlugins } from '../markdown/plugins.js';

// The stylesheet and its fonts travel with this chunk; a bundler that cannot load CSS from
// JavaScript (or a server) still gets the math, unstyled.
import('katex/dist/katex.min.css').catch(() => undefined);

interface Node {
  type: string;
  value?: string;
  children?: Node[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/**
 * A `$$` block that has not closed yet (the answer is still streaming, or the author never
 * closed it) stays text: half a formula would typeset as an error, and everything after the
 * opening `$$` would swallow into it.
 */
function remarkOpenMathAsText() {
  return (tree: Node, file: { value: unknown }) => {
    const source = String(file.value);
    const visit = (parent: Node) => {
      const children = parent.children;
      if (!children) return;
      children.forEach((node, i) => {
        if (node.type === 'math' && !isClosed(source, node)) {
          const start = node.position?.start.offset ?? 0;
          const end = node.position?.end.offset ?? source.length;
          children[i] = {
            type: 'paragraph',
            children: [{ type: 'text', value: source.slice(start, end) }],
          };
        } else {
          visit(node);
        }
      });
    };
    visit(tree);
  };
}

function isClosed(source: string, node: Node): boolean {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return true;
  const lines = source.slice(start, end).split('\n');
  return lines.length > 1 && /^[ \t]*\${2,}[ \t]*$/.test(lines[lines.length - 1] ?? '');
}

export const mathPlugins: MarkdownPlugins = {
  remark: [remarkGfm, remarkBreaks, remarkMath, remarkOpenMathAsText],
  // `throwOnError: false`: a formula KaTeX cannot parse shows as its source, marked, never
  // as a crash; `trust` stays off, so `\href` and friends cannot make links or load anything.
  rehype: [[rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false }]],
};
