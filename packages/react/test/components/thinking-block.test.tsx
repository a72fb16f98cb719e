import type { BlockState, StreamState } from '@message-stream/core';
import redactedThinking from '@message-stream/mock/fixtures/redacted-thinking.sse?raw';
import specThinking from '@message-stream/mock/fixtures/spec-thinking.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThinkingBlockView } from '../../src/components/thinking-block-view.js';
import { axeViolations, blockAt, blocksOf, everyState, finalState } from './support.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Every distinct state of block `index` while it streams, then the same block complete. */
function thinkingStates(
  body: string,
  index = 0,
): { streaming: BlockState[]; complete: BlockState } {
  const states = everyState(body);
  const seen = new Set<BlockState>();
  const streaming: BlockState[] = [];
  let complete: BlockState | undefined;
  for (const state of states) {
    const block = blocksOf(state).find((b) => b.index === index);
    if (!block || seen.has(block)) continue;
    seen.add(block);
    if (block.status === 'streaming') streaming.push(block);
    else complete ??= block;
  }
  if (!complete) throw new Error('the block never completed');
  return { streaming, complete };
}

const answerHasStarted = (state: StreamState) =>
  blocksOf(state).some((b) => b.block.type === 'text' && (b.block.text as string) !== '');

const toggle = () => screen.getByRole('button');
const panel = (container: HTMLElement) =>
  container.querySelector('.ms-thinking__panel') as HTMLElement;

describe('ThinkingBlockView', () => {
  it('is an open disclosure with a live tail while it streams (spec-thinking)', () => {
    const { streaming } = thinkingStates(specThinking);
    const { container, rerender } = render(
      <ThinkingBlockView block={streaming[0] as BlockState} />,
    );
    for (const block of streaming) rerender(<ThinkingBlockView block={block} />);
    const button = toggle();
    expect(button.textContent).toBe('Thinking…');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(panel(container).id);
    expect(panel(container).hidden).toBe(false);
    expect(panel(container).className).toContain('ms-thinking__panel--tail');
    expect(panel(container).textContent).toContain('GCD(1071, 462) = 21');
  });

  it('draws long thinking in pieces, of which each update changes only the last', () => {
    const thought = 'Consider the next step of the proof before writing it down.\n';
    const at = (thinking: string): BlockState => ({
      index: 0,
      status: 'streaming',
      block: { type: 'thinking', thinking, signature: '' },
    });
    const first = thought.repeat(150);
    const { container, rerender } = render(<ThinkingBlockView block={at(first)} />);
    const text = container.querySelector('.ms-thinking__text') as HTMLElement;
    const before = [...text.children];
    expect(before.length).toBeGreaterThan(2);
    rerender(<ThinkingBlockView block={at(`${first}Then`)} />);
    const after = [...text.children];
    expect(text.textContent).toBe(`${first}Then`);
    expect(after).toHaveLength(before.length);
    expect(after.slice(0, -1).every((piece, i) => piece === before[i])).toBe(true);
    expect(after.at(-1)?.textContent?.endsWith('Then')).toBe(true);
  });

  it('says how long it thought, measured from first render to completion', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const { streaming, complete } = thinkingStates(specThinking);
    const { rerender } = render(<ThinkingBlockView block={streaming[0] as BlockState} />);
    now.mockReturnValue(4_200);
    rerender(<ThinkingBlockView block={complete} />);
    expect(toggle().textContent).toBe('Thought for 3 s');
    // The duration is fixed once measured.
    now.mockReturnValue(60_000);
    rerender(<ThinkingBlockView block={{ ...complete }} />);
    expect(toggle().textContent).toBe('Thought for 3 s');
  });

  it('says "Thought", collapsed, for a block already complete when mounted', async () => {
    const block = blockAt(await finalState(specThinking), 0);
    const { container } = render(<ThinkingBlockView block={block} />);
    expect(toggle().textContent).toBe('Thought');
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(panel(container).hidden).toBe(true);
  });

  it('says it was interrupted when the stream ended mid-thought', () => {
    const { streaming } = thinkingStates(specThinking);
    const last = streaming.at(-1) as BlockState;
    const { rerender } = render(<ThinkingBlockView block={last} />);
    rerender(<ThinkingBlockView block={{ ...last, status: 'incomplete' }} />);
    expect(toggle().textContent).toBe('Thinking interrupted');
  });

  it('collapses by itself when the answer starts (spec-thinking)', () => {
    const states = everyState(specThinking);
    const first = states.find((s) => blocksOf(s)[0]) as StreamState;
    const { container, rerender } = render(
      <ThinkingBlockView block={blockAt(first, 0)} answerStarted={answerHasStarted(first)} />,
    );
    const openWhile: boolean[] = [];
    for (const state of states) {
      if (!blocksOf(state)[0]) continue;
      rerender(
        <ThinkingBlockView block={blockAt(state, 0)} answerStarted={answerHasStarted(state)} />,
      );
      openWhile.push(!panel(container).hidden);
    }
    expect(openWhile[0]).toBe(true);
    expect(openWhile.at(-1)).toBe(false);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });

  it('toggles with the keyboard: Enter and Space on the focused button', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specThinking), 0);
    const { container } = render(<ThinkingBlockView block={block} />);
    await user.tab();
    expect(document.activeElement).toBe(toggle());
    await user.keyboard('{Enter}');
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    expect(panel(container).hidden).toBe(false);
    await user.keyboard(' ');
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(panel(container).hidden).toBe(true);
  });

  it('leaves a block the reader opened open when the answer starts', async () => {
    const user = userEvent.setup();
    const { streaming, complete } = thinkingStates(specThinking);
    const { container, rerender } = render(
      <ThinkingBlockView block={streaming[0] as BlockState} />,
    );
    // Closed and reopened by the reader while it streams: their choice now.
    await user.click(toggle());
    await user.click(toggle());
    rerender(<ThinkingBlockView block={complete} answerStarted />);
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    expect(panel(container).hidden).toBe(false);
  });

  it('leaves a block the reader closed closed, and lets them reopen it after the answer', async () => {
    const user = userEvent.setup();
    const { streaming, complete } = thinkingStates(specThinking);
    const { rerender } = render(<ThinkingBlockView block={streaming[0] as BlockState} />);
    await user.click(toggle());
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    rerender(<ThinkingBlockView block={complete} answerStarted />);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle());
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
  });

  it('honours defaultOpen for a restored block', async () => {
    const block = blockAt(await finalState(specThinking), 0);
    const { container } = render(<ThinkingBlockView block={block} defaultOpen answerStarted />);
    expect(panel(container).hidden).toBe(false);
  });

  it('renders a redacted_thinking block as a note, with nothing to operate (redacted-thinking)', async () => {
    const block = blockAt(await finalState(redactedThinking), 1);
    expect(block.block.type).toBe('redacted_thinking');
    const { container } = render(<ThinkingBlockView block={block} />);
    expect(container.textContent).toBe('Some reasoning was redacted by the model provider.');
    expect(container.querySelector('button, [tabindex]')).toBeNull();
    expect(container.textContent).not.toContain(block.block.data as string);
  });

  it('has no axe violations: streaming, complete (closed and open), redacted', async () => {
    const user = userEvent.setup();
    const { streaming, complete } = thinkingStates(specThinking);
    const { container, rerender } = render(
      <ThinkingBlockView block={streaming.at(-1) as BlockState} />,
    );
    expect(await axeViolations(container)).toEqual([]);
    rerender(<ThinkingBlockView block={complete} answerStarted />);
    expect(await axeViolations(container)).toEqual([]);
    await user.click(toggle());
    expect(await axeViolations(container)).toEqual([]);
    cleanup();
    const redacted = blockAt(await finalState(redactedThinking), 1);
    const { container: note } = render(<ThinkingBlockView block={redacted} />);
    expect(await axeViolations(note)).toEqual([]);
  });
});
