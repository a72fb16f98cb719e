import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AttachmentList } from '../../src/components/attachment-list.js';
import type { Attachment } from '../../src/store/types.js';
import { axeViolations } from './support.js';

const files: Attachment[] = [
  { id: 'a', name: 'chart.png', mediaType: 'image/png', size: 2048, data: 'iVBORw0KGgo=' },
  {
    id: 'b',
    name: 'report.pdf',
    mediaType: 'application/pdf',
    size: 3 * 1024 * 1024,
    data: 'JVBE',
  },
  { id: 'c', name: 'notes.txt', mediaType: 'text/plain', size: 12, data: 'hello world!' },
];

describe('AttachmentList', () => {
  it('shows a preview for images and a chip for other files, with name and size', async () => {
    const { container } = render(<AttachmentList attachments={files} />);
    const list = screen.getByRole('list', { name: 'Attachments' });
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'chart.png 2 KB',
      'PDFreport.pdf 3.0 MB',
      'Textnotes.txt 12 B',
    ]);
    const preview = list.querySelector('img');
    expect(preview?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    // Read-only without onRemove.
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('offers a remove button named for each file', async () => {
    const onRemove = vi.fn();
    const user = userEvent.setup();
    const { container } = render(<AttachmentList attachments={files} onRemove={onRemove} />);
    await user.click(screen.getByRole('button', { name: 'Remove report.pdf' }));
    expect(onRemove).toHaveBeenCalledWith('b');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('renders nothing without attachments', () => {
    const { container } = render(<AttachmentList attachments={[]} />);
    expect(container.innerHTML).toBe('');
  });
});
