import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumArgs, chromiumExecutablePath } from './scripts/chromium.js';
import { sourceAliases } from './scripts/source-aliases.js';

const chromium = playwright({
  launchOptions: { executablePath: chromiumExecutablePath, args: [...chromiumArgs] },
});

// Every project imports `@message-stream/*` from source: an edit is seen without a build.
const resolve = { alias: sourceAliases() };

// The mock's fixture modules (one string each, up to 4 MB) load natively in Node projects:
// Vitest's module transform would parse each one as code, ~2 s for the largest.
const server = { deps: { external: [/\/fixtures\/[^/]+\.sse\.js$/] } };

// One Vitest run, one project per package and environment: `pnpm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      // Every story in .storybook as a test in Chromium (render, play function, axe).
      './vitest.storybook.config.ts',
      {
        resolve,
        test: {
          name: 'core',
          server,
          root: 'packages/core',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.dom.test.ts'],
          environment: 'node',
        },
      },
      {
        // A DOM (window, document) so the browser transport, fetch-event-source, runs.
        resolve,
        test: {
          name: 'core-dom',
          server,
          root: 'packages/core',
          include: ['test/**/*.dom.test.ts'],
          environment: 'jsdom',
        },
      },
      {
        resolve,
        test: {
          name: 'mock',
          server,
          root: 'packages/mock',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/fixture-modules.ts'],
        },
      },
      {
        resolve,
        plugins: [react()],
        test: {
          name: 'react',
          server,
          root: 'packages/react',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/**/*.browser.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['test/setup.ts'],
        },
      },
      {
        // The component tests again, in a real browser: layout, focus and events as users get them.
        resolve,
        plugins: [react()],
        test: {
          name: 'react-browser',
          root: 'packages/react',
          setupFiles: ['test/setup.ts'],
          include: ['test/components/**/*.test.tsx', 'test/**/*.browser.test.{ts,tsx}'],
          browser: {
            enabled: true,
            headless: true,
            provider: chromium,
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      {
        // Bundle-size budgets per package (bench/src/size.ts), on the built dist.
        resolve,
        test: {
          name: 'bench',
          server,
          root: 'bench',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // The demo end to end: built once and served (globalSetup), driven in Debian's Chromium.
        resolve,
        test: {
          name: 'e2e',
          server,
          root: 'apps/demo',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The packed tarballs in apps a stranger would make (a Vite app from the react README,
        // examples/nextjs), installed outside the workspace, built and driven in Chromium.
        resolve,
        test: {
          name: 'consumer',
          server,
          root: 'tests/consumer',
          include: ['*.test.ts'],
          environment: 'node',
          globalSetup: ['global-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
