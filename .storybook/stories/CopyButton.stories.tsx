import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { CopyButton } from './kit.js';

/** Replaces `navigator.clipboard` for one story; the returned function puts it back. */
function stubClipboard(writeText: (text: string) => Promise<void>): () => void {
  const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
  return () => {
    if (original) Object.defineProperty(navigator, 'clipboard', original);
    else Reflect.deleteProperty(navigator, 'clipboard');
  };
}

const writeText = fn(async (_text: string) => {});

const meta = {
  title: 'Components/CopyButton',
  component: CopyButton,
  args: { text: '{\n  "location": "San Francisco, CA"\n}' },
} satisfies Meta<typeof CopyButton>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The copy worked: "Copied" is announced through the polite status region. */
export const Copied: Story = {
  beforeEach: () => {
    writeText.mockReset();
    writeText.mockImplementation(async () => {});
    return stubClipboard(writeText);
  },
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Copy' }));
    await expect(writeText).toHaveBeenCalledWith(args.text);
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Copied'));
  },
};

/** The browser refused: "Copy failed" is announced instead. */
export const Refused: Story = {
  beforeEach: () =>
    stubClipboard(async () => {
      throw new DOMException('Write permission denied.', 'NotAllowedError');
    }),
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Copy failed'));
  },
};
