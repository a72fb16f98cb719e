import type { UrlTransform } from 'react-markdown';

const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);

/**
 * The URL a link may point to, or `undefined` when it must get no `href` at all.
 *
 * Model output and tool data are untrusted, so only absolute `http:`, `https:` and `mailto:`
 * URLs pass. The check runs on what the browser would navigate to: the WHATWG URL parser drops
 * the tabs, newlines and control characters that hide `java\tscript:`, lower-cases the scheme
 * (`JaVaScRiPt:`), and rejects relative and protocol-relative (`//host`) URLs, which have no
 * meaning in a chat message. The parsed, normalised URL is what is returned, so the value that
 * was checked is the value the page uses.
 */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

/**
 * `urlTransform` for react-markdown: `safeHref` for every URL in the rendered tree, except the
 * in-page `#…` links GFM footnotes generate (recognised by their footnote attributes, never by
 * the URL alone, so a model-written `[x](#…)` still gets no `href`).
 */
export const markdownUrlTransform: UrlTransform = (url, key, node) => {
  if (
    key === 'href' &&
    url.startsWith('#') &&
    (node.properties.dataFootnoteRef !== undefined ||
      node.properties.dataFootnoteBackref !== undefined)
  ) {
    return url;
  }
  return safeHref(url) ?? null;
};

/** The host name of a URL for display ("example.com"), or '' when it has none. */
export function hostnameOf(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    return new URL(value).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}
