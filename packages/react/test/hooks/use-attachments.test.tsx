import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type AttachmentsController, useAttachments } from '../../src/index.js';

function Composer({ onView }: { onView: (view: AttachmentsController) => void }) {
  const files = useAttachments();
  onView(files);
  return (
    <div data-testid="zone" {...files.dropProps} onPaste={files.onPaste}>
      <input
        type="file"
        aria-label="Attach files"
        multiple
        accept={files.accept}
        onChange={files.onInputChange}
      />
      <output>{files.errors.join('|')}</output>
    </div>
  );
}

const png = (name = 'a.png') =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, {
    type: 'image/png',
  });

function setup() {
  let view: AttachmentsController | undefined;
  render(
    <Composer
      onView={(v) => {
        view = v;
      }}
    />,
  );
  return () => view as AttachmentsController;
}

describe('useAttachments', () => {
  it('reads files from the file input, lists them and removes one', async () => {
    const current = setup();
    const input = screen.getByLabelText('Attach files') as HTMLInputElement;
    act(() => {
      fireEvent.change(input, { target: { files: [png('a.png'), png('b.png')] } });
    });
    // Read in the attachment helpers' chunk: a wait of its own, longer on a loaded machine.
    await waitFor(() => expect(current().attachments).toHaveLength(2));
    expect(current().attachments.map((a) => [a.name, a.mediaType, a.data])).toEqual([
      ['a.png', 'image/png', 'iVBORw0KGgoBAgM='],
      ['b.png', 'image/png', 'iVBORw0KGgoBAgM='],
    ]);
    act(() => current().remove(current().attachments[0]?.id as string));
    expect(current().attachments.map((a) => a.name)).toEqual(['b.png']);
    act(() => current().clear());
    expect(current().attachments).toEqual([]);
  });

  it('takes pasted and dropped files, refusing others with a message naming them', async () => {
    const current = setup();
    const zone = screen.getByTestId('zone');
    act(() => {
      fireEvent.paste(zone, { clipboardData: { files: [png('pasted.png')] } });
    });
    await waitFor(() => expect(current().attachments).toHaveLength(1));
    expect(current().attachments.map((a) => a.name)).toEqual(['pasted.png']);
    const zip = new File(['PK'], 'code.zip', { type: 'application/zip' });
    act(() => {
      fireEvent.drop(zone, {
        dataTransfer: { files: [png('dropped.png'), zip], types: ['Files'] },
      });
    });
    await waitFor(() => expect(current().attachments).toHaveLength(2));
    expect(current().attachments.map((a) => a.name)).toEqual(['pasted.png', 'dropped.png']);
    expect(current().errors).toEqual([
      'code.zip cannot be attached: you can attach images (PNG, JPEG, GIF, WebP), PDFs and text files.',
    ]);
    expect(screen.getByRole('status').textContent).toContain('code.zip');
  });

  it('says files refused for their type once, together, and each other refusal on its own', async () => {
    const current = setup();
    const zone = screen.getByTestId('zone');
    const files = [
      new File(['PK'], 'code.zip', { type: 'application/zip' }),
      png('fine.png'),
      new File(['MZ'], 'setup.exe', { type: '' }),
      new File([new Uint8Array(4 * 1024 * 1024)], 'huge.png', { type: 'image/png' }),
      new File(['MZ'], 'tool.bin', { type: 'application/octet-stream' }),
    ];
    act(() => {
      fireEvent.drop(zone, { dataTransfer: { files, types: ['Files'] } });
    });
    await waitFor(() => expect(current().attachments).toHaveLength(1));
    expect(current().attachments.map((a) => a.name)).toEqual(['fine.png']);
    expect(current().errors).toEqual([
      'code.zip, setup.exe and tool.bin cannot be attached: you can attach images (PNG, JPEG, GIF, WebP), PDFs and text files.',
      'huge.png is too large (4 MB): an image can be at most 3.75 MB.',
    ]);
  });
});
