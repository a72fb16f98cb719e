import { type ComponentPropsWithoutRef, type ReactElement, useContext } from 'react';
import type { Components, ExtraProps } from 'react-markdown';
import { CodeBlock } from '../components/code-block.js';
import { OverflowScroller, ScrollablePre } from '../components/scrollable.js';
import { CodeOptionsContext } from './code-options.js';
import { hostnameOf } from './url.js';

type LinkProps = ComponentPropsWithoutRef<'a'> & ExtraProps;
type ImageProps = ComponentPropsWithoutRef<'img'> & ExtraProps;
type TableProps = ComponentPropsWithoutRef<'table'> & ExtraProps;
type InputProps = ComponentPropsWithoutRef<'input'> & ExtraProps;
type PreProps = ComponentPropsWithoutRef<'pre'> & ExtraProps;
/** A hast element, as react-markdown hands it to components (its own `hast` types). */
type Element = NonNullable<ExtraProps['node']>;
type ElementContent = Element['children'][number];

/**
 * A markdown link. `href` has already been through `markdownUrlTransform`: when it is missing
 * the URL was refused, and the link text is shown as plain text. Outside links open in a new tab
 * without giving the page a handle on this one (`noopener noreferrer`).
 */
function MarkdownLink({
  node: _node,
  href,
  children,
  className,
  ...rest
}: LinkProps): ReactElement {
  if (!href) {
    return (
      <span className={joinClass('ms-md__link ms-md__link--blocked', className)}>{children}</span>
    );
  }
  if (href.startsWith('#')) {
    return (
      <a {...rest} className={joinClass('ms-md__link', className)} href={href}>
        {children}
      </a>
    );
  }
  return (
    <a
      {...rest}
      className={joinClass('ms-md__link', className)}
      href={href}
      rel="noopener noreferrer"
      target="_blank"
    >
      {children}
    </a>
  );
}

/**
 * A markdown image is never loaded: a remote image in model output can track the reader or
 * leak the conversation through its URL. It becomes a link labelled with its alt text, which
 * the reader can choose to open.
 */
function MarkdownImage({ src, alt }: ImageProps): ReactElement {
  const label = alt?.trim() || hostnameOf(src) || 'image';
  const href = typeof src === 'string' && src !== '' ? src : undefined;
  if (!href) {
    return <span className="ms-md__image ms-md__image--blocked">Image: {label}</span>;
  }
  return (
    <a className="ms-md__image" href={href} rel="noopener noreferrer" target="_blank">
      Image: {label}
    </a>
  );
}

/**
 * Wide tables scroll on their own instead of widening the message (or squeezing their words):
 * the box is a named tab stop only while it scrolls.
 */
function MarkdownTable({ node: _node, ...rest }: TableProps): ReactElement {
  return (
    <OverflowScroller className="ms-md__table-wrap" label="Scrollable table">
      <table {...rest} />
    </OverflowScroller>
  );
}

/** GFM task list boxes: read-only, with a name so they are not unlabeled form controls. */
function MarkdownInput({ node: _node, type, checked, ...rest }: InputProps): ReactElement {
  if (type !== 'checkbox') return <input {...rest} type={type} disabled />;
  return (
    <input
      {...rest}
      type="checkbox"
      checked={Boolean(checked)}
      disabled
      readOnly
      aria-label={checked ? 'Done' : 'Not done'}
    />
  );
}

function joinClass(base: string, extra: string | undefined): string {
  return extra ? `${base} ${extra}` : base;
}

/**
 * A fenced or indented code block becomes a `CodeBlock` (language label, Copy, colours). The
 * code is read from the syntax tree, so it is exactly the text of the block. A `<pre>` that is
 * not plain code (none in markdown today) keeps its children, in a scrolling box.
 */
function MarkdownPre({ node, ...rest }: PreProps): ReactElement {
  const options = useContext(CodeOptionsContext);
  const code = node?.children.length === 1 ? node.children[0] : undefined;
  if (code?.type === 'element' && code.tagName === 'code') {
    return (
      <CodeBlock
        code={textOf(code).replace(/\n$/, '')}
        language={languageOf(code)}
        highlight={options.highlight}
        download={options.download}
      />
    );
  }
  return <ScrollablePre {...rest} />;
}

/** The language of a `<code class="language-ts">`, as the fence wrote it. */
function languageOf(code: Element): string | undefined {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return undefined;
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-')) {
      return name.slice('language-'.length) || undefined;
    }
  }
  return undefined;
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  let out = '';
  for (const child of node.children) out += textOf(child);
  return out;
}

/** The element overrides every markdown chunk renders with. */
export const markdownComponents: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
  table: MarkdownTable,
  input: MarkdownInput,
  pre: MarkdownPre,
};
