import type { ComponentPropsWithoutRef, ReactElement } from 'react';
import type { Components, ExtraProps } from 'react-markdown';
import { ScrollableDiv, ScrollablePre } from '../components/scrollable.js';
import { hostnameOf } from './url.js';

type LinkProps = ComponentPropsWithoutRef<'a'> & ExtraProps;
type ImageProps = ComponentPropsWithoutRef<'img'> & ExtraProps;
type TableProps = ComponentPropsWithoutRef<'table'> & ExtraProps;
type InputProps = ComponentPropsWithoutRef<'input'> & ExtraProps;
type PreProps = ComponentPropsWithoutRef<'pre'> & ExtraProps;

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

/** Wide tables scroll on their own instead of widening the message. */
function MarkdownTable({ node: _node, ...rest }: TableProps): ReactElement {
  return (
    <ScrollableDiv className="ms-md__table-wrap">
      <table {...rest} />
    </ScrollableDiv>
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

/** Code blocks scroll sideways instead of widening the message: keyboard-reachable. */
function MarkdownPre({ node: _node, ...rest }: PreProps): ReactElement {
  return <ScrollablePre {...rest} />;
}

/** The element overrides every markdown chunk renders with. */
export const markdownComponents: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
  table: MarkdownTable,
  input: MarkdownInput,
  pre: MarkdownPre,
};
