// Every TypeScript block of every README, run as written: a node-side block is imported (its
// top-level code runs against the mock), a component it exports is rendered, a fetch handler
// it exports is called. Editing a README example edits this test.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockHandlers } from '@message-stream/mock';
import { act, cleanup, render } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { createElement, type FunctionComponent } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blockModule, READMES, type ReadmeBlock, readmeBlocks } from './readme-blocks.js';
import { runCollected } from './vitest-shim.js';

const shim = join(dirname(fileURLToPath(import.meta.url)), 'vitest-shim.ts');

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const readmes = READMES;
// Inside the react package, so the blocks resolve react, msw and the kit as its tests do.
const scratch = join(repo, 'packages/react/.readme-blocks');

// The READMEs send to the API's path and to an app's own proxy route.
const server = setupServer(
  ...createMockHandlers(),
  ...createMockHandlers({ path: '*/api/messages' }),
);
beforeAll(() => {
  process.env.ANTHROPIC_API_KEY ??= 'sk-ant-readme-test';
  mkdirSync(scratch, { recursive: true });
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => {
  server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const isComponentName = (name: string): boolean => /^[A-Z]/.test(name) && name !== 'POST';

async function runBlock(block: ReadmeBlock): Promise<void> {
  const file = join(
    scratch,
    `${relative(repo, block.file).replace(/[/.]/g, '_')}_L${block.line}.${block.lang}`,
  );
  const isTestFile = /from 'vitest'/.test(block.code);
  // A block that starts its own MSW server (a test-setup example) gets the interceptor alone.
  const ownServer = /from 'msw\/node'/.test(block.code);
  const code = blockModule(block).replace(/from 'vitest'/g, `from '${shim}'`);
  writeFileSync(file, code);
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
  if (ownServer) server.close();
  try {
    const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    if (isTestFile) {
      expect((await runCollected()).length, 'the example declares tests').toBeGreaterThan(0);
    }
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function') continue;
      if (name === 'POST') {
        const response = await (value as (request: Request) => Promise<Response>)(
          new Request('http://localhost:3000/api/messages', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              model: 'claude-sonnet-4-5',
              max_tokens: 256,
              messages: [{ role: 'user', content: 'Hi' }],
            }),
          }),
        );
        expect(response.status, `${name} answers the kit's request`).toBe(200);
        await response.text();
      } else if (isComponentName(name) || name === 'default') {
        const view = render(createElement(value as FunctionComponent));
        await act(async () => {});
        expect(
          view.container.textContent?.length ?? 0,
          `${name} renders something`,
        ).toBeGreaterThan(0);
        cleanup();
      }
    }
  } finally {
    quiet.mockRestore();
    if (ownServer) server.listen({ onUnhandledRequest: 'error' });
  }
}

for (const readme of readmes) {
  const blocks = readmeBlocks(join(repo, readme));
  describe(readme, () => {
    it('has examples that run', () => {
      expect(blocks.filter((b) => b.run).length).toBeGreaterThan(0);
    });
    for (const block of blocks.filter((b) => b.run)) {
      it(`runs the ${block.lang} block at line ${block.line} (${basename(readme)})`, {
        timeout: 30_000,
      }, async () => {
        await runBlock(block);
      });
    }
  });
}
