/**
 * The size limits CI enforces (bench/src/size.ts: the issue #6 budget where a package meets
 * it, a no-growth ceiling where it does not yet): each package's min+gzip size, peers
 * excluded, measured with esbuild, minified, gzip -9. Reads the packages' built dist/, so
 * build first (`pnpm test` does).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chunkModules,
  formatKb,
  measureSizes,
  OUR_SPECS,
  SIZE_LIMITS,
  type SizeRow,
} from '../src/size.js';

let rows: SizeRow[] = [];

beforeAll(async () => {
  rows = await measureSizes({ contenders: false });
}, 60_000);

describe('size budgets (min+gzip, 1 kB = 1000 B)', () => {
  it.each(Object.entries(SIZE_LIMITS))('%s stays within its limit', (name, budget) => {
    const row = rows.find((r) => r.name === name);
    expect(row, `no size row named ${name}`).toBeDefined();
    const gzip = row?.gzip ?? Number.POSITIVE_INFINITY;
    expect(
      gzip,
      `${name} is ${formatKb(gzip)} min+gzip (${gzip} B), over its limit of ${formatKb(budget)} (${budget} B)`,
    ).toBeLessThanOrEqual(budget);
  });
});

describe("react's main entry", () => {
  // What a first paint does not need. Everything that draws a message is one chunk
  // (packages/react/src/chat/message-parts-body.ts), with the markdown renderer; inside it, the
  // open tool card, the JSON view and the server tool results (tool-parts.ts), the code block's
  // body with its highlighting's client (code-block-body.tsx) and the citations are chunks of
  // their own. Persistence (its backends and the checks of what is read back) is a chunk asked
  // for when a store with `persist` is created. A static import of any of them from the shell
  // would pull it back.
  const react = (path: string) => `packages/react/dist/${path}`;
  const ON_DEMAND = [
    'chat/assistant-message.js',
    'chat/user-message.js',
    'components/content-block-view.js',
    'components/text-block-view.js',
    'components/tool-call-card.js',
    'components/code-block.js',
    'markdown/streaming-markdown.js',
    'markdown/markdown-chunk-view.js',
    'markdown/split.js',
    'components/code-block-body.js',
    'components/citations-body.js',
    'components/json-view-body.js',
    'components/tool-call-panel.js',
    'components/server-tool-result-body.js',
    'components/web-search-results-body.js',
    'components/resume-control.js',
    'components/json-view.js',
    'components/server-tool-result-view.js',
    'components/attachment-preview-body.js',
    'store/attachments.js',
    'store/effects/persistence.js',
    'store/effects/restore.js',
    'highlight/client.js',
    'highlight/tokens.js',
  ].map(react);
  // In entries of their own: the main entry does not reach them at all.
  const OTHER_ENTRIES = ['store/create-thread-store.js', 'components/thread-list-body.js'].map(
    react,
  );

  it('loads what draws messages, the tool parts and attachments on demand', async () => {
    const spec = OUR_SPECS.find((s) => s.name === '@message-stream/react');
    expect(spec, 'no size spec for @message-stream/react').toBeDefined();
    const { entry, lazy } = await chunkModules(spec as (typeof OUR_SPECS)[number]);
    expect(entry.filter((module) => ON_DEMAND.includes(module))).toEqual([]);
    for (const module of ON_DEMAND) expect(lazy).toContain(module);
    for (const module of OTHER_ENTRIES) expect([...entry, ...lazy]).not.toContain(module);
    // What stays in the entry: the shell, the store, the wrappers that load the rest, and the
    // notice of an error that came before any message could be drawn (it must show when the
    // network does not). Resume and Retry sit in an answer, which draws with the chunk.
    for (const module of [
      'chat/chat-stream.js',
      'chat/composer.js',
      'chat/message-parts.js',
      'store/create-chat-store.js',
      'components/stream-error-notice.js',
    ]) {
      expect(entry).toContain(react(module));
    }
  }, 60_000);
});
