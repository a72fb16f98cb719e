/**
 * The recorded streams shipped with this package. Each lives in `fixtures/<name>.sse`
 * beside `dist/`, described in `fixtures/catalog.json`.
 */
export const fixtureNames = [] as const;

/** Where a fixture's bytes live, resolved against this package (works in Node and bundlers). */
export function fixtureUrl(name: string): URL {
  return new URL(`../fixtures/${name}.sse`, import.meta.url);
}
