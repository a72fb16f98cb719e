import {
  createStreamState,
  reduceStream,
  type StreamEvent,
  type StreamState,
} from '@message-stream/core';
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/store/create-chat-store.js';
import { createTextAppends } from '../../src/store/text-appends.js';
import { appendedSince } from '../../src/text-growth.js';
import { scriptedFetch, sse, textAnswer, textAnswerEvents } from './support.js';

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

    // A merged view: a state of its own, not the one the last event made.
    const third = run(appends, second, [text(0, 'g')]);
    appends.published(second, { ...third });
    expect(appendedSince(textOf(third, 0), textOf(second, 0))).toBeUndefined();
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
});
