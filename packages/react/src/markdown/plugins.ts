import type { Options } from 'react-markdown';

/**
 * The unified plugins a markdown chunk renders with. Keep the object stable (a module constant,
 * or a value loaded once): it is a prop of every memoized chunk.
 */
export interface MarkdownPlugins {
  readonly remark: NonNullable<Options['remarkPlugins']>;
  readonly rehype: NonNullable<Options['rehypePlugins']>;
}
