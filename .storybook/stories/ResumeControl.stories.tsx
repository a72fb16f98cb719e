import { createStreamError, createStreamState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { ResumeControl } from './kit.js';

const meta = {
  title: 'Components/ResumeControl',
  component: ResumeControl,
  args: { onResume: fn(), onRetry: fn() },
} satisfies Meta<typeof ResumeControl>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The connection dropped mid-answer: Resume continues it, Retry starts over. */
export const Interrupted: Story = {
  args: {
    status: 'interrupted',
    error: createStreamError({ type: 'stream_interrupted', message: 'network error' }),
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('group', { name: 'The answer did not finish.' })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Resume' }));
    await expect(args.onResume).toHaveBeenCalledTimes(1);
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

/** The reader pressed Stop. */
export const Aborted: Story = {
  args: { status: 'aborted' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('group', { name: 'The answer was stopped.' })).toBeVisible();
  },
};

/** An error that trying again can fix (overloaded). */
export const RetryableError: Story = {
  args: {
    status: 'error',
    error: createStreamError({ type: 'overloaded_error', message: 'Overloaded', status: 529 }),
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Resume' })).toBeEnabled();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeEnabled();
  },
};

/** A resume is under way: both buttons are disabled, so it cannot start twice. */
export const Busy: Story = {
  args: { status: 'interrupted', busy: true },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('button', { name: 'Resume' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeDisabled();
    await expect(canvas.getByRole('group')).toHaveAttribute('aria-busy', 'true');
    await expect(args.onResume).not.toHaveBeenCalled();
  },
};

/**
 * An error that trying again cannot fix by itself (a revoked key): Retry alone, for once the
 * key is fixed; no countdown, nothing done by itself.
 */
export const NonRetryableError: Story = {
  args: {
    stream: {
      ...createStreamState(),
      status: 'error',
      error: createStreamError({
        type: 'authentication_error',
        code: 'token_revoked',
        message: 'API key has been revoked or does not exist.',
        status: 401,
      }),
    },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.queryByRole('button', { name: 'Resume' })).toBeNull();
    await expect(canvas.queryByText(/^Retrying in/)).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

/** A finished answer: nothing renders. */
export const Complete: Story = {
  args: { status: 'complete' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-resume')).toBeNull();
  },
};
