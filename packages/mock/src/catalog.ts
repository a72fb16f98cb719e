/**
 * The fixture catalog: metadata is plain data (synchronous, tiny); the text of a fixture is
 * loaded on demand, because two of them are large (`long-markdown` 330 KB,
 * `large-tool-input` 4.2 MB) and most users need one or two.
 *
 * How the text is found, with no bundler plugin to add: each fixture is a string module
 * (`fixtures/<file>.js`) behind its own literal `import()` (see `catalog-data.ts`). Node reads
 * it as any module; every bundler (Vite, webpack, Turbopack, esbuild) makes it a lazy chunk,
 * and a build that keeps no code loading fixtures keeps none of their bytes.
 */
import type { MessageRequest } from '@message-stream/core';
import {
  catalogData,
  continuationModules,
  type FixtureName,
  fixtureModules,
  fixtureNames,
} from './catalog-data.js';

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

const cache = new Map<string, Promise<string>>();

/**
 * A fixture's text, exactly as the file holds it (header comments included). Cached per
 * name once loaded; a failed load is not cached.
 */
export function loadFixture(name: string): Promise<string> {
  let text = cache.get(name);
  if (text === undefined) {
    text = importFixture(name);
    cache.set(name, text);
    text.catch(() => cache.delete(name));
  }
  return text;
}

/**
 * The rest of a fixture's answer past its end (`max-tokens` has one: what Continue gets), or
 * undefined for a fixture that ends for good.
 */
export async function loadContinuation(name: string): Promise<string | undefined> {
  const load = isFixtureName(name) ? continuationModules[name] : undefined;
  return load === undefined ? undefined : (await load()).default;
}

async function importFixture(name: string): Promise<string> {
  if (!isFixtureName(name)) throw unknownFixture(name);
  try {
    return (await fixtureModules[name]()).default;
  } catch (error) {
    // In a source checkout the modules are generated (by `pnpm install` or the build).
    throw new Error(
      `Could not load fixture "${name}": ${(error as Error).message}. In a clone of the repository, run \`pnpm install\` (it writes fixtures/*.sse.js).`,
      { cause: error },
    );
  }
}

function unknownFixture(name: string): Error {
  return new Error(`Unknown fixture "${name}". Known fixtures: ${fixtureNames.join(', ')}.`);
}
