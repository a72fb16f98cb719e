/**
 * Entry: the DevTools hook goes in before anything loads react-dom (it looks for the hook
 * once, when it loads), then the app is loaded and mounted, and `window.__bench` is set.
 */
import { installHook } from './hook.js';

const params = new URLSearchParams(location.search);
const probe = installHook();
const target = window as unknown as { __bench?: unknown; __benchError?: string };

import('./app.js')
  .then(({ mount }) => mount(params, probe))
  .then((bench) => {
    target.__bench = bench;
  })
  .catch((error: unknown) => {
    target.__benchError = String((error as Error)?.stack ?? error);
  });
