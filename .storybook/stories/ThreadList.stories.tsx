import '@message-stream/react/conversation.css';
import { createThreadStore, ThreadList, type ThreadStore } from '@message-stream/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { type ReactElement, useState } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';

function Threads({ titles }: { titles: string[] }): ReactElement {
  const [store] = useState<ThreadStore>(() => {
    const threads = createThreadStore({
      chat: { request: { model: 'claude-opus-5', max_tokens: 256 } },
    });
    for (const title of titles) {
      const id = threads.getState().newThread();
      threads.getState().renameThread(id, title);
    }
    return threads;
  });
  return <ThreadList store={store} />;
}

const meta = {
  title: 'Conversation/ThreadList',
  component: Threads,
} satisfies Meta<typeof Threads>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three threads, the newest shown; rename one from the keyboard. */
export const SeveralThreads: Story = {
  args: { titles: ['Trip to Lisbon', 'Quarterly numbers', 'Birthday ideas'] },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { current: 'page' })).toHaveTextContent(
      'Birthday ideas',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Rename Trip to Lisbon' }));
    await userEvent.keyboard('{Control>}a{/Control}Lisbon, May{Enter}');
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Lisbon, May' })).toBeVisible());
  },
};

/** No thread yet: only the button to start one. */
export const Empty: Story = {
  args: { titles: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'New conversation' })).toBeVisible();
    await expect(canvas.queryAllByRole('listitem')).toHaveLength(0);
  },
};
