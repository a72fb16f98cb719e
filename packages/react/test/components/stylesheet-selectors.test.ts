import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** The package's stylesheets, as written. */
const SHEETS = ['styles.css', 'content.css', 'conversation.css'].map((name) => ({
  name,
  css: readFileSync(join(source, name), 'utf8'),
}));

/** Every selector of a stylesheet: the comma-separated parts before each `{` that opens a rule. */
function selectorsOf(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const selectors: string[] = [];
  for (const match of text.matchAll(/([^{};]+)\{/g)) {
    const prelude = (match[1] as string).trim();
    if (prelude.startsWith('@') || prelude === '') continue;
    let depth = 0;
    let part = '';
    for (const char of prelude) {
      if (char === '(') depth++;
      if (char === ')') depth--;
      if (char === ',' && depth === 0) {
        selectors.push(part.trim());
        part = '';
      } else part += char;
    }
    selectors.push(part.trim());
  }
  return selectors;
}

/** A selector's compounds, left to right, split at the combinators outside parentheses. */
function compoundsOf(selector: string): string[] {
  const compounds: string[] = [];
  let depth = 0;
  let part = '';
  for (const char of selector.replace(/\s+/g, ' ')) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (depth === 0 && (char === ' ' || char === '>' || char === '+' || char === '~')) {
      if (part.trim() !== '') compounds.push(part.trim());
      part = '';
    } else part += char;
  }
  if (part.trim() !== '') compounds.push(part.trim());
  return compounds;
}

const STRUCTURAL =
  /:(?:first-child|last-child|only-child|nth-child|nth-last-child|first-of-type|last-of-type|nth-of-type|nth-last-of-type)/;

describe('the stylesheets', () => {
  it('read the selectors they are checked by', () => {
    const all = SHEETS.flatMap((sheet) => selectorsOf(sheet.css));
    expect(all).toContain('.ms-markdown__group > :first-child');
    expect(all).toContain(
      '.ms-text--cited > .ms-markdown > .ms-markdown__group--open > p:last-child',
    );
    expect(all.length).toBeGreaterThan(200);
    expect(compoundsOf('.a:last-child > :is(p, ul) + .b')).toEqual([
      '.a:last-child',
      ':is(p, ul)',
      '.b',
    ]);
  });

  // Chromium keeps, per structural pseudo-class, what to restyle under an element whose place
  // among its siblings changes; one on a compound with more selector after it makes that a
  // search of all under every such element. Each new code line then searched the one before,
  // and a paragraph after a code block the whole block: 5-30 ms at the end of a 5,000-line
  // answer (the paced 5,000-line row of `pnpm bench`).
  it('put structural pseudo-classes only on the element a rule styles', () => {
    const offending = SHEETS.flatMap(({ name, css }) =>
      selectorsOf(css)
        .filter((selector) =>
          compoundsOf(selector)
            .slice(0, -1)
            .some((c) => STRUCTURAL.test(c)),
        )
        .map((selector) => `${name}: ${selector}`),
    );
    expect(offending).toEqual([]);
  });

  // A class that changes (the group that grows is `--open`, and loses it when the next group
  // starts) restyles what its rules select under it; a selector that names nothing there (no
  // element, class or attribute after the class) makes that everything under it: closing a
  // group restyled all its blocks (3-7 ms, each 32 blocks of a long answer).
  it('select only named elements under a class that changes', () => {
    const CHANGING = /\.ms-markdown__group--(?:open|heading-last)\b/;
    const offending = SHEETS.flatMap(({ name, css }) =>
      selectorsOf(css)
        .filter((selector) => {
          const compounds = compoundsOf(selector);
          const at = compounds.findIndex((c) => CHANGING.test(c));
          if (at < 0 || at === compounds.length - 1) return false;
          // What is left of the last compound without its pseudo-classes, `:is(…)` and
          // `:where(…)` kept: an element, class, attribute or id, there or in their list.
          const subject = (compounds.at(-1) as string).replace(
            /:(?!is\(|where\()[\w-]+(?:\([^)]*\))?/g,
            '',
          );
          return !/(?:^|[(,\s])[a-z]|[.#[]/i.test(subject);
        })
        .map((selector) => `${name}: ${selector}`),
    );
    expect(offending).toEqual([]);
  });
});
