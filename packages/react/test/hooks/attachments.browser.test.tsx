import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AttachmentList } from '../../src/components/attachment-list.js';
import { useAttachments } from '../../src/hooks/use-attachments.js';

function Composer() {
  const files = useAttachments();
  return (
    <div {...files.dropProps}>
      <textarea aria-label="Message" onPaste={files.onPaste} />
      <AttachmentList attachments={files.attachments} onRemove={files.remove} />
      <p role="status">{files.errors.join(' ')}</p>
    </div>
  );
}

const transfer = (...files: File[]) => {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  return data;
};
const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], name, {
    type: 'image/png',
  });

describe('attachments in Chromium: real paste and drag-and-drop events', () => {
  it('takes a pasted image', async () => {
    render(<Composer />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await act(async () => {
      box.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer(png('shot.png')), bubbles: true }),
      );
    });
    expect(await screen.findByRole('button', { name: 'Remove shot.png' })).toBeDefined();
  });

  it('takes dropped files and refuses one of another type, by name', async () => {
    const { container } = render(<Composer />);
    const zone = container.firstElementChild as HTMLElement;
    const data = transfer(
      png('drop.png'),
      new File(['x'], 'tool.exe', { type: 'application/x-msdownload' }),
    );
    const over = new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true });
    await act(async () => {
      zone.dispatchEvent(over);
      zone.dispatchEvent(
        new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
      );
    });
    // dragover was accepted (default prevented), so the browser drops here instead of opening the file.
    expect(over.defaultPrevented).toBe(true);
    expect(await screen.findByRole('button', { name: 'Remove drop.png' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toContain('tool.exe cannot be attached');
  });
});
