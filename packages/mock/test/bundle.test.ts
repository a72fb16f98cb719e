/**
 * What a static import of the mock costs an app's build: a Vite production build of a
 * one-file app, from source, written to memory. Fixtures must only ever arrive as lazy chunks.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { sourceAliases } from '../../../scripts/source-aliases.js';

const VIRTUAL = '\0app-entry';
// Every fixture starts with its header comment; the bodies all carry a `message_start`.
const FIXTURE_BYTES = /: name: |"type":"message_start"|\\"type\\":\\"message_start\\"/;

async function buildApp(code: string): Promise<Rollup.OutputBundle[keyof Rollup.OutputBundle][]> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: fileURLToPath(new URL('..', import.meta.url)),
    resolve: { alias: sourceAliases() },
    plugins: [
      {
        name: 'app-entry',
        resolveId: (id) => (id === 'app-entry' ? VIRTUAL : undefined),
        load: (id) => (id === VIRTUAL ? code : undefined),
      },
    ],
    build: { write: false, rollupOptions: { input: 'app-entry' }, assetsInlineLimit: 0 },
  });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((output) => ('output' in output ? output.output : []));
}

const text = (file: { type: string; code?: string; source?: string | Uint8Array }): string =>
  file.type === 'chunk' ? (file.code ?? '') : String(file.source ?? '');

describe('a static import of the mock in a Vite build', () => {
  it('pulls no fixture bytes when no fixture is used', async () => {
    const files = await buildApp(
      "import { fixtureNames, parseScenario } from '@message-stream/mock';\nconsole.log(fixtureNames, parseScenario('x'));",
    );
    expect(files.map((file) => file.fileName).filter((name) => !name.endsWith('.js'))).toEqual([]);
    const withFixtureBytes = files.filter((file) => FIXTURE_BYTES.test(text(file)));
    expect(withFixtureBytes.map((file) => file.fileName)).toEqual([]);
    const total = files.reduce((sum, file) => sum + text(file).length, 0);
    expect(total).toBeLessThan(100_000);
  }, 60_000);

  it('keeps every fixture in its own lazy chunk when the handlers are used', async () => {
    const files = await buildApp(
      "import { createMockHandlers } from '@message-stream/mock';\nconsole.log(createMockHandlers());",
    );
    const chunks = files.filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
    const entry = chunks.find((chunk) => chunk.isEntry);
    expect(entry && FIXTURE_BYTES.test(entry.code)).toBe(false);
    const fixtureChunks = chunks.filter((chunk) => FIXTURE_BYTES.test(chunk.code));
    // Every .sse file: the fixtures and max-tokens' continuation.
    const sse = readdirSync(new URL('../fixtures/', import.meta.url)).filter((f) =>
      f.endsWith('.sse'),
    );
    expect(fixtureChunks.length).toBe(sse.length);
    expect(fixtureChunks.every((chunk) => entry?.dynamicImports.includes(chunk.fileName))).toBe(
      true,
    );
  }, 60_000);
});
