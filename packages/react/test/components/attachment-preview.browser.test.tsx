import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { UserMessage } from '../../src/chat/user-message.js';
import type { UserTurn } from '../../src/store/types.js';
import { withDefaultStyles } from '../browser-styles.js';

// The dialog in Chromium, with the kit's styles: a real modal, Escape, focus handed back.
withDefaultStyles();

/** A 1×1 PNG. */
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const turn: UserTurn = {
  id: 'turn_files',
  role: 'user',
  content: [
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
    {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'line one\nline two' },
      title: 'notes.txt',
    },
    {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: btoa('%PDF-1.4 tiny') },
      title: 'report.pdf',
    },
    { type: 'text', text: 'What are these?' },
  ],
  fileNames: ['pixel.png', 'notes.txt', 'report.pdf', null],
};

const dialog = () => screen.findByRole('dialog');

describe('a sent file, opened', () => {
  it('shows an image whole in a modal dialog; Escape closes it and focus goes back', async () => {
    render(<UserMessage turn={turn} />);
    const opener = screen.getByRole('button', { name: /^Open pixel\.png/ });
    await userEvent.click(opener);
    const shown = await dialog();
    expect(shown.matches(':modal')).toBe(true);
    expect(within(shown).getByRole('img', { name: 'pixel.png' })).toBeDefined();
    // Download saves the user's own bytes under the file's name.
    const download = await within(shown).findByRole('link', { name: 'Download' });
    expect(download.getAttribute('download')).toBe('pixel.png');
    expect(download.getAttribute('href')).toMatch(/^blob:/);
    const blob = await (await fetch(download.getAttribute('href') as string)).blob();
    expect(blob.type).toBe('image/png');
    expect(blob.size).toBe(atob(PIXEL).length);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('shows a text file’s text, and closes with Close', async () => {
    render(<UserMessage turn={turn} />);
    await userEvent.click(screen.getByRole('button', { name: /^Open notes\.txt/ }));
    const shown = await dialog();
    expect(within(shown).getByRole('region', { name: 'Text of notes.txt' }).textContent).toBe(
      'line one\nline two',
    );
    await userEvent.click(within(shown).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers a PDF in a new tab, with no opener', async () => {
    render(<UserMessage turn={turn} />);
    await userEvent.click(screen.getByRole('button', { name: /^Open report\.pdf/ }));
    const shown = await dialog();
    const link = await within(shown).findByRole('link', { name: 'Open it in a new tab' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    const blob = await (await fetch(link.getAttribute('href') as string)).blob();
    expect(blob.type).toBe('application/pdf');
  });

  it('revokes the file’s address when the dialog closes', async () => {
    render(<UserMessage turn={turn} />);
    await userEvent.click(screen.getByRole('button', { name: /^Open pixel\.png/ }));
    const href = (
      await within(await dialog()).findByRole('link', { name: 'Download' })
    ).getAttribute('href') as string;
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(fetch(href)).rejects.toThrow();
  });
});
