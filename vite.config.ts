import { defineConfig } from 'vitest/config';

// One Vitest run, one project per package and environment: `pnpm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.dom.test.ts'],
          environment: 'node',
        },
      },
      {
        // A DOM (window, document) so the browser transport, fetch-event-source, runs.
        test: {
          name: 'core-dom',
          root: 'packages/core',
          include: ['test/**/*.dom.test.ts'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
