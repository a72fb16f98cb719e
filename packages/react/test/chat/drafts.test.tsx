import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { createThreadStore, type ThreadStore, useThreadStore } from '../../src/threads.js';
import { scriptedFetch, sse, textAnswer } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const make = () => createChatStore({ request, fetch: scriptedFetch().fetch, batch: false });
const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
const fileInput = () =>
  document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], name, {
    type: 'image/png',
  });

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

describe('an open message editor', () => {
  it('keeps its words and removed files across a thread switch, and takes no focus on return', async () => {
    const scripted = scriptedFetch(() => sse(textAnswer('Seen.')));
    const first = createChatStore({ request, fetch: scripted.fetch, batch: false });
    const notes = new File(['Some notes.'], 'notes.txt', { type: 'text/plain' });
    const photo = png('photo.png');
    await act(() => first.getState().send('Both?', { attachments: [photo, notes] }));
    const user = userEvent.setup();
    const view = render(<ChatStream key="first" store={first} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edit message' });
    await user.type(editor, ' And briefly.');
    await user.click(screen.getByRole('button', { name: 'Remove photo.png' }));
    // Another thread, then back.
    view.rerender(<ChatStream key="second" store={make()} />);
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    view.rerender(<ChatStream key="first-again" store={first} />);
    const again = (await screen.findByRole('textbox', {
      name: 'Edit message',
    })) as HTMLTextAreaElement;
    expect(again.value).toBe('Both? And briefly.');
    const kept = screen.getByRole('list', { name: 'Files sent with the edit' });
    expect(within(kept).queryByText('photo.png')).toBeNull();
    expect(within(kept).getByText('notes.txt')).toBeDefined();
    // Shown again on its own, it does not pull focus from where the user is.
    expect(document.activeElement).not.toBe(again);
    // Cancelled, it is forgotten: shown again, the message is back to its text.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    view.rerender(<ChatStream key="first-third" store={first} />);
    await screen.findByRole('article', { name: 'You said' });
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
  });
});

describe('a draft kept across a reload of the tab', () => {
  /** A saved conversation: what a reload finds again is under its `persist.name`. */
  const saved = (name: string) => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    return createChatStore({
      request,
      fetch: scriptedFetch(() => sse(textAnswer('Noted.'))).fetch,
      batch: false,
      persist: { name, storage },
    });
  };

  it('comes back after the page goes, and is forgotten once sent', async () => {
    sessionStorage.clear();
    const user = userEvent.setup();
    const first = render(<ChatStream store={saved('reload-draft')} />);
    await user.type(field(), 'Half a thought');
    dispatchEvent(new Event('pagehide'));
    first.unmount();
    // The next load of the tab: a new store of the same conversation.
    const again = saved('reload-draft');
    const second = render(<ChatStream store={again} />);
    expect(field().value).toBe('Half a thought');
    await user.type(field(), ', finished.{Enter}');
    await waitFor(() => expect(again.getState().status).toBe('complete'));
    second.unmount();
    render(<ChatStream store={saved('reload-draft')} />);
    expect(field().value).toBe('');
  });

  it('keeps the draft of a conversation no longer shown when the page goes', async () => {
    sessionStorage.clear();
    const user = userEvent.setup();
    const view = render(<ChatStream key="a" store={saved('draft-a')} />);
    await user.type(field(), 'For A');
    // Another conversation shown; then the page goes.
    view.rerender(<ChatStream key="b" store={saved('draft-b')} />);
    dispatchEvent(new Event('pagehide'));
    view.unmount();
    render(<ChatStream store={saved('draft-a')} />);
    expect(field().value).toBe('For A');
  });

  it('keeps nothing in the tab for a conversation that is not saved', async () => {
    sessionStorage.clear();
    const user = userEvent.setup();
    const view = render(<ChatStream store={make()} />);
    await user.type(field(), 'Only in memory');
    dispatchEvent(new Event('pagehide'));
    view.unmount();
    expect(sessionStorage.length).toBe(0);
  });
});

/** The active thread's chat, as an app shows it (the demo does). */
function ShownThread({ threads }: { threads: ThreadStore }) {
  const active = useThreadStore(threads, (state) => state.activeId);
  const chat = active === null ? null : threads.getState().chatOf(active);
  return chat ? <ChatStream key={active} store={chat} /> : null;
}

describe('the draft of a deleted thread', () => {
  // An attack review: a thread deleted with words typed and not sent kept them in the tab's
  // sessionStorage (written as the composer left it) after its conversation was removed.
  it('is not kept in the tab once the thread is deleted, shown or not', async () => {
    sessionStorage.clear();
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    const threads = createThreadStore({
      chat: { request, fetch: scriptedFetch().fetch, batch: false },
      persist: { name: 'deleted-drafts', storage },
    });
    await threads.restored;
    const [a, b, c] = [0, 1, 2].map(() => {
      const id = threads.getState().newThread();
      // Renamed, so the next newThread makes another thread.
      threads.getState().renameThread(id, `Thread ${id}`);
      return id;
    }) as [string, string, string];
    const user = userEvent.setup();
    act(() => threads.getState().switchThread(a));
    render(<ShownThread threads={threads} />);
    await user.type(field(), 'A secret in A');
    act(() => threads.getState().switchThread(b));
    await user.type(field(), 'A secret in B');
    const kept = (id: string) =>
      sessionStorage.getItem(`message-stream:draft:deleted-drafts/${id}`);
    expect(kept(a)).toBe('A secret in A');
    // A, not shown, is deleted; then B, shown, is deleted (and another thread shown).
    act(() => threads.getState().deleteThread(a));
    act(() => threads.getState().deleteThread(b));
    expect(threads.getState().activeId).toBe(c);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kept(a)).toBeNull();
    expect(kept(b)).toBeNull();
    threads.dispose();
  });
});
