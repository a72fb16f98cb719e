import { defineConfig } from 'vitest/config';

// One Vitest run, one project per package: `pnpm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
