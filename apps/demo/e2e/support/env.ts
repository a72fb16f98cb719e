import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** apps/demo, where its vite.config.ts and index.html are. */
export const DEMO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A port nothing listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('No free port.'))));
    });
  });
}

/**
 * Runs `run` with some environment variables set (a string) or removed (undefined), and puts
 * the previous values back afterwards. The demo's vite.config.ts reads the API key and base
 * URL from the environment while the config resolves and the server is created.
 */
export async function withEnv<T>(
  values: Readonly<Record<string, string | undefined>>,
  run: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (next: Readonly<Record<string, string | undefined>>) => {
    for (const [name, value] of Object.entries(next)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  try {
    return await run();
  } finally {
    apply(saved);
  }
}
