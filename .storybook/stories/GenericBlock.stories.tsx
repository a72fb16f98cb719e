import type { BlockState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent } from 'storybook/test';
import { GenericBlockView } from './kit.js';
import { blockOfType, blockState, finalState } from './support.js';

const meta = {
  title: 'Components/GenericBlockView',
  component: GenericBlockView,
} satisfies Meta<typeof GenericBlockView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A block type the kit does not know (`code_execution_output`, from `unknown-events`): closed. */
export const UnknownBlock: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({
      block: blockOfType(await finalState('unknown-events'), 'code_execution_output'),
    }),
  ],
  render: (_args, { loaded }) => <GenericBlockView block={loaded.block as BlockState} />,
  play: async ({ canvas, canvasElement }) => {
    const toggle = canvas.getByRole('button', { name: 'code_execution_output' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(canvasElement.querySelector('.ms-generic__json')).toHaveTextContent(
      '"stdout": "42\\n"',
    );
  },
};

/** Still streaming, with a delta it could not apply, opened by default. */
export const StreamingWithUnappliedDeltas: Story = {
  args: {
    defaultOpen: true,
    block: blockState({ type: 'future_block', data: { progress: 0.4 } }, 'streaming', {
      otherDeltas: [{ type: 'progress_delta', progress: 0.4 } as never],
    }),
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'future_block (streaming)' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(canvas.getByText('Deltas not applied')).toBeVisible();
    await expect(canvas.getByText(/"type": "progress_delta"/)).toBeVisible();
  },
};

/** The `fallback` block of a server-side model fallback (the `fallback-block` fixture). */
export const FallbackBlock: Story = {
  args: { block: undefined as never },
  loaders: [async () => ({ block: blockOfType(await finalState('fallback-block'), 'fallback') })],
  render: (_args, { loaded }) => (
    <GenericBlockView block={loaded.block as BlockState} defaultOpen />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/"to": \{\s*"model": "claude-sonnet-5"/)).toBeVisible();
  },
};
