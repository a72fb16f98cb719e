// Regenerates src/catalog-data.ts from fixtures/catalog.json:
//   node packages/mock/test/support/generate-catalog.mjs
// The catalog test fails when the two disagree. Each fixture gets its own literal
// `import('../fixtures/<file>.js')` (modules written by scripts/fixture-modules.mjs): every
// bundler makes that a lazy chunk, and drops it when no code that loads fixtures is kept.
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
  "/** Each fixture's text, as a lazy module per file (a literal specifier bundlers can see). */",
);
lines.push(
  'export const fixtureModules: Record<FixtureName, () => Promise<{ default: string }>> = {',
);
for (const entry of catalog) {
  lines.push(`  ${JSON.stringify(entry.name)}: () => import('../fixtures/${entry.file}.js'),`);
}
lines.push(
  '};',
  '',
  '/**',
  ' * The rest of an answer past its end, for the fixtures that have one: what a continuation',
  ' * request (Continue after `max_tokens`) gets once the partial answer is the whole fixture.',
  ' */',
  'export const continuationModules: Partial<',
  '  Record<FixtureName, () => Promise<{ default: string }>>',
  '> = {',
);
for (const entry of catalog.filter((entry) => entry.continuation)) {
  lines.push(
    `  ${JSON.stringify(entry.name)}: () => import('../fixtures/${entry.continuation}.js'),`,
  );
}
lines.push('};', '');
writeFileSync(new URL('src/catalog-data.ts', root), lines.join('\n'));
