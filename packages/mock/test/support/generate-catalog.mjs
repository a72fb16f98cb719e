// Regenerates src/catalog-data.ts from fixtures/catalog.json:
//   node packages/mock/test/support/generate-catalog.mjs
// The catalog test fails when the two disagree. Each fixture gets its own literal
// `new URL('../fixtures/<file>', import.meta.url)`: bundlers (Vite, webpack) turn exactly that
// pattern into an asset URL, also inside pre-bundled dependencies; a template literal would not be.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const catalog = JSON.parse(readFileSync(new URL('fixtures/catalog.json', root), 'utf8'));
const lines = [
  '// Generated from fixtures/catalog.json by test/support/generate-catalog.mjs; do not edit.',
  "import type { MessageRequest } from '@message-stream/core';",
  '',
  '/** Every fixture shipped in `fixtures/`, in catalog order. */',
  `export const fixtureNames = ${JSON.stringify(catalog.map((entry) => entry.name))} as const;`,
  '',
  '/** The name of a fixture shipped with this package. */',
  'export type FixtureName = (typeof fixtureNames)[number];',
  '',
  '/** Metadata of each fixture (its text is loaded lazily, see `loadFixture`). */',
  'export const catalogData: Record<FixtureName, { description: string; request: MessageRequest }> = {',
];
for (const entry of catalog) {
  lines.push(
    `  ${JSON.stringify(entry.name)}: { description: ${JSON.stringify(entry.description)}, request: ${JSON.stringify(entry.request)} as MessageRequest },`,
  );
}
lines.push(
  '};',
  '',
  '/** Where each fixture lives, as a literal URL per file that bundlers can see. */',
);
lines.push('export const fixtureUrls: Record<FixtureName, () => URL> = {');
for (const entry of catalog) {
  lines.push(
    `  ${JSON.stringify(entry.name)}: () => new URL('../fixtures/${entry.file}', import.meta.url),`,
  );
}
lines.push('};', '');
writeFileSync(new URL('src/catalog-data.ts', root), lines.join('\n'));
