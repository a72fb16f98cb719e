import {
  createStreamError,
  createStreamState,
  emptyMessage,
  type StreamError,
  type StreamState,
  type StreamStatus,
} from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { ResumeControl } from './kit.js';

/** A stream that ended with `status`; with `text`, some of the answer arrived. */
const ended = (
  status: StreamStatus,
  { text, error = null }: { text?: string; error?: StreamError | null } = {},
): StreamState => ({
  ...createStreamState(),
  status,
  error,
  message:
    text === undefined
      ? null
      : {
          ...emptyMessage(),
          content: [{ index: 0, status: 'streaming', block: { type: 'text', text } }],
        },
});

const meta = {
  title: 'Components/ResumeControl',
  component: ResumeControl,
  args: { onResume: fn(), onRetry: fn() },
} satisfies Meta<typeof ResumeControl>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The connection dropped mid-answer: Resume continues it from where it stopped. */
export const Interrupted: Story = {
  args: {
    stream: ended('interrupted', {
      text: 'The first half of an answer',
      error: createStreamError({ type: 'stream_interrupted', message: 'network error' }),
    }),
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('group', { name: 'The answer did not finish.' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Retry' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Resume' }));
    await expect(args.onResume).toHaveBeenCalledTimes(1);
  },
};

/** The reader pressed Stop: Resume, quieter than after an interruption. */
export const Aborted: Story = {
  args: { stream: ended('aborted', { text: 'The first half of an answer' }) },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('group', { name: 'The answer was stopped.' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Resume' })).toBeEnabled();
  },
};

/** An error that trying again can fix (overloaded), before anything arrived: Retry. */
export const RetryableError: Story = {
  args: {
    stream: ended('error', {
      error: createStreamError({ type: 'overloaded_error', message: 'Overloaded', status: 529 }),
    }),
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.queryByRole('button', { name: 'Resume' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

/** A resume is under way: the button is disabled, so it cannot start twice. */
export const Busy: Story = {
  args: { stream: ended('interrupted', { text: 'The first half of an answer' }), busy: true },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('button', { name: 'Resume' })).toBeDisabled();
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
    stream: ended('error', {
      error: createStreamError({
        type: 'authentication_error',
        code: 'token_revoked',
        message: 'API key has been revoked or does not exist.',
        status: 401,
      }),
    }),
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
  args: { stream: { ...ended('complete', { text: 'Hello!' }), stopReceived: true } },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-resume')).toBeNull();
  },
};
