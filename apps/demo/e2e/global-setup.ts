/**
 * Vitest globalSetup of the e2e project: builds the demo once (mock mode, into a temporary
 * directory) and serves the build with `vite preview` on a free port of 127.0.0.1. Tests get
 * the URL with `inject('demoUrl')`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type PreviewServer, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { DEMO_ROOT, freePort, withEnv } from './support/env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built demo, served by `vite preview`: `http://127.0.0.1:<port>/`. */
    demoUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'message-stream-demo-e2e-'));
  let server: PreviewServer | undefined;
  try {
    // No key while building: with one, the page would be built for the live proxy.
    await withEnv({ ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined }, () =>
      build({
        root: DEMO_ROOT,
        configFile: join(DEMO_ROOT, 'vite.config.ts'),
        mode: 'production',
        logLevel: 'error',
        build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 100_000 },
      }),
    );
    // The mock lives in a service worker: the build must ship it, and the big fixtures as
    // lazy chunks of their own (string modules, see the mock's catalog).
    if (!existsSync(join(outDir, 'mockServiceWorker.js'))) {
      throw new Error(`The demo build has no mockServiceWorker.js (in ${outDir}).`);
    }
    const assets = readdirSync(join(outDir, 'assets'));
    for (const name of ['long-markdown', 'large-tool-input']) {
      if (!assets.some((file) => file.startsWith(`${name}.sse-`) && file.endsWith('.js'))) {
        throw new Error(`The demo build has no ${name} fixture chunk: ${assets.join(', ')}`);
      }
    }

    const port = await freePort();
    server = await preview({
      root: DEMO_ROOT,
      configFile: join(DEMO_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port, strictPort: true, open: false },
    });
    project.provide('demoUrl', `http://127.0.0.1:${port}/`);
  } catch (error) {
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }

  return async () => {
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
  };
}
