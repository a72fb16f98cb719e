import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { Composer } from './kit.js';

const meta = {
  title: 'Chat/Composer',
  component: Composer,
  args: { busy: false, onSend: fn(), onStop: fn() },
} satisfies Meta<typeof Composer>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Idle: Send is disabled until there is text; Enter sends, Shift+Enter adds a line. */
export const Idle: Story = {
  play: async ({ canvas, args }) => {
    const field = canvas.getByRole('textbox', { name: 'Message' });
    const send = canvas.getByRole('button', { name: 'Send' });
    await expect(send).toBeDisabled();
    await userEvent.type(field, 'First line{Shift>}{Enter}{/Shift}second line');
    await expect(field).toHaveValue('First line\nsecond line');
    await expect(send).toBeEnabled();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSend).toHaveBeenCalledWith('First line\nsecond line');
    await expect(field).toHaveValue('');
    await expect(field).toHaveFocus();
  },
};

/** Busy: an answer is streaming, so Stop replaces Send, and Enter does not send. */
export const BusyWithStop: Story = {
  args: { busy: true },
  play: async ({ canvas, args }) => {
    await expect(canvas.queryByRole('button', { name: 'Send' })).toBeNull();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Next question{Enter}');
    await expect(args.onSend).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await expect(args.onStop).toHaveBeenCalledTimes(1);
  },
};

/** Disabled by the app, with its own label and placeholder. */
export const Disabled: Story = {
  args: { disabled: true, label: 'Ask the docs', placeholder: 'Sign in to ask…' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('textbox', { name: 'Ask the docs' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
  },
};
