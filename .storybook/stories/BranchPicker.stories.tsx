import '@message-stream/react/conversation.css';
import { createMockFetch, textFixture } from '@message-stream/mock';
import {
  AssistantMessage,
  type ChatStore,
  createChatStore,
  UserMessage,
  useMessageStream,
} from '@message-stream/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { type ReactElement, useEffect, useState } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';

const QUESTION = 'Suggest a name for a hiking app.';

/** Each regeneration gets a different answer, as a model's would. */
const ANSWERS = [
  '**Trailmark**: short, easy to say, and it hints at marking the trails you have walked.',
  'How about **Switchback**? It names the zigzag paths up a steep slope, and it sounds like progress.',
  '**Cairn**: the stacked stones hikers leave to mark a route. One syllable, and it looks good as an icon.',
];

/** Answers the question with the next of ANSWERS, one request after another. */
function versionedFetch(): typeof fetch {
  const mocks = ANSWERS.map((text, n) =>
    createMockFetch({
      fixtures: { answer: textFixture(text, { id: `msg_branch_${n + 1}`, inputTokens: 14 }) },
      defaultFixture: 'answer',
    }),
  );
  let requests = 0;
  return (input, init) => {
    const mock = mocks[requests++ % mocks.length] as typeof fetch;
    return mock(input, init);
  };
}

/**
 * A question whose answer was regenerated `versions - 1` times, shown as `<ChatStream/>` shows
 * it: `BranchPicker` sits in the answer's footer, beside Copy and Regenerate (a custom layout
 * places it with `<BranchPicker store={store} turnId={turn.id} />`).
 */
function Versions({ versions }: { versions: number }): ReactElement {
  const [store] = useState<ChatStore>(() =>
    createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 256 },
      fetch: versionedFetch(),
      batch: false,
    }),
  );
  useEffect(() => {
    void (async () => {
      await store.getState().send(QUESTION);
      for (let i = 1; i < versions; i++) await store.getState().regenerate();
    })();
  }, [store, versions]);
  const { turns, status } = useMessageStream(store);
  const [question, answer] = turns;
  const busy = status === 'submitted' || status === 'streaming' || status === 'running-tools';
  return (
    <div style={{ maxWidth: '46rem', display: 'grid', gap: 'var(--ms-space-4, 1rem)' }}>
      {question?.role === 'user' ? (
        <UserMessage turn={question} branchStore={store} busy={busy} />
      ) : null}
      {answer?.role === 'assistant' ? (
        <AssistantMessage
          turn={answer}
          branchStore={store}
          busy={busy}
          actions={{ regenerate: () => void store.getState().regenerate() }}
        />
      ) : null}
    </div>
  );
}

const meta = {
  title: 'Conversation/BranchPicker',
  component: Versions,
} satisfies Meta<typeof Versions>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three versions of an answer: ‹ 3 / 3 ›, the newest shown; ‹ goes back to the second. */
export const ThreeVersions: Story = {
  args: { versions: 3 },
  play: async ({ canvas }) => {
    const group = await canvas.findByRole('group', { name: 'Version 3 of 3' }, { timeout: 5000 });
    await expect(group).toBeVisible();
    await expect(canvas.getByRole('article', { name: 'Assistant' })).toHaveTextContent('Cairn');
    await userEvent.click(canvas.getByRole('button', { name: 'Previous version' }));
    await waitFor(() =>
      expect(canvas.getByRole('group', { name: 'Version 2 of 3' })).toBeVisible(),
    );
    await expect(canvas.getByRole('article', { name: 'Assistant' })).toHaveTextContent(
      'Switchback',
    );
  },
};

/** One version only: the footer has no picker. */
export const SingleVersion: Story = {
  args: { versions: 1 },
  play: async ({ canvas }) => {
    const answer = await canvas.findByRole('article', { name: 'Assistant' });
    await waitFor(() => expect(answer).toHaveAttribute('data-status', 'complete'), {
      timeout: 5000,
    });
    await expect(answer).toHaveTextContent('Trailmark');
    await expect(canvas.queryByRole('group', { name: /^Version/ })).toBeNull();
  },
};
