import { createContext } from 'react';

/** How markdown code blocks render; set by `TextBlockView` for the markdown inside it. */
export interface CodeBlockOptions {
  /** Syntax colours (Shiki, loaded on first use). */
  highlight: boolean;
  /** A Download button on each code block. */
  download: boolean;
}

export const DEFAULT_CODE_OPTIONS: CodeBlockOptions = { highlight: true, download: false };

export const CodeOptionsContext = createContext<CodeBlockOptions>(DEFAULT_CODE_OPTIONS);
