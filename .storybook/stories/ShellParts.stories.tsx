import type { StreamState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { EmptyState, MessageActions, StopReasonNotice, StreamDetails, UsageBadge } from './kit.js';
import { finalState } from './support.js';

/**
 * The parts of the conversation shell, each on its own: why an answer ended, the row of
 * actions under a message, the stream details popover, and the empty state.
 */
const meta = {
  title: 'Chat/Shell parts',
  component: StopReasonNotice,
} satisfies Meta<typeof StopReasonNotice>;
export default meta;
type Story = StoryObj<typeof meta>;

const stateOf = async (name: string): Promise<{ stream: StreamState }> => ({
  stream: await finalState(name),
});

/** `max_tokens`: the length limit said, with Continue. */
export const LengthLimit: Story = {
  args: { stream: undefined as unknown as StreamState, onContinue: fn() },
  loaders: [() => stateOf('max-tokens')],
  render: (args, { loaded }) => <StopReasonNotice {...args} stream={loaded.stream} />,
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('The answer reached the length limit.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Continue' }));
    await expect(args.onContinue).toHaveBeenCalledTimes(1);
  },
};

/** `refusal`: the model declined, said as a note. */
export const Refusal: Story = {
  args: { stream: undefined as unknown as StreamState },
  loaders: [() => stateOf('refusal')],
  render: (_args, { loaded }) => <StopReasonNotice stream={loaded.stream} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('note')).toHaveTextContent(/declined/);
  },
};

/** `stop_sequence`: a quiet note naming the sequence. */
export const StopSequence: Story = {
  args: { stream: undefined as unknown as StreamState },
  loaders: [() => stateOf('stop-sequence')],
  render: (_args, { loaded }) => <StopReasonNotice stream={loaded.stream} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/Stopped at the stop sequence/)).toBeVisible();
  },
};

/** An answer cut off mid-stream keeps an "Interrupted" mark. */
export const InterruptedMark: Story = {
  args: { stream: undefined as unknown as StreamState },
  loaders: [() => stateOf('truncated-mid-tool')],
  render: (_args, { loaded }) => <StopReasonNotice stream={loaded.stream} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Interrupted')).toBeVisible();
  },
};

/** Copy, Regenerate, thumbs up / down, then usage and the details button at the row's end. */
export const Actions: Story = {
  args: { stream: undefined as unknown as StreamState },
  loaders: [() => stateOf('spec-basic-text')],
  render: (_args, { loaded }) => (
    <div style={{ maxWidth: '40rem' }}>
      <MessageActions
        copyText="Hello!"
        onRegenerate={fn()}
        onFeedback={fn()}
        feedback="up"
        label="Answer actions"
      >
        <UsageBadge usage={loaded.stream.message?.usage} locale="en-US" />
        <StreamDetails
          stream={loaded.stream}
          locale="en-US"
          timings={{ startedAt: 0, firstTokenAt: 420, finishedAt: 1420 }}
          downloads={[{ name: 'answer.sse', text: 'event: ping\ndata: {}\n\n' }]}
        />
      </MessageActions>
    </div>
  ),
  play: async ({ canvas }) => {
    const bar = canvas.getByRole('toolbar', { name: 'Answer actions' });
    await expect(bar).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Good answer' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Stream details' }));
    const panel = canvas.getByRole('dialog', { name: 'Stream details' });
    await expect(panel).toBeVisible();
    // The content is drawn when first opened (its code may still be on its way).
    await waitFor(() => expect(panel).toHaveTextContent('Time to first token420 ms'));
    await expect(canvas.getByRole('button', { name: 'Download raw stream (.sse)' })).toBeVisible();
  },
};

/** Usage of an interrupted answer: the output count is left out, "partial" said instead. */
export const PartialUsage: Story = {
  args: { stream: undefined as unknown as StreamState },
  render: () => (
    <UsageBadge usage={{ input_tokens: 43, output_tokens: 1 }} partial locale="en-US" />
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-usage')).toHaveTextContent(/43 in/);
    await expect(canvasElement.querySelector('.ms-usage')).not.toHaveTextContent(/1 out/);
  },
};

/** An empty conversation: a welcome line and suggestion chips. */
export const Empty: Story = {
  args: { stream: undefined as unknown as StreamState },
  render: () => (
    <EmptyState
      title="What shall we try?"
      description="Answers come from recorded streams."
      suggestions={['Explain let and const', 'What is the weather in Paris?']}
      onSuggestion={fn()}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { name: 'What shall we try?' })).toBeVisible();
    await expect(canvas.getAllByRole('button')).toHaveLength(2);
  },
};
