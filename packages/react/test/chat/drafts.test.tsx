import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { scriptedFetch } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const make = () => createChatStore({ request, fetch: scriptedFetch().fetch, batch: false });
const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
const fileInput = () =>
  document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
const png = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/png' });

describe('drafts kept per conversation', () => {
  it('a store switch without a key does not file one conversation’s draft under the other', async () => {
    const [first, second] = [make(), make()];
    const user = userEvent.setup();
    // The app passes the shown thread's store (ChatStream follows a new store prop).
    const view = render(<ChatStream store={first} />);
    await user.type(field(), 'Private note for the first');
    view.rerender(<ChatStream store={second} />);
    // Later the second conversation is shown afresh (remounted).
    view.rerender(<ChatStream key="again" store={second} />);
    // the second conversation's draft is its own (empty), not the first's.
    expect(field().value).toBe('');
  });

  it('a file still being read when the thread is switched lands in its own conversation’s draft', async () => {
    const [first, second] = [make(), make()];
    const user = userEvent.setup();
    const view = render(<ChatStream key="first" store={first} />);
    // Attached, and the thread switched before the file was read.
    await user.upload(fileInput(), png('late.png'));
    view.rerender(<ChatStream key="second" store={second} />);
    await new Promise((resolve) => setTimeout(resolve, 200));
    view.rerender(<ChatStream key="first-again" store={first} />);
    // the file the user attached to the first conversation is still there.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove late.png' })).toBeDefined(),
    );
  });

  it('a file read after a store switch without a key does not land in the other conversation', async () => {
    const [first, second] = [make(), make()];
    const user = userEvent.setup();
    const view = render(<ChatStream store={first} />);
    await user.upload(fileInput(), png('first-only.png'));
    view.rerender(<ChatStream store={second} />);
    await new Promise((resolve) => setTimeout(resolve, 200));
    view.rerender(<ChatStream key="second-again" store={second} />);
    // the second conversation never got the first one's file.
    expect(screen.queryByRole('button', { name: 'Remove first-only.png' })).toBeNull();
  });
});
