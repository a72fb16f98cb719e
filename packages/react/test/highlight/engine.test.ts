import type { GrammarState, ThemedTokenWithVariants } from 'shiki/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  againWhenCutShort,
  createLineTokenizer,
  toCodeTokens,
  WORKER_RETRY_BUDGETS,
} from '../../src/highlight/engine.js';

/** A Shiki run with its light and dark colours. */
const run = (content: string, light: string, dark: string): ThemedTokenWithVariants => ({
  content,
  offset: 0,
  variants: { light: { color: light, fontStyle: 0 }, dark: { color: dark, fontStyle: 0 } },
});

const plain = { light: '#1f2328', dark: '#e6edf3' };

describe('toCodeTokens', () => {
  it("leaves the themes' default colour out and joins blanks to their neighbours", () => {
    const tokens = toCodeTokens(
      [
        run('const', '#CF222E', '#FF7B72'),
        run(' ', '#1F2328', '#E6EDF3'),
        run('x', '#0550AE', '#79C0FF'),
        run(' ', '#1F2328', '#E6EDF3'),
        run('=', '#CF222E', '#FF7B72'),
        run(' input[', '#1F2328', '#E6EDF3'),
        run('1', '#0550AE', '#79C0FF'),
        run('];', '#1F2328', '#E6EDF3'),
      ],
      plain,
    );
    expect(tokens).toEqual([
      { content: 'const ', light: '#cf222e', dark: '#ff7b72', italic: false },
      { content: 'x ', light: '#0550ae', dark: '#79c0ff', italic: false },
      { content: '=', light: '#cf222e', dark: '#ff7b72', italic: false },
      { content: ' input[', light: undefined, dark: undefined, italic: false },
      { content: '1', light: '#0550ae', dark: '#79c0ff', italic: false },
      { content: '];', light: undefined, dark: undefined, italic: false },
    ]);
  });

  it('draws a run Shiki left uncoloured (a line too long to tokenize) as plain text', () => {
    expect(toCodeTokens([run('x'.repeat(10), '', '')], plain)).toEqual([
      { content: 'xxxxxxxxxx', light: undefined, dark: undefined, italic: false },
    ]);
  });

  it('keeps both colours of a run that is the default in one theme only', () => {
    expect(toCodeTokens([run('x', '#1F2328', '#79C0FF')], plain)).toEqual([
      { content: 'x', light: '#1f2328', dark: '#79c0ff', italic: false },
    ]);
  });
});

describe('againWhenCutShort', () => {
  /** Passes of `costMs` each on a fake clock, cut short as `cuts` says (the last from then on). */
  function passes(cuts: boolean[], costMs: number) {
    let clock = 0;
    let calls = 0;
    const tokenize = () => {
      clock += costMs;
      const cutShort = cuts[Math.min(calls, cuts.length - 1)] ?? false;
      return { result: ++calls, cutShort };
    };
    return { tokenize, now: () => clock, calls: () => calls };
  }

  // [what it shows, whether each pass is cut short (the last from then on), each pass's cost,
  // the budget, what it returns]: `result` is the number of passes taken.
  it.each([
    [
      'keeps a whole pass, however long it took',
      [false],
      150,
      2000,
      { result: 1, cutShort: false },
    ],
    [
      'with no budget (a line known to be slow), keeps a cut-short pass and says so',
      [true, false],
      150,
      undefined,
      { result: 1, cutShort: true },
    ],
    [
      'tokenizes again while passes come back cut short, more than three times within the budget',
      [true, true, true, true, true, false],
      120,
      2000,
      { result: 6, cutShort: false },
    ],
    // 7 × 150 ms is the first total at or over 1,000 ms.
    [
      'stops once the passes have taken the budget, and says the last was cut short',
      [true],
      150,
      1000,
      { result: 7, cutShort: true },
    ],
  ] as const)('%s', (_, cuts, costMs, budget, expected) => {
    const { tokenize, now, calls } = passes([...cuts], costMs);
    expect(againWhenCutShort(tokenize, now, budget)).toEqual(expected);
    expect(calls()).toBe(expected.result);
  });
});

describe('createLineTokenizer', () => {
  /**
   * The tokenizer as a browser runs it, in the Worker with its long budgets: its colours are
   * what the tests compare with, so a loaded machine must not cut its lines short.
   */
  const realTs = () => createLineTokenizer('ts', undefined, WORKER_RETRY_BUDGETS);

  /** The real tokenizer once TypeScript counts as compiled (it has tokenized a line). */
  async function compiledTs() {
    const real = await realTs();
    real?.('const compiled = true;', undefined);
    return real;
  }

  /** Ends inside its parameter list when whole; the next line's `return a` is a parameter. */
  const OPEN_PARAMETERS = 'function add(a: number,';
  /** The next line's runs and light colours, from the state `state` handed on. */
  async function nextLineFrom(state: GrammarState | undefined) {
    const real = await realTs();
    return (real?.('  return a;', state).tokens ?? []).map((t) => [t.content, t.light]);
  }
  const AFTER_WHOLE = [
    ['  return a', '#953800'],
    [';', undefined],
  ];
  const AFTER_CUT = [
    ['  return', '#cf222e'],
    [' a;', undefined],
  ];

  /**
   * Stalls the grammar's own clock (the tokenizer times a pass with `Date.now`) while
   * `stalled()` holds: each read is a second later, so a pass stops at its first check and
   * comes back cut short, as on a machine that stalled it.
   */
  function stallGrammarWhile(stalled: () => boolean) {
    const real = Date.now;
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => {
      if (stalled()) offset += 1000;
      return real() + offset;
    });
  }
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // On a busy machine compiling the grammar took longer than the limit and this line came back
  // in one colour after `const`; on a quick one it passes either way.
  it("colours the grammar's first line as the compiled grammar does", async () => {
    const tokenize = await realTs();
    expect(tokenize).not.toBeNull();
    const { tokens } = tokenize?.('const answer = 42;', undefined) ?? { tokens: [] };
    expect(tokens.map((t) => [t.content, t.light])).toEqual([
      ['const ', '#cf222e'],
      ['answer ', '#0550ae'],
      ['= ', '#cf222e'],
      ['42', '#0550ae'],
      [';', undefined],
    ]);
  }, 20_000);

  // On an overloaded machine every pass over the first line came back cut short inside its
  // parameter list, and the next line started there: `  return a` drawn as one parameter.
  it('starts the line after a cut-short line from the state before it, not from the cut', async () => {
    let clock = 0;
    const slow = await createLineTokenizer('ts', () => (clock += 100));
    const real = await realTs();
    const afterWhole = real?.(OPEN_PARAMETERS, undefined);
    let stalled = true;
    stallGrammarWhile(() => stalled);
    const afterCut = slow?.(OPEN_PARAMETERS, undefined);
    stalled = false;
    expect(afterCut).toBeDefined();
    expect(afterWhole).toBeDefined();
    // Whole, the first line ends inside the parameter list, where `return a` is a parameter.
    expect(await nextLineFrom(afterWhole?.state)).toEqual(AFTER_WHOLE);
    // Cut short, its state is the one it started from: `return` is the keyword again.
    expect(await nextLineFrom(afterCut?.state)).toEqual(AFTER_CUT);
  }, 20_000);

  // A pass times both themes, each against the limit: two whole passes of 60 ms looked like one
  // of 120 ms cut short, so a whole line was tokenized again for the budget and then handed on
  // the state from before it.
  it('keeps a whole line that took long, without passes more', async () => {
    await compiledTs();
    let reads = 0;
    // Every pass looks 150 ms long; the grammar finishes the line.
    const long = await createLineTokenizer('ts', () => ++reads * 150);
    const afterLong = long?.(OPEN_PARAMETERS, undefined);
    // One read to begin; a whole pass ends it, however long it took.
    expect(reads).toBe(1);
    expect(await nextLineFrom(afterLong?.state)).toEqual(AFTER_WHOLE);
  }, 20_000);

  // CI's and a clean clone's failures came on overloaded machines, in the Worker, where a pass
  // more only holds the colours: there the budgets outlast what the main thread's allow.
  it("outlasts in the Worker a second-long stall that the main thread's budget gives up on", async () => {
    await compiledTs();
    let t = 0;
    /** Every read a tenth of a second later until a second has passed; the grammar stalls as long. */
    const stalling = () => (t += t < 1000 ? 100 : 0);
    stallGrammarWhile(() => t < 1000);
    const onMain = await createLineTokenizer('ts', stalling);
    const inWorker = await createLineTokenizer('ts', stalling, WORKER_RETRY_BUDGETS);
    const onMainState = onMain?.(OPEN_PARAMETERS, undefined).state;
    t = 0;
    const inWorkerState = inWorker?.(OPEN_PARAMETERS, undefined).state;
    // Whole: the next line starts inside the parameter list.
    expect(await nextLineFrom(inWorkerState)).toEqual(AFTER_WHOLE);
    // Kept as cut short: the next line starts where this one did.
    expect(await nextLineFrom(onMainState)).toEqual(AFTER_CUT);
  }, 20_000);

  it('gives a line that is slow in itself one pass once it has spent a budget, as it grows', async () => {
    await compiledTs();
    let reads = 0;
    // Every pass 100 ms long and cut short, for good.
    const slow = await createLineTokenizer('ts', () => ++reads * 100, WORKER_RETRY_BUDGETS);
    stallGrammarWhile(() => true);
    /** Passes over `line`: one read of the clock to begin, one after each pass. */
    const passesOver = (line: string) => {
      reads = 0;
      slow?.(line, undefined);
      return reads - 1;
    };
    // 2 s of passes.
    expect(passesOver('const values = [1, 2, 3,')).toBe(20);
    expect(passesOver('const values = [1, 2, 3, 4,')).toBe(1);
    // A line that does not start with it gets the budget again.
    expect(passesOver('let b = 1;')).toBe(20);
    // A short line is never counted slow (a stall can outlast a budget): what follows it, and
    // starts with it, still gets the budget.
    expect(passesOver('let b = 1; let c = 2;')).toBe(20);
  }, 20_000);

  it("counts a grammar compiled only after a line with something on it (a streaming block's last line is empty first)", async () => {
    let stalling = false;
    let time = 0;
    let reads = 0;
    // Quick until told to stall; then every read 100 ms later until half a second has passed,
    // and the grammar stalls as long.
    const now = () => {
      reads++;
      if (stalling && time < 500) time += 100;
      return time;
    };
    const tokenizer = await createLineTokenizer('python', now, { compileMs: 1000, stallMs: 0 });
    tokenizer?.('', undefined);
    stalling = true;
    stallGrammarWhile(() => time < 500);
    reads = 0;
    tokenizer?.('def area(width, height):', undefined);
    // Still compiling: tried again until a pass is whole (a read to begin, one after each of
    // four passes cut short, then a whole one), where a compiled grammar's budget (none here)
    // would have kept the first pass, cut short.
    expect(reads).toBe(5);
  }, 20_000);

  // CI: a block's first line kept its dark-theme colours cut short after `from`, in a grammar
  // an earlier block had compiled. The machine had stalled the pass, not the line.
  it("tokenizes again a compiled grammar's line that a stall cut short, and keeps it whole", async () => {
    await compiledTs();
    let reads = 0;
    const stalledOnce = await createLineTokenizer('ts', () => ++reads);
    // The first pass (after the first read) stalls; the second does not.
    stallGrammarWhile(() => reads === 1);
    const afterStall = stalledOnce?.(OPEN_PARAMETERS, undefined);
    // A read to begin, one after the pass cut short; the whole one ends it.
    expect(reads).toBe(2);
    // Kept whole: the next line starts inside the parameter list, as after the whole line.
    expect(await nextLineFrom(afterStall?.state)).toEqual(AFTER_WHOLE);
  }, 20_000);
});
