import '@message-stream/react/conversation.css';
import { createMockFetch } from '@message-stream/mock';
import {
  BranchPicker,
  type ChatStore,
  createChatStore,
  useMessageStream,
} from '@message-stream/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { type ReactElement, useEffect, useState } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';

/** A conversation whose answer was regenerated `versions - 1` times, with the picker beside it. */
function Versions({ versions }: { versions: number }): ReactElement {
  const [store] = useState<ChatStore>(() =>
    createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 256 },
      fetch: createMockFetch({ defaultFixture: 'spec-basic-text' }),
      batch: false,
    }),
  );
  useEffect(() => {
    void (async () => {
      await store.getState().send('Hello');
      for (let i = 1; i < versions; i++) await store.getState().regenerate();
    })();
  }, [store, versions]);
  const { turns, status } = useMessageStream(store);
  const answer = turns[1];
  return (
    <div>
      <p>Status: {status}</p>
      {answer ? <BranchPicker store={store} turnId={answer.id} /> : null}
    </div>
  );
}

const meta = {
  title: 'Conversation/BranchPicker',
  component: Versions,
} satisfies Meta<typeof Versions>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three versions of an answer: ‹ 3 / 3 ›, the newest shown. */
export const ThreeVersions: Story = {
  args: { versions: 3 },
  play: async ({ canvas }) => {
    const group = await canvas.findByRole('group', { name: 'Version 3 of 3' }, { timeout: 5000 });
    await expect(group).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Previous version' }));
    await waitFor(() =>
      expect(canvas.getByRole('group', { name: 'Version 2 of 3' })).toBeVisible(),
    );
  },
};

/** One version only: no picker. */
export const SingleVersion: Story = {
  args: { versions: 1 },
  play: async ({ canvas }) => {
    await canvas.findByText('Status: complete', undefined, { timeout: 5000 });
    await expect(canvas.queryByRole('group')).toBeNull();
  },
};
