import { createStreamState, type StreamState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent } from 'storybook/test';
import { AssistantMessage, type AssistantTurn, UserMessage } from './kit.js';
import { blockOfType, finalState, midStream } from './support.js';

/** The two kinds of message in a conversation log. */
const meta = {
  title: 'Chat/Messages',
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const assistantTurn = (
  stream: StreamState,
  toolResults: AssistantTurn['toolResults'] = {},
): AssistantTurn => ({
  id: 'answer_story',
  role: 'assistant',
  request: { model: 'claude-opus-5', max_tokens: 1024, messages: [] },
  stream,
  toolResults,
  startedAt: 0,
  finishedAt: null,
});

/** UserMessage: what the user typed, as plain text (never markdown or HTML). */
export const UserText: Story = {
  render: () => (
    <UserMessage
      turn={{ id: 'user_1', role: 'user', content: 'Is <b>this</b> **bold**?\nSecond line.' }}
    />
  ),
  play: async ({ canvas, canvasElement }) => {
    const message = canvas.getByRole('article', { name: 'You said' });
    await expect(message).toHaveTextContent('Is <b>this</b> **bold**?');
    await expect(canvasElement.querySelector('b, strong')).toBeNull();
  },
};

/** UserMessage with content blocks: text as text, attachments as placeholders. */
export const UserBlocks: Story = {
  render: () => (
    <UserMessage
      turn={{
        id: 'user_2',
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture and this file?' },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
          },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'Quarterly numbers' },
          },
        ] as never,
      }}
    />
  ),
  play: async ({ canvas }) => {
    const message = canvas.getByRole('article', { name: 'You said' });
    await expect(message).toHaveTextContent('What is in this picture and this file?');
    // The attachments show as a list beside the text: an image preview and a document chip.
    const files = canvas.getByRole('list', { name: 'Attached files' });
    await expect(files.querySelectorAll('li')).toHaveLength(2);
    await expect(files).toHaveTextContent('Image');
    await expect(files).toHaveTextContent('Document');
  },
};

/** AssistantMessage, finished: search, results, cited text (the `spec-web-search` fixture). */
export const AssistantComplete: Story = {
  loaders: [async () => ({ stream: await finalState('spec-web-search') })],
  render: (_args, { loaded }) => <AssistantMessage turn={assistantTurn(loaded.stream)} />,
  play: async ({ canvas }) => {
    const message = canvas.getByRole('article', { name: 'Assistant' });
    await expect(message).toHaveAttribute('data-status', 'complete');
    await expect(canvas.getByText('3 search results')).toBeVisible();
    await expect(canvas.getAllByText('Sources').length).toBeGreaterThan(0);
  },
};

/** AssistantMessage mid-answer: the thinking is open, no text yet (the `spec-thinking` fixture). */
export const AssistantStreaming: Story = {
  loaders: [
    async () =>
      midStream('spec-thinking', (state) =>
        state.message?.content[0]?.status === 'streaming' ? state.message.content[0] : undefined,
      ),
  ],
  render: (_args, { loaded }) => <AssistantMessage turn={assistantTurn(loaded.state)} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('article', { name: 'Assistant' })).toHaveAttribute(
      'data-status',
      'streaming',
    );
    await expect(canvas.getByRole('button', { name: 'Thinking…' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  },
};

/** AssistantMessage with client tool calls: one running, one done (`parallel-tool-calls`). */
export const AssistantWithToolResults: Story = {
  loaders: [
    async () => {
      const stream = await finalState('parallel-tool-calls');
      const first = blockOfType(stream, 'tool_use', 0).block as { id: string };
      const second = blockOfType(stream, 'tool_use', 1).block as { id: string };
      return {
        stream,
        toolResults: {
          [first.id]: { status: 'complete', content: 'Paris: 21 °C, sunny' },
          [second.id]: { status: 'running' },
        } satisfies AssistantTurn['toolResults'],
      };
    },
  ],
  render: (_args, { loaded }) => (
    <AssistantMessage turn={assistantTurn(loaded.stream, loaded.toolResults)} />
  ),
  play: async ({ canvasElement }) => {
    const badges = [...canvasElement.querySelectorAll('.ms-tool__badge')].map((b) => b.textContent);
    await expect(badges).toEqual(['Done', 'Running…']);
    // The calls are compact rows; opening the first shows its result.
    const row = canvasElement.querySelector<HTMLElement>('.ms-tool__row') as HTMLElement;
    await userEvent.click(row);
    await expect(canvasElement.querySelector('.ms-tool__result-body')).toHaveTextContent(
      'Paris: 21 °C, sunny',
    );
  },
};

/** AssistantMessage before anything arrived. */
export const AssistantWaiting: Story = {
  render: () => <AssistantMessage turn={assistantTurn(createStreamState())} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Waiting for the answer…')).toBeVisible();
  },
};

/** AssistantMessage with `textMode="plain"`: markdown shown as written. */
export const AssistantPlainText: Story = {
  loaders: [async () => ({ stream: await finalState('spec-thinking') })],
  render: (_args, { loaded }) => (
    <AssistantMessage turn={assistantTurn(loaded.stream)} textMode="plain" />
  ),
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText('The greatest common divisor of 1071 and 462 is **21**.'),
    ).toBeVisible();
  },
};
