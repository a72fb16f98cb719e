// The README's "Conversations" examples, read from the README and run as written.
import 'fake-indexeddb/auto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const fixtures = join(import.meta.dirname, '../../../mock/fixtures');
const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Conversations'), readme.indexOf('## Components'));
const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);

/** What each example prints, in order (its `// …` comments say the same). */
const printed: unknown[][] = [
  ['complete'],
  [{ index: 1, count: 2 }, true],
  [2],
  [expect.stringMatching(/^code\.zip cannot be attached: you can attach images/)],
  [
    'type',
    {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: '# Notes' },
      title: 'notes.md',
    },
  ],
  [['Untitled', 'Lisbon']],
  [2],
  [['unanswered_tool_use']],
];

describe('README: Conversations', () => {
  const realFetch = globalThis.fetch;
  beforeAll(() => {
    // The mock loads its fixtures by URL (an http one under jsdom): serve them from disk.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      const name = /\/fixtures\/([\w-]+\.sse)$/.exec(url)?.[1];
      if (name !== undefined) return new Response(readFileSync(join(fixtures, name), 'utf8'));
      return realFetch(input, init);
    });
  });
  afterAll(() => vi.unstubAllGlobals());

  it('has one runnable example per feature', () => {
    expect(blocks).toHaveLength(printed.length);
  });

  it.each(blocks.map((code, i) => [i, code] as const))(
    'example %i runs as written',
    async (i, code) => {
      const logged: unknown[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((value: unknown) => {
        logged.push(value);
      });
      // Inside the package (ignored by git) so Vite resolves and transforms it like a test file.
      const dir = join(import.meta.dirname, '../../node_modules/.cache/readme-examples');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `conversations-${i}.ts`);
      writeFileSync(file, code);
      try {
        await import(/* @vite-ignore */ file);
      } finally {
        log.mockRestore();
      }
      expect(logged).toEqual(printed[i]);
    },
  );
});
