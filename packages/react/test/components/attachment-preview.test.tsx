import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UserMessage } from '../../src/chat/user-message.js';
import { AttachmentPreview } from '../../src/components/attachment-preview.js';
import type { UserTurn } from '../../src/store/types.js';

// Runs in jsdom (no `showModal` or `close`: the dialog's fallback) and in Chromium (native).

const turn: UserTurn = {
  id: 'turn_note',
  role: 'user',
  content: [
    {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'line one' },
      title: 'notes.txt',
    },
    { type: 'text', text: 'Read this' },
  ],
};

describe('AttachmentPreview', () => {
  it('closes with Close, focus back on the file, where the dialog has no showModal too', async () => {
    const user = userEvent.setup();
    render(<UserMessage turn={turn} />);
    const opener = screen.getByRole('button', { name: /^Open notes\.txt/ });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'notes.txt' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    // Closed, and gone once the app heard of it (onClose: a close event, a task later).
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(document.activeElement).toBe(opener);
  });
});

describe('AttachmentPreview of a long text', () => {
  it('cuts it short between characters, never inside one (an emoji at the cut)', async () => {
    // 99,999 letters, then an emoji (two UTF-16 units) across the 100,000th unit.
    const data = `${'a'.repeat(99_999)}😀 and the rest`;
    render(
      <AttachmentPreview
        attachment={{
          id: 'long',
          name: 'long.txt',
          mediaType: 'text/plain',
          size: data.length,
          data,
        }}
        onClose={() => {}}
      />,
    );
    const region = await screen.findByRole('region', { name: 'Text of long.txt' });
    const shown = region.textContent ?? '';
    expect(shown.length).toBeLessThan(data.length + 100);
    expect(shown).toMatch(/more characters/);
    // No half of a surrogate pair (drawn as �).
    expect(shown).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });
});
