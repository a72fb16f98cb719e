import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenizeRequest, TokenizeResult } from '../../src/highlight/protocol.js';
import { encodeLines, StylePalette } from '../../src/highlight/runs.js';

/** A Worker stand-in: records what the page posts and lets a test answer or fail it. */
class FakeWorker {
  static all: FakeWorker[] = [];
  posted: TokenizeRequest[] = [];
  terminated = 0;
  private listeners = new Map<string, (event: { data?: unknown }) => void>();
  constructor() {
    FakeWorker.all.push(this);
  }
  postMessage(message: TokenizeRequest) {
    this.posted.push(message);
  }
  addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
    this.listeners.set(type, listener);
  }
  terminate() {
    this.terminated++;
  }
  fire(type: string, data?: TokenizeResult) {
    this.listeners.get(type)?.({ data });
  }
}

/** A result as the tokenizer sends it (runs.ts), of one plain run per line. */
const tokens = (id: number, start: number, lines: string[]): TokenizeResult => {
  const palette = new StylePalette();
  return {
    type: 'tokens',
    id,
    start,
    lines: encodeLines(
      lines.map((content) => [{ content }]),
      palette,
    ),
    tail: null,
    stylesFrom: 0,
    styles: palette.styles,
  };
};

describe('CodeTokensSource over a Worker', () => {
  beforeEach(() => {
    vi.resetModules();
    FakeWorker.all = [];
    vi.stubGlobal('Worker', FakeWorker);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.doUnmock('../../src/highlight/session.js');
  });

  const open = async (code: string) => {
    const { CodeTokensSource } = await import('../../src/highlight/client.js');
    const source = new CodeTokensSource('ts');
    source.attach();
    source.update(code);
    const worker = FakeWorker.all[0] as FakeWorker;
    const id = (worker.posted.at(-1) as { id: number }).id;
    return { source, worker, id };
  };

  it('sends only what a recorded append added, without comparing the code', async () => {
    const { source, worker } = await open('const a');
    const { recordAppend } = await import('../../src/text-growth.js');
    // Recorded wrongly on purpose: the source follows the record, so it did not read the code.
    const next = `Xonst a${' = 1;'}`;
    recordAppend(next, 'const a', ' = 1;');
    source.update(next);
    expect(worker.posted.at(-1)).toMatchObject({ type: 'update', mode: 'append', text: ' = 1;' });
    // Unrecorded, the code is compared: grown, its end; changed, all of it again.
    source.update(`${next}\nconst b`);
    expect(worker.posted.at(-1)).toMatchObject({ mode: 'append', text: '\nconst b' });
    source.update('other');
    expect(worker.posted.at(-1)).toMatchObject({ mode: 'reset', text: 'other' });
  });

  it('asks for the whole block again when a result is missing (lines would land out of place)', async () => {
    const { worker, id } = await open('a\nb\nc\n');
    const before = worker.posted.length;
    worker.fire('message', tokens(id, 2, ['c']));
    expect(worker.posted.slice(before)).toEqual([
      { type: 'update', id, language: 'ts', mode: 'reset', text: 'a\nb\nc\n' },
    ]);
  });

  it('hands a burst of coloured lines over a bounded number per frame, the tail once caught up', async () => {
    const { source, worker, id } = await open(`${'x\n'.repeat(300)}tail`);
    const { flushPublishes } = await import('../../src/highlight/publish.js');
    const palette = new StylePalette();
    worker.fire('message', {
      type: 'tokens',
      id,
      start: 0,
      lines: encodeLines(
        Array.from({ length: 300 }, () => [{ content: 'x' }]),
        palette,
      ),
      tail: encodeLines([[{ content: 'tail' }]], palette),
      stylesFrom: 0,
      styles: palette.styles,
    });
    const shown: [number, string | null][] = [];
    for (let frame = 0; frame < 6; frame++) {
      flushPublishes();
      const snapshot = source.getSnapshot();
      shown.push([snapshot?.finished.length ?? 0, snapshot?.tail?.text ?? null]);
    }
    expect(shown).toEqual([
      [64, null],
      [128, null],
      [192, null],
      [256, null],
      [300, 'tail'],
      [300, 'tail'],
    ]);
  });

  it('falls back once, however many failures were queued, and keeps the code', async () => {
    // The main-thread sessions cannot load either: the block stays plain, nothing throws.
    vi.doMock('../../src/highlight/session.js', () => {
      throw new Error('chunk failed to load');
    });
    const { source, worker } = await open('const a = 1;\n');
    worker.fire('error');
    worker.fire('messageerror');
    expect(worker.terminated).toBe(1);
    source.update('const a = 1;\nconst b = 2;\n');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(source.getSnapshot()).toBeNull();
  });
});
