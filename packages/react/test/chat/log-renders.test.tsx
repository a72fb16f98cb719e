import { act, render, screen, waitFor, within } from '@testing-library/react';
import { memo, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { TurnGroupProps } from '../../src/chat/turn-group.js';
import { ChatStream, createChatStore } from '../../src/index.js';
import { textAnswer } from '../store/support.js';

// Which groups of the log render, by the index of their first turn: the real `TurnGroup`,
// behind its own comparison, with a count in front.
const groupRenders: number[] = [];
vi.mock('../../src/chat/turn-group.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/chat/turn-group.js')>();
  const inner = original.TurnGroup as unknown as {
    type: (props: TurnGroupProps) => ReactElement;
    compare: (a: TurnGroupProps, b: TurnGroupProps) => boolean;
  };
  return {
    ...original,
    TurnGroup: memo(function CountedTurnGroup(props: TurnGroupProps) {
      groupRenders.push(props.start);
      return inner.type(props);
    }, inner.compare),
  };
});

/** 20 questions and answers: 40 turns, five groups of eight. */
const history = Array.from({ length: 20 }, (_, i) => [
  { role: 'user' as const, content: `Question ${i + 1}` },
  { role: 'assistant' as const, content: `Answer ${i + 1}` },
]).flat();

/** A fetch whose one answer streams what the test writes, when it writes it. */
function heldAnswer() {
  const encoder = new TextEncoder();
  let write: (text: string) => void = () => {};
  let end: () => void = () => {};
  const fetch: typeof globalThis.fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          write = (text) => controller.enqueue(encoder.encode(text));
          end = () => controller.close();
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  return { fetch, write: (text: string) => write(text), end: () => end() };
}

describe('a send in a long log', () => {
  it('re-renders the groups that changed, not the others, and still tells every message it is busy', async () => {
    const answer = heldAnswer();
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 1024 },
      initialMessages: history,
      fetch: answer.fetch,
      batch: false,
    });
    render(<ChatStream store={store} />);
    const log = screen.getByRole('log', { name: 'Conversation' });
    const groups = () => [...log.querySelectorAll('.ms-chat__turns')] as HTMLElement[];
    expect(groups()).toHaveLength(5);
    const olderEdit = () =>
      within(groups()[3] as HTMLElement).getAllByRole('button', { name: 'Edit' })[0] as HTMLElement;
    expect((olderEdit() as HTMLButtonElement).disabled).toBe(false);

    groupRenders.length = 0;
    await act(async () => {
      void store.getState().send('One more question');
    });
    await waitFor(() => expect(store.getState().status).toBe('submitted'));
    // The new turns start a sixth group; the fifth is no longer the live one, the fourth no
    // longer among the eager ones. The first three have the same turns and render not at all.
    expect(groups()).toHaveLength(6);
    expect(new Set(groupRenders)).toEqual(new Set([24, 32, 40]));
    // Yet a mounted earlier question knows a request is under way: its Edit waits.
    expect((olderEdit() as HTMLButtonElement).disabled).toBe(true);

    await act(async () => {
      answer.write(textAnswer('Done.'));
      answer.end();
    });
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect((olderEdit() as HTMLButtonElement).disabled).toBe(false);
    // The previous newest answer is history now: the new one alone is the last.
    const last = log.querySelectorAll('.ms-message--assistant[data-last]');
    expect(last).toHaveLength(1);
    expect(last[0]?.textContent).toContain('Done.');
  });
});
