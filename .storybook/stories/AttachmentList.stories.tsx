import '@message-stream/react/conversation.css';
import { type Attachment, AttachmentList } from '@message-stream/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';

// A 1×1 PNG: the preview is the user's own file, in memory.
const dot =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAFgwJ/lD1UawAAAABJRU5ErkJggg==';
const attachments: Attachment[] = [
  { id: 'a', name: 'diagram.png', mediaType: 'image/png', size: 68, data: dot },
  {
    id: 'b',
    name: 'quarterly-report.pdf',
    mediaType: 'application/pdf',
    size: 2_400_000,
    data: '',
  },
  { id: 'c', name: 'notes.txt', mediaType: 'text/plain', size: 512, data: 'Notes' },
];

const meta = {
  title: 'Conversation/AttachmentList',
  component: AttachmentList,
  args: { attachments },
} satisfies Meta<typeof AttachmentList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** In the composer: each file removable. */
export const InComposer: Story = {
  args: { onRemove: fn() },
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Remove quarterly-report.pdf' }));
    await expect(args.onRemove).toHaveBeenCalledWith('b');
  },
};

/** On a sent message: read-only. */
export const OnSentMessage: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('list', { name: 'Attachments' })).toBeVisible();
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
  },
};
