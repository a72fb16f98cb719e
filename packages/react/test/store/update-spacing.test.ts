import { createStreamState, reduceStream, type StreamState } from '@message-stream/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHARS_PER_UPDATE_FRAME, framesBetweenUpdates } from '../../src/store/effects/streaming.js';
import { createScheduler } from '../../src/store/scheduler.js';
import { textAnswerEvents } from './support.js';

afterEach(() => {
  vi.useRealTimers();
});

/** An answer streaming a thinking block of `thinking` characters, then a text of `text`. */
function answer(thinking: number, text: number): StreamState {
  const events: unknown[] = [
    // textAnswerEvents' message_start: the same answer head as the store tests.
    textAnswerEvents('')[0],
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
    {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: 't'.repeat(thinking) },
    },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'text_delta', text: 'x'.repeat(text) },
    },
  ];
  return events.reduce<StreamState>(
    (state, event) => reduceStream(state, event as Parameters<typeof reduceStream>[1]),
    createStreamState(),
  );
}

describe('the spacing of a streaming answer’s updates', () => {
  it('publishes every frame until the answer is long, then one frame more per step of its text', () => {
    expect(framesBetweenUpdates(createStreamState())).toBe(1);
    expect(framesBetweenUpdates(answer(0, 2_000))).toBe(1);
    expect(framesBetweenUpdates(answer(0, CHARS_PER_UPDATE_FRAME - 1))).toBe(1);
    expect(framesBetweenUpdates(answer(0, CHARS_PER_UPDATE_FRAME))).toBe(2);
    expect(framesBetweenUpdates(answer(0, 3 * CHARS_PER_UPDATE_FRAME))).toBe(4);
    // The thinking is read again each update too.
    expect(framesBetweenUpdates(answer(CHARS_PER_UPDATE_FRAME, 10))).toBe(2);
  });

  it('waits the periods it is told before it flushes, and starts counting again after', () => {
    vi.useFakeTimers();
    let periods = 3;
    const flush = vi.fn();
    const scheduler = createScheduler(16, flush, () => periods);
    scheduler.request();
    vi.advanceTimersByTime(16 * 2);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(1);
    // A request meanwhile waits its own periods, counted from the flush.
    scheduler.request();
    vi.advanceTimersByTime(16 * 2);
    expect(flush).toHaveBeenCalledTimes(1);
    // Cancelled part way, the next request waits them all again.
    scheduler.cancel();
    scheduler.request();
    vi.advanceTimersByTime(16 * 2);
    expect(flush).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(2);
    // A short answer again: every period.
    periods = 1;
    scheduler.request();
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(3);
  });

  it('flushes at once when it does not coalesce, whatever the spacing', () => {
    const flush = vi.fn();
    createScheduler(false, flush, () => 5).request();
    expect(flush).toHaveBeenCalledTimes(1);
  });
});
