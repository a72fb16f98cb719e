import type { ReactElement, ReactNode } from 'react';
import { cx } from './cx.js';
import { lazyParts } from './lazy-part.js';

export interface CodeBlockProps {
  /** The code, exactly as Copy and Download give it. May grow between renders (streaming). */
  code: string;
  /**
   * The fence's language (`ts`, `python`, …), shown as the label and used to highlight. Unknown
   * or missing: the code is shown plain.
   */
  language?: string | undefined;
  /** Syntax colours (Shiki, loaded on first use); true by default. */
  highlight?: boolean | undefined;
  /**
   * Offer a Download button: `true` names the file `code.<extension>` from the language, a
   * string is the file name.
   */
  download?: boolean | string | undefined;
  /** Extra class names on the root element, for your own styles. */
  className?: string | undefined;
}

/**
 * A code block: the language, Copy (the exact code) and optional Download in a header, and the
 * code with syntax colours in light and dark themes. Highlighting never uses HTML strings: every
 * token is a `<span>` made with the DOM's own methods, in a line React renders (see
 * `code-block-body.tsx`). Long lines scroll inside the block; the block never widens the page.
 *
 * Its code loads on demand, with the highlighting's client: nothing of it is in the main
 * bundle, `<ChatStream/>` fetches it when idle after it has painted, and the highlighter itself
 * (Shiki, a grammar, the themes) loads only when a block shows code of a known language. Until
 * it arrives the block is drawn in the same frame with its language and its code as plain text,
 * so nothing moves when it does.
 */
export const CodeBlock: (props: CodeBlockProps) => ReactElement = lazyParts(
  () => import('./code-block-body.js'),
).part('CodeBlock', (parts) => parts.CodeBlockBody, CodeBlockPlaceholder);

/** What a block is called: its language (trimmed, none when blank) and its accessible name. */
export function codeBlockNames(language: string | undefined): {
  lang: string | undefined;
  label: string;
} {
  const lang = language?.trim() || undefined;
  return { lang, label: lang ? `${lang} code` : 'Code' };
}

/**
 * The frame the block and its placeholder share, so they are the same size and name: a
 * labelled group, a header with the language (and the actions, once loaded), then the code.
 */
export function CodeBlockFrame({
  language,
  className,
  busy,
  actions,
  children,
}: {
  language: string | undefined;
  className: string | undefined;
  busy: boolean;
  actions?: ReactNode;
  children: ReactNode;
}): ReactElement {
  const { lang, label } = codeBlockNames(language);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of a header and the code, not a form's fieldset.
    <div
      className={cx('ms-code', className)}
      role="group"
      aria-label={label}
      aria-busy={busy || undefined}
      data-language={lang}
    >
      <div className="ms-code__header">
        <span className="ms-code__lang">{lang ?? 'text'}</span>
        {actions === undefined ? null : <span className="ms-code__actions">{actions}</span>}
      </div>
      {children}
    </div>
  );
}

/**
 * The block until its chunk arrives: the same frame, the code plain, no buttons yet, and
 * nothing focusable (the block replaces it; see `lazyParts`). Exported for its test.
 */
export function CodeBlockPlaceholder({ code, language, className }: CodeBlockProps): ReactElement {
  return (
    <CodeBlockFrame language={language} className={className} busy>
      <pre className="ms-code__pre">
        <code className="ms-code__code">{code}</code>
      </pre>
    </CodeBlockFrame>
  );
}
