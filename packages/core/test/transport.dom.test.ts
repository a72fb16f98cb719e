import { createRequire } from 'node:module';
import { it } from 'vitest';

it('probe', async () => {
  console.log(
    'fetch',
    String(globalThis.fetch).slice(0, 80),
    typeof window,
    typeof document,
    typeof ReadableStream,
    typeof TransformStream,
    typeof Response,
  );
  const req = createRequire(
    createRequire(import.meta.url).resolve('@message-stream/mock/package.json'),
  );
  for (const id of ['msw', 'msw/node']) {
    try {
      console.log(id, req.resolve(id));
    } catch (e) {
      console.log('fail', id, (e as Error).message);
    }
  }
  const p = req.resolve('msw/node');
  const m = await import(p);
  console.log(Object.keys(m));
  const core = await import(req.resolve('msw'));
  console.log(Object.keys(core).slice(0, 40));
});
