import {
  createStreamState,
  mergeContinuation,
  reduceStream,
  type StreamEvent,
  type StreamState,
} from '@message-stream/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/store/create-chat-store.js';
import { createTextAppends } from '../../src/store/text-appends.js';
import { appendedSince, forgetAppends } from '../../src/text-growth.js';
import { offsetAfter, scriptedFetch, sse, textAnswer, textAnswerEvents } from './support.js';

/** textAnswerEvents' message_start: the same answer head as the store tests. */
const start = textAnswerEvents('')[0] as StreamEvent;
const block = (index: number, type: 'text' | 'thinking'): StreamEvent =>
  ({
    type: 'content_block_start',
    index,
    content_block: type === 'text' ? { type, text: '' } : { type, thinking: '', signature: '' },
  }) as StreamEvent;
const text = (index: number, value: string): StreamEvent =>
  ({
    type: 'content_block_delta',
    index,
    delta: { type: 'text_delta', text: value },
  }) as StreamEvent;

const thought = (index: number, value: string): StreamEvent =>
  ({
    type: 'content_block_delta',
    index,
    delta: { type: 'thinking_delta', thinking: value },
  }) as StreamEvent;
const thinkingOf = (state: StreamState, position: number) =>
  (state.message?.content[position]?.block as { thinking?: string } | undefined)?.thinking;

/** Reduces `events`, telling the tracker of each, as the store's stream does. */
function run(
  appends: ReturnType<typeof createTextAppends>,
  state: StreamState,
  events: StreamEvent[],
): StreamState {
  let next = state;
  for (const event of events) {
    next = reduceStream(next, event);
    appends.event(event, next);
  }
  return next;
}

const textOf = (state: StreamState, position: number) =>
  (state.message?.content[position]?.block as { text?: string } | undefined)?.text as string;

describe('text appends of a streaming answer', () => {
  it('records what each text block gained between two published states', () => {
    const appends = createTextAppends();
    const first = run(appends, createStreamState(), [
      start,
      block(0, 'text'),
      text(0, 'Hello'),
      block(1, 'text'),
      text(1, 'Other'),
    ]);
    appends.published(null, first);
    const second = run(appends, first, [text(0, ', wor'), text(1, ' block'), text(0, 'ld')]);
    appends.published(first, second);
    expect(appendedSince(textOf(second, 0), textOf(first, 0))).toBe(', world');
    expect(appendedSince(textOf(second, 1), textOf(first, 1))).toBe(' block');
    // Each publish starts afresh.
    const third = run(appends, second, [text(0, '!')]);
    appends.published(second, third);
    expect(appendedSince(textOf(third, 0), textOf(second, 0))).toBe('!');
    expect(appendedSince(textOf(third, 1), textOf(second, 1))).toBeUndefined();
  });

  it('records what a thinking block gained, apart from a text block at the same time', () => {
    const appends = createTextAppends();
    const first = run(appends, createStreamState(), [
      start,
      block(0, 'thinking'),
      thought(0, 'Let me see'),
      block(1, 'text'),
    ]);
    appends.published(null, first);
    const second = run(appends, first, [thought(0, ' what'), text(1, 'Hi'), thought(0, ' fits')]);
    appends.published(first, second);
    expect(thinkingOf(second, 0)).toBe('Let me see what fits');
    expect(appendedSince(thinkingOf(second, 0) as string, thinkingOf(first, 0) as string)).toBe(
      ' what fits',
    );
    expect(appendedSince(textOf(second, 1), textOf(first, 1))).toBe('Hi');
  });

  it('records nothing for a state published before its event was told (a wrong append)', () => {
    // A delta of the same length as the one before: lengths alone would not tell them apart.
    const appends = createTextAppends();
    const first = run(appends, createStreamState(), [start, block(0, 'text'), text(0, 'abc')]);
    appends.published(null, first);
    const second = reduceStream(first, text(0, 'def'));
    appends.published(first, second);
    appends.event(text(0, 'def'), second);
    expect(appendedSince(textOf(second, 0), textOf(first, 0))).toBeUndefined();
  });

  it('records nothing for a delta to a block without text', () => {
    const appends = createTextAppends();
    const first = run(appends, createStreamState(), [
      start,
      block(0, 'thinking'),
      block(1, 'text'),
    ]);
    appends.published(null, first);
    const second = run(appends, first, [text(0, 'not for thinking'), text(1, 'yes')]);
    appends.published(first, second);
    expect(second.diagnostics.some((d) => d.code === 'delta_type_mismatch')).toBe(true);
    expect(appendedSince(textOf(second, 1), textOf(first, 1))).toBe('yes');
    // The thinking block has no text: nothing to find, nothing recorded for index 0.
    expect(textOf(second, 0)).toBeUndefined();
  });

  it('records nothing across a second message_start, or for a view that is not the raw state', () => {
    const appends = createTextAppends();
    const first = run(appends, createStreamState(), [start, block(0, 'text'), text(0, 'abc')]);
    appends.published(null, first);
    // A spliced retry whose new text is exactly as long as the old one plus the deltas since
    // the last publish: only knowing that a message started again keeps it from a record.
    const second = run(appends, first, [
      text(0, 'xyz'),
      {
        ...start,
        message: { ...(start as { message: object }).message, id: 'msg_2' },
      } as StreamEvent,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'QQQQQQ' } },
    ]);
    appends.published(first, second);
    expect(textOf(second, 0)).toBe('QQQQQQ');
    expect(appendedSince(textOf(second, 0), textOf(first, 0))).toBeUndefined();

    // A view of its own (a merged one): the texts the events made are recorded all the same,
    // and truly, whatever is shown.
    const third = run(appends, second, [text(0, 'g')]);
    appends.published(second, { ...third });
    expect(appendedSince(textOf(third, 0), textOf(second, 0))).toBe('g');
  });
});

describe('text appends of a continued answer (a merged view)', () => {
  const head = 'The sky is blue because light scatters';
  const interrupted = [start, block(0, 'text'), text(0, head)].reduce(
    reduceStream,
    createStreamState(),
  );
  const merged = (continuation: StreamState) =>
    mergeContinuation(interrupted, continuation, { strategy: 'user-message' });

  it('records the text joined at the seam as the last one plus the append', () => {
    const appends = createTextAppends();
    let state = run(appends, createStreamState(), [start, block(0, 'text'), text(0, ' light')]);
    let shown = merged(state);
    appends.published(null, shown);
    const steps: { before: string; after: string; gained: string | undefined }[] = [];
    for (const piece of [' scatters off', ' the air', ' more for blue', '.']) {
      state = run(appends, state, [text(0, piece)]);
      const next = merged(state);
      appends.published(shown, next);
      const before = textOf(shown, 0);
      const after = textOf(next, 0);
      steps.push({ before, after, gained: appendedSince(after, before) });
      shown = next;
    }
    expect(textOf(shown, 0)).toBe(`${head} off the air more for blue.`);
    // The restated words were held back, then dropped: that update is not a plain append.
    expect(steps[0]?.gained).toBeUndefined();
    for (const step of steps.slice(1))
      expect(step.gained).toBe(step.after.slice(step.before.length));
    expect(steps.slice(1).every((step) => step.after.startsWith(step.before))).toBe(true);
  });

  // The store records an update's appends before it merges (streaming.ts), so the merge can
  // grow the joined text by the append instead of reading the continuation's text again.
  it('records the continuation’s appends at made(), before the merge that reads them', () => {
    forgetAppends(); // the journal is shared: earlier tests recorded these very texts
    const appends = createTextAppends();
    let state = run(appends, createStreamState(), [start, block(0, 'text'), text(0, ' light')]);
    appends.made();
    let shown = mergeContinuation(interrupted, state, { strategy: 'user-message', appendedSince });
    appends.published(null, shown);
    for (const piece of [' scatters off', ' the air', ' more for blue', '.']) {
      const before = textOf(state, 0);
      state = run(appends, state, [text(0, piece)]);
      expect(appendedSince(textOf(state, 0), before)).toBeUndefined();
      appends.made();
      // Known before any merge ran.
      expect(appendedSince(textOf(state, 0), before)).toBe(piece);
      const next = mergeContinuation(interrupted, state, {
        strategy: 'user-message',
        appendedSince,
      });
      expect(textOf(next, 0)).toBe(textOf(merged(state), 0));
      appends.published(shown, next);
      shown = next;
    }
    expect(textOf(shown, 0)).toBe(`${head} off the air more for blue.`);
  });

  it('records nothing on a joined text that did not grow by the append', () => {
    const appends = createTextAppends();
    // Still all inside the interrupted text's end: held back, shown as the interrupted text.
    let state = run(appends, createStreamState(), [start, block(0, 'text'), text(0, ' light')]);
    let shown = merged(state);
    appends.published(null, shown);
    state = run(appends, state, [text(0, ' sca')]);
    const held = merged(state);
    appends.published(shown, held);
    expect(textOf(held, 0)).toBe(head);
    expect(appendedSince(textOf(held, 0), textOf(shown, 0))).toBeUndefined();
    shown = held;
    // The restatement ends: the seam drops it, a different change from the append.
    state = run(appends, state, [text(0, 'tters, and')]);
    const next = merged(state);
    appends.published(shown, next);
    expect(textOf(next, 0)).toBe(`${head}, and`);
    expect(appendedSince(textOf(next, 0), textOf(shown, 0))).toBeUndefined();
  });

  it('records nothing on a shown text that was not joined from the block that grew', () => {
    const appends = createTextAppends();
    let state = run(appends, createStreamState(), [start, block(0, 'text'), text(0, 'abc')]);
    const shown = { ...state, message: { ...state.message, content: [] } } as StreamState;
    appends.published(null, shown);
    state = run(appends, state, [text(0, 'XYZ')]);
    // A view whose first text grew by as many characters, but is no join of block 0.
    const fake = (value: string) =>
      ({
        ...state,
        message: {
          ...state.message,
          content: [{ index: 0, status: 'streaming', block: { type: 'text', text: value } }],
        },
      }) as StreamState;
    const before = fake('abc');
    const after = fake('abcQRS');
    appends.published(before, after);
    expect(appendedSince('abcQRS', 'abc')).toBeUndefined();
    // What the events made is still recorded, truly.
    expect(appendedSince(textOf(state, 0), 'abc')).toBe('XYZ');
  });

  // Any split of any continuation, published in any batches: a record on a merged text is
  // always what it gained, and once the seam is decided every update is recorded.
  const words = ['sky', 'blue', 'light', 'scatters', 'the', ' ', '. ', '\n', 'é'];
  it('never records a wrong append on a merged text, and records once the seam is decided', () => {
    fc.assert(
      fc.property(
        fc.nat(30),
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 40 }),
        (restated, rest, cuts, batches) => {
          const tail = head.slice(head.length - restated) + rest.join(' ');
          const appends = createTextAppends();
          let state = run(appends, createStreamState(), [start, block(0, 'text')]);
          let shown = merged(state);
          appends.published(null, shown);
          let at = 0;
          let cut = 0;
          let batch = 0;
          let unrecorded = 0;
          while (at < tail.length) {
            // Decided: what was sent is no longer in the interrupted text (none of it is held
            // back or may be dropped), so from here each update only appends.
            const decided = at > 0 && !head.includes(tail.slice(0, at));
            const events: StreamEvent[] = [];
            for (let k = 0; k < (batches[batch++ % batches.length] as number); k++) {
              const piece = tail.slice(at, at + (cuts[cut++ % cuts.length] as number));
              at += piece.length;
              if (piece !== '') events.push(text(0, piece));
            }
            state = run(appends, state, events);
            const next = merged(state);
            appends.published(shown, next);
            const before = textOf(shown, 0);
            const after = textOf(next, 0);
            const gained = appendedSince(after, before);
            if (gained !== undefined) expect(before + gained).toBe(after);
            else if (decided) unrecorded++;
            shown = next;
          }
          expect(unrecorded).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the chat store’s published texts', () => {
  it('records each update correctly when every event is published (batch: false)', async () => {
    const answer = 'Deltas of seven characters each, all alike in length. '.repeat(8);
    const { fetch } = scriptedFetch(() => sse(textAnswer(answer)));
    const store = createChatStore({ request: { model: 'm', max_tokens: 64 }, fetch, batch: false });
    let before: string | undefined;
    let recorded = 0;
    store.subscribe((state) => {
      const turn = state.turns.at(-1);
      if (turn?.role !== 'assistant' || turn.stream.status !== 'streaming') return;
      const value = (turn.stream.message?.content[0]?.block as { text?: string } | undefined)?.text;
      if (typeof value !== 'string' || value === before) return;
      if (before !== undefined) {
        const gained = appendedSince(value, before);
        // Recorded or not, never wrong: a record is what the update really added.
        if (gained !== undefined) {
          expect(gained).toBe(value.slice(before.length));
          recorded++;
        }
      }
      before = value;
    });
    await store.getState().send('Hi');
    expect(recorded).toBeGreaterThan(10);
  });

  it('records each update of a streaming text as the one before plus what it gained', async () => {
    const answer = 'A longer answer, sent in many small deltas. '.repeat(40);
    const { fetch } = scriptedFetch(() => sse(textAnswer(answer)));
    const store = createChatStore({ request: { model: 'm', max_tokens: 64 }, fetch, batch: 1 });
    const texts: string[] = [];
    // Asked as each update is published, as the view asks while it renders it.
    const gained: (string | undefined)[] = [];
    store.subscribe((state) => {
      const turn = state.turns.at(-1);
      if (turn?.role !== 'assistant' || turn.stream.status !== 'streaming') return;
      const value = (turn.stream.message?.content[0]?.block as { text?: string } | undefined)?.text;
      if (typeof value !== 'string' || value === texts.at(-1)) return;
      const before = texts.at(-1);
      if (before !== undefined) gained.push(appendedSince(value, before));
      texts.push(value);
    });
    await store.getState().send('Hi');
    // Several updates, each recorded against the one before: a view reads only the new part.
    expect(texts.length).toBeGreaterThan(3);
    expect(gained).toEqual(
      texts.slice(1).map((text, i) => text.slice((texts[i] as string).length)),
    );
    expect(texts.at(-1)?.length).toBeLessThanOrEqual(answer.length);
  });

  it('records the final update too, so drawing the ended answer reads only its end', async () => {
    const body = textAnswer('The answer, and then its last words.');
    // The last text delta and the end in one read: the final state has text no update showed.
    const cut = body.lastIndexOf('event: content_block_delta');
    const { fetch } = scriptedFetch(() => {
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(body.slice(0, cut)));
          await new Promise((resolve) => setTimeout(resolve, 30));
          controller.enqueue(encoder.encode(body.slice(cut)));
          controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    const store = createChatStore({ request: { model: 'm', max_tokens: 64 }, fetch, batch: 1 });
    let streaming: string | undefined;
    let ended: { text: string; gained: string | undefined } | undefined;
    store.subscribe((state) => {
      const turn = state.turns.at(-1);
      if (turn?.role !== 'assistant') return;
      const value = (turn.stream.message?.content[0]?.block as { text?: string } | undefined)?.text;
      if (typeof value !== 'string') return;
      if (turn.stream.status === 'streaming') streaming = value;
      else if (streaming !== undefined && ended === undefined) {
        // Asked as the ended answer is published, as the view asks while it draws it.
        ended = { text: value, gained: appendedSince(value, streaming) };
      }
    });
    await store.getState().send('Hi');
    expect(ended?.text).toBe('The answer, and then its last words.');
    expect(streaming?.length).toBeLessThan(ended?.text.length ?? 0);
    expect(ended?.gained).toBe(ended?.text.slice(streaming?.length));
  });

  it('records each update of a resumed answer as the one before plus what it gained', async () => {
    // No sentence twice: what follows the cut is nowhere in the text before it.
    const answer = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of a resumed answer. `).join(
      '',
    );
    const events = sse(textAnswer(answer));
    const full = await events.text();
    const { fetch } = scriptedFetch(() =>
      sse(full, { cutAt: offsetAfter(full, 'text_delta', 40) }),
    );
    const store = createChatStore({ request: { model: 'm', max_tokens: 64 }, fetch, batch: 1 });
    await store.getState().send('Hi');
    expect(store.getState().status).toBe('interrupted');
    const turn = store.getState().turns.at(-1);
    const partial =
      turn?.role === 'assistant'
        ? ((turn.stream.message?.content[0]?.block as { text?: string } | undefined)?.text ?? '')
        : '';
    // The model is unnamed, so the continuation is asked for by a user message (a seam).
    const resumed = scriptedFetch(() => sse(textAnswer(answer.slice(partial.length))));
    store.setOptions({ request: { model: 'm', max_tokens: 64 }, fetch: resumed.fetch, batch: 1 });
    const texts: string[] = [];
    const gained: (string | undefined)[] = [];
    store.subscribe((state) => {
      const last = state.turns.at(-1);
      if (last?.role !== 'assistant' || last.stream.status !== 'streaming') return;
      const value = (last.stream.message?.content[0]?.block as { text?: string } | undefined)?.text;
      if (typeof value !== 'string' || value === texts.at(-1)) return;
      const before = texts.at(-1);
      if (before !== undefined) gained.push(appendedSince(value, before));
      texts.push(value);
    });
    await store.getState().resume();
    expect(texts.length).toBeGreaterThan(5);
    // Each update of the merged text after the first: recorded, and what it really gained.
    expect(gained.slice(1)).toEqual(
      texts.slice(2).map((text, i) => text.slice((texts[i + 1] as string).length)),
    );
    expect(texts.every((text) => text.startsWith(partial))).toBe(true);
  });
});
