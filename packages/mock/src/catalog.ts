/**
 * The fixture catalog: metadata is plain data (synchronous, tiny); the text of a fixture is
 * loaded on demand, because two of them are large (`long-markdown` 330 KB,
 * `large-tool-input` 4.2 MB) and most users need one or two.
 *
 * How the text is found, with no bundler plugin to add: each fixture has a literal
 * `new URL('../fixtures/<file>', import.meta.url)` (see `catalog-data.ts`).
 * - Node (tests, the replay server): that URL is a `file:` URL, read with `fs/promises`
 *   obtained through `process.getBuiltinModule`, so no bundler ever sees a `node:` import.
 * - Vite (demo, Storybook, Vitest browser mode) and webpack 5: they rewrite that exact
 *   pattern to the URL of an emitted asset (in dev, the file itself), also inside
 *   pre-bundled dependencies; the text is then fetched. Nothing is fetched until asked for.
 */
import type { MessageRequest } from '@message-stream/core';
import { catalogData, type FixtureName, fixtureNames, fixtureUrls } from './catalog-data.js';

export { type FixtureName, fixtureNames };

/** What the catalog says about a fixture: enough to list it or send its request. */
export interface FixtureInfo {
  readonly name: FixtureName;
  /** One sentence: what the stream exercises. */
  readonly description: string;
  /** The request body (with `stream: true`) that the stream answers. */
  readonly request: MessageRequest;
}

/** Every shipped fixture, in catalog order. */
export const fixtures: readonly FixtureInfo[] = fixtureNames.map((name) => ({
  name,
  ...catalogData[name],
}));

/** Whether `name` is a shipped fixture. */
export const isFixtureName = (name: string): name is FixtureName =>
  Object.hasOwn(catalogData, name);

/** A fixture's metadata; throws for an unknown name (the message lists the known ones). */
export function getFixture(name: string): FixtureInfo {
  if (!isFixtureName(name)) throw unknownFixture(name);
  return { name, ...catalogData[name] };
}

/**
 * The request a fixture answers, as a fresh copy without `stream` (`streamMessage` adds
 * it), ready to send or to pass to `continuationRequest`.
 */
export function fixtureRequest(name: string): MessageRequest {
  const { stream: _stream, ...request } = structuredClone(getFixture(name).request);
  return request as MessageRequest;
}

/** Where a fixture's bytes live: a `file:` URL in Node, an asset URL once bundled. */
export function fixtureUrl(name: string): URL {
  if (!isFixtureName(name)) throw unknownFixture(name);
  return fixtureUrls[name]();
}

export interface LoadFixtureOptions {
  /**
   * The fetch used for non-`file:` URLs (browsers). The MSW handlers pass one that marks
   * the request with MSW's `bypass`, so loading a fixture is never itself intercepted.
   */
  readonly fetch?: (url: URL) => Promise<Response>;
}

const cache = new Map<string, Promise<string>>();

/**
 * A fixture's text, exactly as the file holds it (header comments included). Cached per
 * name once loaded; a failed load is not cached.
 */
export function loadFixture(name: string, options: LoadFixtureOptions = {}): Promise<string> {
  let text = cache.get(name);
  if (text === undefined) {
    text = (async () => readText(fixtureUrl(name), options))();
    cache.set(name, text);
    text.catch(() => cache.delete(name));
  }
  return text;
}

/** Reads a URL as UTF-8 text: the file system for `file:`, fetch for anything else. */
export async function readText(url: URL, options: LoadFixtureOptions = {}): Promise<string> {
  if (url.protocol === 'file:') {
    const fs = await nodeFs();
    return fs.readFile(url, 'utf8');
  }
  const response = await (options.fetch ?? ((target: URL) => fetch(target)))(url);
  if (!response.ok) throw new Error(`Could not load fixture ${url.href}: HTTP ${response.status}`);
  return response.text();
}

interface NodeFs {
  readFile(path: URL, encoding: 'utf8'): Promise<string>;
}

/**
 * `fs/promises` without an import a bundler would follow: `process.getBuiltinModule`
 * (Node ≥ 20.16, Bun, Deno), else a dynamic import the bundlers are told to leave alone.
 */
async function nodeFs(): Promise<NodeFs> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const builtin = proc?.getBuiltinModule?.('node:fs/promises') as NodeFs | undefined;
  if (builtin !== undefined) return builtin;
  const specifier = 'node:fs/promises';
  return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as NodeFs;
}

function unknownFixture(name: string): Error {
  return new Error(`Unknown fixture "${name}". Known fixtures: ${fixtureNames.join(', ')}.`);
}
