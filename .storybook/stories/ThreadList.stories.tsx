import '@message-stream/react/conversation.css';
import { createThreadStore, ThreadList, type ThreadStore } from '@message-stream/react/threads';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { type ReactElement, useState } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';

const DAY = 24 * 60 * 60 * 1000;

/** A request that is never answered: its conversation stays answering. */
const pendingFetch = () => new Promise<Response>(() => {});

/**
 * `daysAgo[i]`: how long ago `titles[i]` was last active (the list files it by that).
 * `asking`: a message sent in a thread of that title, whose answer is still under way.
 */
function Threads({
  titles,
  daysAgo,
  asking,
}: {
  titles: string[];
  daysAgo?: number[];
  asking?: string;
}): ReactElement {
  const [store] = useState<ThreadStore>(() => {
    const threads = createThreadStore({
      chat: { request: { model: 'claude-opus-5', max_tokens: 256 }, fetch: pendingFetch },
    });
    for (const title of titles) {
      const id = threads.getState().newThread();
      threads.getState().renameThread(id, title);
    }
    if (asking !== undefined) {
      const id = threads.getState().newThread();
      void threads.getState().chatOf(id)?.getState().send(asking);
      // Another conversation shown: the one answering is marked in the list all the same.
      threads.getState().switchThread(threads.getState().threads[1]?.id ?? id);
    }
    if (daysAgo) {
      const now = Date.now();
      // Newest first, as the store keeps them: titles[0] is the last one made.
      threads.setState((state) => ({
        threads: state.threads.map((thread, i) => ({
          ...thread,
          updatedAt: now - (daysAgo[titles.length - 1 - i] ?? 0) * DAY,
        })),
      }));
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

/** A month of threads under date headings, as a sidebar shows them. */
export const ByDate: Story = {
  args: {
    titles: [
      'Kafka retention settings',
      'Trip to Lisbon',
      'Quarterly numbers',
      'Birthday ideas',
      'Refactor the billing job',
      'Flaky login test',
    ],
    daysAgo: [90, 40, 12, 4, 1, 0],
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('list', { name: 'Today' })).toBeVisible();
    await expect(canvas.getByRole('list', { name: 'Yesterday' })).toBeVisible();
    await expect(canvas.getByRole('list', { name: 'Previous 7 days' })).toBeVisible();
    await expect(canvas.getByRole('list', { name: 'Previous 30 days' })).toBeVisible();
    await expect(canvas.getAllByRole('list')).toHaveLength(6);
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

/** An answer still under way in a conversation not shown: a pulsing dot before its title. */
export const Answering: Story = {
  args: {
    titles: ['Trip to Lisbon', 'Quarterly numbers'],
    asking: 'Write a thorough guide to streaming chat interfaces',
  },
  play: async ({ canvas }) => {
    await waitFor(() =>
      expect(
        canvas.getByRole('button', {
          name: 'Write a thorough guide to streaming chat interfaces, answering',
        }),
      ).toBeVisible(),
    );
    await expect(canvas.getByRole('button', { current: 'page' })).toHaveTextContent(
      'Quarterly numbers',
    );
  },
};
