import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

// Debian's Chromium: no test tool may download a browser of its own.
const chromium = playwright({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
});

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
      {
        test: {
          name: 'mock',
          root: 'packages/mock',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'react',
          root: 'packages/react',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/**/*.browser.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['test/setup.ts'],
        },
      },
      {
        // The component tests again, in a real browser: layout, focus and events as users get them.
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
    ],
  },
});
