import { describe, expect, it } from 'vitest';
import type { TokenizeResult } from '../../src/highlight/protocol.js';
import { type CodeStyle, decodeLines, lineTokens } from '../../src/highlight/runs.js';
import { TokenizeSessions } from '../../src/highlight/session.js';
import type { CodeTokenLine, LineTokenizer } from '../../src/highlight/tokens.js';

/** A fake grammar whose state counts open `{`; every call is counted per line text. */
function countingTokenizer() {
  const calls = new Map<string, number>();
  const tokenize: LineTokenizer<number> = (line, state = 0) => {
    calls.set(line, (calls.get(line) ?? 0) + 1);
    const depth = state + (line.split('{').length - 1) - (line.split('}').length - 1);
    return {
      tokens: [{ content: line, light: `#0000${String(depth).padStart(2, '0')}` }],
      state: depth,
    };
  };
  return { calls, tokenize: tokenize as LineTokenizer<unknown> };
}

/** Runs the sessions by hand: `step()` runs one scheduled slice; the clock moves 1 ms per read. */
function harness(tokenize: LineTokenizer<unknown>) {
  const results: TokenizeResult[] = [];
  const queue: (() => void)[] = [];
  let clock = 0;
  const sessions = new TokenizeSessions({
    load: async () => tokenize,
    post: (result) => results.push(result),
    schedule: (run) => queue.push(run),
    now: () => clock++,
  });
  const ran = { slices: 0 };
  const step = () => {
    const run = queue.shift();
    if (run) ran.slices++;
    run?.();
  };
  return { sessions, results, queue, step, ran };
}

/** What the page assembles from the results, as `CodeTokensSource` does, read back as tokens. */
function assemble(results: readonly TokenizeResult[]): CodeTokenLine[] {
  const finished: CodeTokenLine[] = [];
  let styles: CodeStyle[] = [];
  for (const result of results) {
    if (result.type !== 'tokens') continue;
    expect(result.start).toBe(finished.length);
    styles = [...styles.slice(0, result.stylesFrom), ...result.styles];
    for (const line of decodeLines(result.lines, [])) finished.push(lineTokens(line, styles));
  }
  return finished;
}

describe('TokenizeSessions', () => {
  it('tokenizes each finished line of a streaming 2,000-line block once, never again', async () => {
    const { calls, tokenize } = countingTokenizer();
    const { sessions, results, queue, step, ran } = harness(tokenize);
    // Every line's text is unique, so calls can be counted per line.
    const lines = Array.from({ length: 2000 }, (_, i) =>
      i % 50 === 0 ? `function f${i}() {` : i % 50 === 49 ? `} // ${i}` : `  const v${i} = ${i};`,
    );
    const code = `${lines.join('\n')}\n`;
    await Promise.resolve(); // nothing loaded yet: the first update starts the load
    let sent = 0;
    sessions.receive({ type: 'update', id: 1, language: 'ts', mode: 'append', text: '' });
    await Promise.resolve();
    await Promise.resolve();
    // Deltas of 1 to 37 characters, a slice between some of them, as a stream would interleave.
    for (let n = 0; sent < code.length; n++) {
      const size = 1 + ((n * 7) % 37);
      sessions.receive({
        type: 'update',
        id: 1,
        language: 'ts',
        mode: 'append',
        text: code.slice(sent, sent + size),
      });
      sent += size;
      if (n % 3 === 0) step();
    }
    while (queue.length > 0) step();

    // Each line is tokenized once when finished. Before that, a slice may have tokenized it as
    // the growing last line (a text of its own unless the line was complete then): one such
    // call per slice at most, so never a finished line again.
    let extra = 0;
    for (const [i, line] of lines.entries()) {
      const count = calls.get(line) ?? 0;
      expect(count, `line ${i}`).toBeGreaterThanOrEqual(1);
      expect(count, `line ${i}`).toBeLessThanOrEqual(2);
      extra += count - 1;
    }
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(lines.length + ran.slices);
    expect(extra).toBeLessThanOrEqual(ran.slices);
    const finished = assemble(results);
    expect(finished.map((line) => line.map((t) => t.content).join(''))).toEqual(lines);
    // The state carried across lines: inside a function the depth is 1.
    expect(finished[1]?.[0]?.light).toBe('#000001');
    expect(finished[49]?.[0]?.light).toBe('#000000');
  });

  it('never sends a finished line twice, and sends the tail only when it changed', async () => {
    const { tokenize } = countingTokenizer();
    const { sessions, results, queue, step } = harness(tokenize);
    sessions.receive({ type: 'update', id: 7, language: 'ts', mode: 'reset', text: 'a {\n  b' });
    await Promise.resolve();
    await Promise.resolve();
    while (queue.length > 0) step();
    sessions.receive({ type: 'update', id: 7, language: 'ts', mode: 'append', text: '' });
    while (queue.length > 0) step();
    sessions.receive({ type: 'update', id: 7, language: 'ts', mode: 'append', text: 'c\n}\n' });
    while (queue.length > 0) step();
    const tokens = results.filter((r) => r.type === 'tokens');
    expect(tokens.map((r) => [r.start, r.lines.ends.length, r.tail?.text])).toEqual([
      [0, 1, '  b'],
      [1, 2, ''],
    ]);
  });

  it('answers plain for a language that does not load, and starts over on a reset', async () => {
    const results: TokenizeResult[] = [];
    const queue: (() => void)[] = [];
    const { tokenize } = countingTokenizer();
    const sessions = new TokenizeSessions({
      load: async (language) => (language === 'ts' ? tokenize : null),
      post: (result) => results.push(result),
      schedule: (run) => queue.push(run),
    });
    sessions.receive({ type: 'update', id: 1, language: 'nope', mode: 'reset', text: 'x\n' });
    sessions.receive({ type: 'update', id: 2, language: 'ts', mode: 'reset', text: 'one\ntwo\n' });
    await Promise.resolve();
    await Promise.resolve();
    while (queue.length > 0) queue.shift()?.();
    sessions.receive({ type: 'update', id: 2, language: 'ts', mode: 'reset', text: 'three\n' });
    while (queue.length > 0) queue.shift()?.();
    expect(results[0]).toEqual({ type: 'plain', id: 1 });
    const second = results.filter((r) => r.type === 'tokens' && r.id === 2);
    expect(second.map((r) => r.type === 'tokens' && [r.start, r.lines.ends.length])).toEqual([
      [0, 2],
      [0, 1],
    ]);
  });
});
