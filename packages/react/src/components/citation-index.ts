import type { BlockState, Citation } from '@message-stream/core';
import { hostnameOf, safeHref } from '../markdown/url.js';
import { isPlainObject, stringOr } from './format.js';

/** One cited source, numbered once per answer. */
export interface CitedSource {
  /** 1-based: the number its markers show. */
  readonly number: number;
  /** Identity: the URL, or the document, that several citations can share. */
  readonly key: string;
  readonly title: string;
  /** The source's address when it passed the allowlist (`safeHref`). */
  readonly href: string | undefined;
  /** "example.com", or '' when the source has no address. */
  readonly host: string;
  /** The passages cited from it, each once, in the order they were cited. */
  readonly quotes: readonly string[];
}

/** The sources of an answer, numbered in order of first citation. */
export interface CitationIndex {
  readonly sources: readonly CitedSource[];
  /** The number of the source a citation points to (0 if it is not a citation object). */
  numberOf(citation: unknown): number;
}

function sourceKey(citation: Record<string, unknown>, fallback: number): string {
  const url = stringOr(citation.url) ?? stringOr(citation.source);
  if (url) return `url:${url}`;
  if (typeof citation.document_index === 'number') return `doc:${citation.document_index}`;
  const title = stringOr(citation.title) ?? stringOr(citation.document_title);
  return title ? `title:${title}` : `n:${fallback}`;
}

/** Numbers the sources of several citation lists (an answer's text blocks) in one sequence. */
export function indexCitations(
  lists: ReadonlyArray<readonly Citation[] | null | undefined>,
): CitationIndex {
  const byKey = new Map<string, { source: CitedSource; quotes: string[] }>();
  const numbers = new WeakMap<object, number>();
  let position = 0;
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const citation of list as unknown[]) {
      position++;
      if (!isPlainObject(citation)) continue;
      const key = sourceKey(citation, position);
      let entry = byKey.get(key);
      if (!entry) {
        const url = stringOr(citation.url) ?? stringOr(citation.source);
        const href = safeHref(url);
        const host = href ? hostnameOf(href) : '';
        const number = byKey.size + 1;
        const quotes: string[] = [];
        const title =
          stringOr(citation.title) ??
          stringOr(citation.document_title) ??
          (host || `Source ${number}`);
        entry = { source: { number, key, title, href, host, quotes }, quotes };
        byKey.set(key, entry);
      }
      const quote = stringOr(citation.cited_text)?.trim();
      if (quote && !entry.quotes.includes(quote)) entry.quotes.push(quote);
      numbers.set(citation, entry.source.number);
    }
  }
  const sources = [...byKey.values()].map((entry) => entry.source);
  return {
    sources,
    numberOf: (citation) => (isPlainObject(citation) ? (numbers.get(citation) ?? 0) : 0),
  };
}

/** The citation lists of an answer's text blocks, in block order. */
export function citationListsOf(blocks: readonly BlockState[]): Array<readonly Citation[]> {
  const lists: Array<readonly Citation[]> = [];
  for (const block of blocks) {
    const fields: unknown = block?.block;
    if (isPlainObject(fields) && fields.type === 'text' && Array.isArray(fields.citations)) {
      lists.push(fields.citations as Citation[]);
    }
  }
  return lists;
}
