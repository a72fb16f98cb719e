/**
 * `storybook build` makes the static docs site a user browses: a Getting started page (the
 * react README's own sections), a Components page and an autodocs page per story file, each
 * component's props table generated from its TypeScript types.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, run } from './support.js';

describe('pnpm build-storybook', () => {
  const out = mkdtempSync(join(tmpdir(), 'message-stream-storybook-'));
  let assets = '';

  beforeAll(() => {
    run(REPO, `pnpm exec storybook build --quiet --output-dir ${out}`, process.env);
    assets = readdirSync(join(out, 'assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(out, 'assets', file), 'utf8'))
      .join('\n');
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes a static site with the docs pages first', () => {
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining(['index.html', 'iframe.html', 'index.json', 'mockServiceWorker.js']),
    );
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as {
      entries: Record<string, { type: string; title: string }>;
    };
    const docs = Object.values(index.entries).filter((entry) => entry.type === 'docs');
    expect(docs.slice(0, 2).map((entry) => entry.title)).toEqual(['Getting started', 'Components']);
    // An autodocs page for every story file of a component.
    const titles = docs.map((entry) => entry.title);
    for (const title of ['Chat/ChatStream', 'Chat/Composer', 'Components/ToolCallCard']) {
      expect(titles).toContain(title);
    }
  });

  it('shows the README quick start on the Getting started page', () => {
    const readme = readFileSync(join(REPO, 'packages/react/README.md'), 'utf8');
    expect(readme).toContain('npx msw init public --save');
    // The page renders the README text itself, so the two cannot drift apart.
    expect(assets).toContain('npx msw init public --save');
    expect(assets).toContain('pnpm add -D @types/react @types/react-dom');
  });

  it('has a props table from the types for every exported component', async () => {
    const components = readFileSync(join(REPO, '.storybook/docs/components.mdx'), 'utf8');
    const listed = [...components.matchAll(/<ArgTypes of=\{(?:kit|threads)\.(\w+)\} \/>/g)].map(
      (m) => m[1],
    );
    // The entries with components: the main one and threads.
    const kit = {
      ...(await import('@message-stream/react')),
      ...(await import('@message-stream/react/threads')),
    };
    // Components: capitalised exports that are not error classes.
    const exported = Object.entries(kit)
      .filter(([name]) => /^[A-Z][a-z]/.test(name))
      .filter(([, value]) => !(typeof value === 'function' && value.prototype instanceof Error))
      .map(([name]) => name);
    expect([...listed].sort()).toEqual(exported.sort());
    for (const name of listed) {
      expect(assets, `docgen for ${name}`).toMatch(new RegExp(`displayName:\`${name}\``));
    }
    // Each prop carries its doc comment, e.g. ChatStream's `store`.
    expect(assets).toMatch(/A store to share the conversation with other components/);
  });
});
