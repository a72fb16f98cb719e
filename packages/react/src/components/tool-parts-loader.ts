import { lazyParts } from './lazy-part.js';

/**
 * The tool parts' chunk: the JSON view, the open tool card, the server tool results. One
 * `import()` for all of them, asked for as soon as a tool call or a server tool appears.
 */
export const toolParts = lazyParts(() => import('./tool-parts.js'));
