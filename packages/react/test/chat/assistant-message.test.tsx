import {
  createStreamState,
  endStream,
  reduceStream,
  type StreamEvent,
  type StreamState,
} from '@message-stream/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AssistantMessage, type AssistantTurn } from '../../src/index.js';

afterEach(cleanup);

const paragraphs = (n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1}.`).join('\n\n');
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

const start: StreamEvent[] = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  } as StreamEvent,
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
];
const delta = (text: string): StreamEvent => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text },
});
const end: StreamEvent[] = [
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 50 },
  } as StreamEvent,
  { type: 'message_stop' },
];

/** The events applied; ending with `message_stop`, the stream is then over (as the transport ends it). */
const apply = (state: StreamState, events: StreamEvent[]) => {
  const next = events.reduce(reduceStream, state);
  return next.stopReceived ? endStream(next) : next;
};
const turnOf = (stream: StreamState): AssistantTurn => ({
  id: 'a1',
  role: 'assistant',
  request: { model: 'claude-opus-5', max_tokens: 1024 },
  stream,
  toolResults: {},
  startedAt: 0,
  finishedAt: stream.status === 'complete' ? 1 : null,
});
const actions = { regenerate: () => {} };
const answer = () => screen.getByRole('article', { name: 'Assistant' });
const footer = () => screen.queryByRole('toolbar', { name: 'Answer actions' });

describe('<AssistantMessage/> at the end of a fast answer', () => {
  it('shows itself finished only once its text is all on the page', async () => {
    const streaming = apply(createStreamState(), [...start, delta(`${paragraphs(1)}\n\n`)]);
    const view = render(<AssistantMessage turn={turnOf(streaming)} actions={actions} />);
    // The rest of the answer, and its end, arrive between two frames.
    const ended = apply(streaming, [delta(paragraphs(12).slice(paragraphs(1).length)), ...end]);
    expect(ended.status).toBe('complete');
    view.rerender(<AssistantMessage turn={turnOf(ended)} actions={actions} />);
    expect(answer().querySelectorAll('.ms-markdown p').length).toBeLessThan(12);
    expect(answer().dataset.status).toBe('streaming');
    expect(footer()).toBeNull();

    for (let i = 0; i < 6; i++) await act(frame);
    expect(answer().querySelectorAll('.ms-markdown p')).toHaveLength(12);
    expect(answer().dataset.status).toBe('complete');
    expect(footer()).not.toBeNull();
  });

  it('marks an answer finished in the same commit when its text is already all shown', () => {
    const streaming = apply(createStreamState(), [...start, delta(paragraphs(3))]);
    const view = render(<AssistantMessage turn={turnOf(streaming)} actions={actions} />);
    view.rerender(<AssistantMessage turn={turnOf(apply(streaming, end))} actions={actions} />);
    expect(answer().dataset.status).toBe('complete');
    expect(footer()).not.toBeNull();
  });

  it('shows a restored (already finished) answer finished at once', () => {
    const done = apply(createStreamState(), [...start, delta(paragraphs(30)), ...end]);
    render(<AssistantMessage turn={turnOf(done)} actions={actions} />);
    expect(answer().querySelectorAll('.ms-markdown p')).toHaveLength(30);
    expect(answer().dataset.status).toBe('complete');
  });

  it('holds its end again when a finished answer streams once more (Continue, Resume)', async () => {
    const done = apply(createStreamState(), [...start, delta(paragraphs(2)), ...end]);
    const view = render(<AssistantMessage turn={turnOf(done)} actions={actions} />);
    expect(answer().dataset.status).toBe('complete');
    const again = { ...done, status: 'streaming' as const };
    view.rerender(<AssistantMessage turn={turnOf(again)} actions={actions} />);
    expect(answer().dataset.status).toBe('streaming');
    expect(footer()).toBeNull();
    // A burst that outruns the display, then the end.
    const longer = apply({ ...again, status: 'streaming' }, [
      delta(`\n\n${paragraphs(14).slice(paragraphs(2).length + 2)}`),
    ]);
    view.rerender(
      <AssistantMessage turn={turnOf({ ...longer, status: 'complete' })} actions={actions} />,
    );
    expect(answer().dataset.status).toBe('streaming');
    for (let i = 0; i < 7; i++) await act(frame);
    expect(answer().querySelectorAll('.ms-markdown p')).toHaveLength(14);
    expect(answer().dataset.status).toBe('complete');
  });
});
