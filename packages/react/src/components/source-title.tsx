import type { ReactElement } from 'react';

/**
 * A source's title: a link that opens apart from the chat when its address passed the
 * allowlist (`safeHref`), plain text otherwise. `base` is the BEM block of the list it is
 * in (`ms-citations`, `ms-search-results`), giving `__link` and `__title`.
 */
export function SourceTitle({
  base,
  href,
  title,
}: {
  base: string;
  href: string | null | undefined;
  title: string;
}): ReactElement {
  return href ? (
    <a className={`${base}__link`} href={href} rel="noopener noreferrer" target="_blank">
      {title}
    </a>
  ) : (
    <span className={`${base}__title`}>{title}</span>
  );
}
