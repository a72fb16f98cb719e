/**
 * Resolves every `@message-stream/*` import to the package's TypeScript source, so tests,
 * stories, the demo and the bench see an edit anywhere without a rebuild. Derived from each
 * package's own `exports` map (a `./dist/x.js` target becomes `./src/x.ts` or `.tsx`), so a new
 * entry point is picked up without touching this file. The built `dist` stays covered by the
 * size budgets and the packed-tarball consumer test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../packages');

export interface SourceAlias {
  readonly find: RegExp;
  readonly replacement: string;
}

type ExportTarget = string | { readonly import?: string; readonly default?: string } | undefined;

function targetPath(target: ExportTarget): string | undefined {
  if (typeof target === 'string') return target;
  return target?.import ?? target?.default;
}

/** `./dist/a/b.js` → `./src/a/b.ts` (or `.tsx`); `./dist/x.css` → `./src/x.css`; else as is. */
function sourceOf(packageDir: string, target: string): string {
  const match = /^\.\/dist\/(.+?)(\.js|\.css)$/.exec(target);
  if (!match) return join(packageDir, target);
  const [, stem, extension] = match;
  const candidates = extension === '.css' ? [`${stem}.css`] : [`${stem}.ts`, `${stem}.tsx`];
  for (const candidate of candidates) {
    const file = join(packageDir, 'src', candidate);
    if (existsSync(file) || candidate.includes('*')) return file;
  }
  return join(packageDir, target);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function sourceAliases(): SourceAlias[] {
  const aliases: SourceAlias[] = [];
  for (const name of readdirSync(packagesDir)) {
    const packageDir = join(packagesDir, name);
    const manifestFile = join(packageDir, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      name: string;
      exports?: Record<string, ExportTarget>;
    };
    for (const [key, target] of Object.entries(manifest.exports ?? {})) {
      const path = targetPath(target);
      if (!path || key === './package.json') continue;
      const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
      const source = sourceOf(packageDir, path);
      if (specifier.includes('*')) {
        // `./fixtures/*` → one capture group, put back where the target has its `*`.
        const [before, after] = specifier.split('*') as [string, string];
        aliases.push({
          find: new RegExp(`^${escapeRegExp(before)}(.+)${escapeRegExp(after)}$`),
          replacement: source.replace('*', '$1'),
        });
      } else {
        aliases.push({ find: new RegExp(`^${escapeRegExp(specifier)}$`), replacement: source });
      }
    }
  }
  // Longest specifiers first, so `@message-stream/core/proxy` never falls to `…/core`.
  return aliases.sort((a, b) => b.find.source.length - a.find.source.length);
}
