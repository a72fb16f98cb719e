import type { BlockState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { ThinkingBlockView } from './kit.js';
import { Replay } from './replay.js';
import { blockOfType, blocksOf, finalState, midStream, statesOf, watch } from './support.js';

const meta = {
  title: 'Components/ThinkingBlockView',
  component: ThinkingBlockView,
} satisfies Meta<typeof ThinkingBlockView>;
export default meta;
type Story = StoryObj<typeof meta>;

const thinkingOf = (loaded: Record<string, unknown>) => loaded.block as BlockState;
const toggle = (canvasElement: HTMLElement) =>
  canvasElement.querySelector<HTMLButtonElement>('button.ms-thinking__toggle') as HTMLButtonElement;

/** Mid-thought: open, with a live tail of the newest lines (the `spec-thinking` fixture). */
export const Streaming: Story = {
  args: { block: undefined as never },
  loaders: [
    async () =>
      midStream('spec-thinking', (state) => {
        const block = blocksOf(state)[0];
        const text = (block?.block as { thinking?: string } | undefined)?.thinking ?? '';
        return block?.status === 'streaming' && text.includes('462 = 3') ? block : undefined;
      }),
  ],
  render: (_args, { loaded }) => <ThinkingBlockView block={thinkingOf(loaded)} />,
  play: async ({ canvas, canvasElement }) => {
    const button = canvas.getByRole('button', { name: 'Thinking…' });
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = canvas.getByRole('group', { name: 'Thinking…' });
    await expect(panel).toHaveTextContent('462 = 3 × 147 + 21');
    // The tail scrolls, so it can be reached by keyboard.
    await expect(panel).toHaveAttribute('tabindex', '0');
    await expect(canvasElement.querySelector('.ms-thinking__panel--tail')).not.toBeNull();
  },
};

/** Thought to the end while mounted: "Thought for N s", still open (no answer yet). */
export const Complete: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => {
      const steps = (await statesOf('spec-thinking'))
        .map((state) => blocksOf(state).find((b) => b.block.type === 'thinking'))
        .filter((b) => b !== undefined);
      return { steps };
    },
  ],
  render: (_args, { loaded }) => (
    <Replay steps={loaded.steps as BlockState[]} intervalMs={150}>
      {(block) => <ThinkingBlockView block={block} />}
    </Replay>
  ),
  play: async ({ canvas }) => {
    const button = await canvas.findByRole(
      'button',
      { name: /^Thought for \d+ s$/ },
      { timeout: 5000 },
    );
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByText(/GCD\(1071, 462\) = 21/)).toBeVisible();
  },
};

/**
 * The whole `spec-thinking` answer replayed: thinking streams open, then collapses by itself
 * when the answer starts; the reader opens it again with the keyboard.
 */
export const CollapsesWhenAnswerStarts: Story = {
  args: { block: undefined as never },
  loaders: [async () => ({ states: await statesOf('spec-thinking') })],
  render: (_args, { loaded }) => (
    <Replay steps={loaded.states as Awaited<ReturnType<typeof statesOf>>} intervalMs={120}>
      {(state) => {
        const blocks = blocksOf(state);
        const thinking = blocks.find((b) => b.block.type === 'thinking');
        const answerStarted = blocks.some(
          (b) => b.block.type === 'text' && (b.block as { text: string }).text !== '',
        );
        return thinking ? (
          <ThinkingBlockView block={thinking} answerStarted={answerStarted} />
        ) : null;
      }}
    </Replay>
  ),
  play: async ({ canvasElement, canvas }) => {
    const expanded = watch(
      canvasElement,
      () => toggle(canvasElement)?.getAttribute('aria-expanded') ?? 'none',
    );
    await canvas.findByRole('button', { name: /^Thought for \d+ s$/ }, { timeout: 5000 });
    await waitFor(() => expect(toggle(canvasElement)).toHaveAttribute('aria-expanded', 'false'));
    expanded.stop();
    // It was open while it streamed, and closed by itself once the answer began.
    await expect(expanded.values).toContain('true');
    await expect(expanded.values.at(-1)).toBe('false');
    // Keyboard: Tab to the toggle, Enter opens it, Space closes it again.
    await userEvent.tab();
    await expect(toggle(canvasElement)).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(toggle(canvasElement)).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByText(/GCD\(1071, 462\) = 21/)).toBeVisible();
    await userEvent.keyboard(' ');
    await expect(toggle(canvasElement)).toHaveAttribute('aria-expanded', 'false');
  },
};

/** Mounted already finished (a restored conversation): closed, and no duration to tell. */
export const Restored: Story = {
  args: { block: undefined as never },
  loaders: [async () => ({ block: blockOfType(await finalState('spec-thinking'), 'thinking') })],
  render: (_args, { loaded }) => <ThinkingBlockView block={thinkingOf(loaded)} />,
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Thought' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    await expect(button).toHaveAttribute('aria-expanded', 'true');
  },
};

/** The stream ended mid-thought. */
export const Interrupted: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => {
      const { block } = await midStream('spec-thinking', (state) => {
        const b = blocksOf(state)[0];
        return b?.status === 'streaming' && (b.block as { thinking: string }).thinking !== ''
          ? b
          : undefined;
      });
      return { block: { ...block, status: 'incomplete' } satisfies BlockState };
    },
  ],
  render: (_args, { loaded }) => <ThinkingBlockView block={thinkingOf(loaded)} defaultOpen />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Thinking interrupted' })).toBeVisible();
  },
};

/** A `redacted_thinking` block: encrypted by the provider, so only a note (the `redacted-thinking` fixture). */
export const Redacted: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({
      block: blockOfType(await finalState('redacted-thinking'), 'redacted_thinking'),
    }),
  ],
  render: (_args, { loaded }) => <ThinkingBlockView block={thinkingOf(loaded)} />,
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText('Some reasoning was redacted by the model provider.'),
    ).toBeVisible();
    await expect(canvas.queryByRole('button')).toBeNull();
  },
};
