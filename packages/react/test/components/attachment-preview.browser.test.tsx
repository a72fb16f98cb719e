import { textFixture } from '@message-stream/mock';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { UserMessage } from '../../src/chat/user-message.js';
import { ChatStream, createChatStore } from '../../src/index.js';
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

/** A fetch whose answer starts and then hangs: an answer still streaming. */
function hangingFetch(): typeof fetch {
  return async (_input, init) => {
    // An answer's first events, without its end: the mock's own text answer, cut.
    const answer = textFixture('Looking at it');
    const head = answer.slice(0, answer.indexOf('event: content_block_stop'));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

describe('a sent file, opened while its answer streams', () => {
  it('Escape closes the file and leaves the answer streaming', async () => {
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 1024 },
      fetch: hangingFetch(),
      retry: false,
    });
    render(
      <div style={{ height: '600px' }}>
        <ChatStream store={store} />
      </div>,
    );
    const notes = new File(['line one'], 'notes.txt', { type: 'text/plain' });
    void store.getState().send('Read this', { attachments: [notes] });
    await screen.findByText('Looking at it');
    expect(store.getState().status).toBe('streaming');
    await userEvent.click(await screen.findByRole('button', { name: /^Open notes\.txt/ }));
    await dialog();
    await userEvent.keyboard('{Escape}');
    // The Escape was the dialog's: it closed, and the answer the user did not stop goes on.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(store.getState().status).toBe('streaming');
    store.getState().stop();
  });
});

describe('a sent file’s dialog and the backdrop', () => {
  it('stays open when a selection started in the text ends on the backdrop', async () => {
    render(<UserMessage turn={turn} />);
    await userEvent.click(screen.getByRole('button', { name: /^Open notes\.txt/ }));
    const shown = (await dialog()) as HTMLDialogElement;
    const text = within(shown).getByRole('region', { name: 'Text of notes.txt' });
    // Pressed in the text, let go over the backdrop: the browser's click lands on the dialog,
    // the nearest element both were in.
    text.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    shown.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shown.open).toBe(true);
    // Pressed and let go on the backdrop, it closes.
    shown.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    shown.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('a file’s chip and its opened text, laid out', () => {
  it('keeps what a chip holds inside it, so a row of chips scrolls rather than widening the page', () => {
    render(
      <div style={{ position: 'relative', width: 390 }}>
        <UserMessage turn={turn} />
      </div>,
    );
    const chip = screen.getByRole('button', { name: /^Open report\.pdf/ }).closest('li');
    const hidden = chip?.querySelector('.ms-visually-hidden') as HTMLElement;
    // Positioned against its own chip, not an ancestor outside a scrolling row.
    expect(hidden.offsetParent).toBe(chip);
  });

  it('starts a text taller than the dialog at its first line', async () => {
    const long: UserTurn = {
      id: 'turn_long',
      role: 'user',
      content: [
        {
          type: 'document',
          source: {
            type: 'text',
            media_type: 'text/plain',
            data: Array.from({ length: 200 }, (_, i) => `Line ${i + 1}`).join('\n'),
          },
          title: 'long.txt',
        },
      ],
    };
    render(<UserMessage turn={long} />);
    await userEvent.click(screen.getByRole('button', { name: /^Open long\.txt/ }));
    const shown = await dialog();
    const region = within(shown).getByRole('region', { name: 'Text of long.txt' });
    const body = shown.querySelector('.ms-file-preview__body') as HTMLElement;
    // The first line is in view at the top of the frame, not above it out of reach.
    expect(region.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      body.getBoundingClientRect().top - 1,
    );
    await userEvent.keyboard('{Escape}');
  });
});
