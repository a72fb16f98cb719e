// Every runnable TypeScript block of every README, type-checked as a user's strict project
// would: a block that runs can still name an export that does not exist (an import of a
// missing name is `undefined` under Vitest, and a loop that never ran never calls it) or
// leave a parameter untyped, which a reader's `tsc` refuses.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { blockModule, READMES, readmeBlocks } from './readme-blocks.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const readmes = READMES;
// Inside the react package, so the blocks resolve the kit, react and msw as its code does.
const scratch = join(repo, 'packages/react/.readme-types');
const tsc = join(repo, 'node_modules/typescript/bin/tsc');

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README examples', () => {
  it('type-check under strict settings, against the built packages', { timeout: 120_000 }, () => {
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    let files = 0;
    for (const readme of readmes) {
      for (const block of readmeBlocks(join(repo, readme)).filter((b) => b.run)) {
        const name = `${relative(repo, block.file).replace(/[/.]/g, '_')}_L${block.line}`;
        writeFileSync(join(scratch, `${name}.${block.lang}`), blockModule(block));
        files++;
      }
    }
    expect(files).toBeGreaterThan(10);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        extends: '../tsconfig.json',
        compilerOptions: {
          noEmit: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          types: ['node', 'vite/client'],
        },
        include: ['./*.ts', './*.tsx'],
      }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', join(scratch, 'tsconfig.json')], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // Each error names the README and the line of the block's fence (…_README_md_L242.ts).
    expect(output).toBe('');
  });

  it('excerpts (no-run) parse, and import what they call of the kit', async () => {
    // An excerpt is not type-checked (it uses the reader's own names), but a reader pastes it
    // into a file: it must parse as TypeScript (a `key: value,` line alone does not), and a
    // function or component of the kit that it calls must be imported in it.
    const entries = [
      '@message-stream/core',
      '@message-stream/core/proxy',
      '@message-stream/react',
      '@message-stream/mock/node',
    ];
    const kit = new Set<string>();
    for (const entry of entries) {
      for (const [name, value] of Object.entries(await import(entry))) {
        if (typeof value === 'function' || /^[A-Z_]+$/.test(name)) kit.add(name);
      }
    }
    const problems: string[] = [];
    for (const readme of readmes) {
      for (const block of readmeBlocks(join(repo, readme)).filter((b) => !b.run)) {
        const imported = new Set(
          [
            ...block.code.matchAll(
              /(?:import|const)\s*(?:type\s*)?\{([^}]*)\}\s*(?:from|=\s*await\s+import)/g,
            ),
          ].flatMap((m) =>
            (m[1] ?? '').split(',').map((name) => name.replace(/^\s*type\s+/, '').trim()),
          ),
        );
        for (const name of kit) {
          const used = new RegExp(`(?<![.\\w$])(${name}\\s*\\(|<${name}\\b|\\.\\.\\.${name}\\b)`);
          if (used.test(block.code) && !imported.has(name)) {
            problems.push(`${readme}:${block.line}: uses ${name} without importing it`);
          }
        }
        const { diagnostics = [] } = ts.transpileModule(block.code, {
          fileName: `excerpt.${block.lang}`,
          reportDiagnostics: true,
          compilerOptions: { jsx: ts.JsxEmit.ReactJSX },
        });
        for (const d of diagnostics) {
          const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
          problems.push(`${readme}:${block.line}: TS${d.code} ${text}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
