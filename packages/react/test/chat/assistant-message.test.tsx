import {
  createStreamState,
  endStream,
  reduceStream,
  type StreamEvent,
  type StreamState,
} from '@message-stream/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AssistantMessage, type AssistantTurn } from '../../src/index.js';
import { textAnswerEvents } from '../store/support.js';

afterEach(cleanup);

const paragraphs = (n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1}.`).join('\n\n');
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

// An answer with no text: its first two events start it, the rest end it.
const empty = textAnswerEvents('', 'msg_1') as unknown as StreamEvent[];
const start = empty.slice(0, 2);
const end = empty.slice(2);
const delta = (text: string): StreamEvent => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text },
});
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
    let commits = 0;
    const counted = (stream: StreamState) => (
      <Profiler id="answer" onRender={() => commits++}>
        <AssistantMessage turn={turnOf(stream)} actions={actions} />
      </Profiler>
    );
    const streaming = apply(createStreamState(), [...start, delta(paragraphs(3))]);
    const view = render(counted(streaming));
    commits = 0;
    view.rerender(counted(apply(streaming, end)));
    expect(answer().dataset.status).toBe('complete');
    expect(footer()).not.toBeNull();
    // No second commit to say so.
    expect(commits).toBe(1);
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
