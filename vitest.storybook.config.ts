import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineProject } from 'vitest/config';
import { chromiumArgs, chromiumExecutablePath } from './scripts/chromium.js';

const dirname = path.dirname(fileURLToPath(import.meta.url));

/**
 * Every story in .storybook/stories as a test in Debian's Chromium: it renders, its play
 * function passes, and axe finds no violation (`a11y: { test: 'error' }` in preview.tsx).
 * Listed in vite.config.ts's `test.projects`; run alone with `vitest run --project storybook`.
 */
export default defineProject({
  plugins: [storybookTest({ configDir: path.join(dirname, '.storybook') })],
  test: {
    name: 'storybook',
    // A story that streams at a realistic pace takes a few seconds; allow for a slow machine.
    // The 4.2 MB large-tool-input fixture module alone costs the dev server ~10-30 s to serve.
    testTimeout: 120_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: { executablePath: chromiumExecutablePath, args: [...chromiumArgs] },
      }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
    },
  },
});
