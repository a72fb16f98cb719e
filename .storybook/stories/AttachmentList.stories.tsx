import '@message-stream/react/conversation.css';
import { type Attachment, AttachmentList, AttachmentPreview } from '@message-stream/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';

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

/** Read-only, with nothing to open them with. */
export const ReadOnly: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('list', { name: 'Attachments' })).toBeVisible();
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
  },
};

/** On a sent message: each file opens larger in `AttachmentPreview`, a modal dialog. */
export const OnSentMessage: Story = {
  render: (args) => {
    const [opened, setOpened] = useState<Attachment | null>(null);
    return (
      <>
        <AttachmentList {...args} onOpen={setOpened} />
        {opened ? <AttachmentPreview attachment={opened} onClose={() => setOpened(null)} /> : null}
      </>
    );
  },
  play: async ({ canvas, canvasElement }) => {
    const opener = canvas.getByRole('button', { name: /^Open notes\.txt/ });
    await userEvent.click(opener);
    const page = canvasElement.ownerDocument.body;
    await waitFor(() => expect(page.querySelector('dialog[open]')?.textContent).toContain('Notes'));
    // Close (a synthetic Escape is not the browser's own, which closes a dialog natively).
    const dialog = page.querySelector('dialog') as HTMLDialogElement;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(page.querySelector('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
  },
};
