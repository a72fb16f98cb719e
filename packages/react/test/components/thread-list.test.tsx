import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ThreadList } from '../../src/components/thread-list.js';
import { createThreadStore } from '../../src/store/create-thread-store.js';
import { axeViolations } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 256 };

describe('ThreadList', () => {
  it('saves a rename when the field is left, and leaves focus where the user put it', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    const user = userEvent.setup();
    render(<ThreadList store={threads} />);
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    await user.click(within(nav).getByRole('button', { name: 'New conversation' }));
    await user.click(within(nav).getByRole('button', { name: 'Rename Untitled' }));
    await user.keyboard('Budget{Tab}');
    // Tab reaches Save, inside the form: still renaming.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    expect(threads.getState().threads[0]?.title).toBe('Untitled');
    // Clicking away (here, New conversation) saves, and the click keeps its focus.
    const fresh = within(nav).getByRole('button', { name: 'New conversation' });
    await user.click(fresh);
    expect(threads.getState().threads.map((t) => t.title)).toContain('Budget');
    expect(screen.queryByRole('textbox', { name: /New name for/ })).toBeNull();
    expect(document.activeElement).toBe(fresh);
    // Emptied and left, the name stays what it was.
    await user.click(within(nav).getByRole('button', { name: 'Rename Budget' }));
    await user.keyboard('{Backspace}');
    await user.click(document.body);
    expect(threads.getState().threads.map((t) => t.title)).toContain('Budget');
  });

  it('marks a conversation answering, says so to screen readers, and shows a long title whole on hover', async () => {
    // A request that waits until it is stopped.
    const fetch = (_: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('Stopped', 'AbortError')),
        ),
      );
    const threads = createThreadStore({ chat: { request, batch: false, fetch } });
    const { container } = render(<ThreadList store={threads} />);
    const chat = threads.getState().chatOf(threads.getState().newThread());
    const title = 'A question long enough to be cut short in a narrow list';
    void chat?.getState().send(title);
    const row = await screen.findByRole('button', { name: `${title}, answering` });
    expect(row.getAttribute('title')).toBe(title);
    expect(container.querySelectorAll('.ms-thread__answering')).toHaveLength(1);
    act(() => chat?.getState().stop());
    await screen.findByRole('button', { name: title });
    expect(container.querySelectorAll('.ms-thread__answering')).toHaveLength(0);
  });

  it('starts, shows, renames and deletes threads from the keyboard', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    const user = userEvent.setup();
    const { container } = render(<ThreadList store={threads} />);
    const nav = screen.getByRole('navigation', { name: 'Conversations' });

    await user.click(within(nav).getByRole('button', { name: 'New conversation' }));
    act(() => {
      threads.getState().renameThread(threads.getState().threads[0]?.id as string, 'Trip plans');
    });
    await user.click(within(nav).getByRole('button', { name: 'New conversation' }));
    const items = within(nav).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const current = within(nav).getByRole('button', { current: 'page' });
    expect(current.textContent).toBe('Untitled');

    await user.click(screen.getByRole('button', { name: 'Trip plans' }));
    expect(screen.getByRole('button', { current: 'page' }).textContent).toBe('Trip plans');

    await user.click(screen.getByRole('button', { name: 'Rename Trip plans' }));
    const field = screen.getByRole('textbox', { name: 'New name for Trip plans' });
    expect(document.activeElement).toBe(field);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Trip plans' })).toBeDefined();
    // Cancelled: focus back on the row's Rename, not the page.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Trip plans' }));
    await user.keyboard('{Enter}');
    await user.keyboard('Lisbon trip{Enter}');
    expect(threads.getState().threads.map((t) => t.title)).toContain('Lisbon trip');
    // Saved: focus on the same row's Rename, named anew.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Lisbon trip' }));

    expect(await axeViolations(container)).toEqual([]);
    // Delete asks first, Cancel focused: Escape, Cancel or a stray Enter keep the thread.
    await user.click(screen.getByRole('button', { name: 'Delete Lisbon trip' }));
    const confirm = screen.getByRole('group', { name: 'Delete Lisbon trip?' });
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await axeViolations(container)).toEqual([]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Delete Lisbon trip?' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Delete Lisbon trip' }),
      ),
    );
    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(threads.getState().threads.map((t) => t.title)).toContain('Lisbon trip');
    await user.click(screen.getByRole('button', { name: 'Delete Lisbon trip' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Delete Lisbon trip?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(threads.getState().threads.map((t) => t.title)).toEqual(['Untitled']);
    const shown = screen.getByRole('button', { current: 'page' });
    expect(shown.textContent).toBe('Untitled');
    await waitFor(() => expect(document.activeElement).toBe(shown));
  });
});

describe('ThreadList: New conversation', () => {
  it('shows one empty conversation however often it is pressed', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    const user = userEvent.setup();
    render(<ThreadList store={threads} />);
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    const button = within(nav).getByRole('button', { name: 'New conversation' });
    await user.click(button);
    await user.click(button);
    await user.click(button);
    expect(within(nav).getAllByRole('listitem')).toHaveLength(1);
  });

  it('says which thread it opened, from a row or from New conversation (onOpen)', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    const first = threads.getState().newThread();
    act(() => threads.getState().renameThread(first, 'Trip plans'));
    const opened: string[] = [];
    const user = userEvent.setup();
    render(<ThreadList store={threads} onOpen={(id) => opened.push(id)} />);
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    await user.click(within(nav).getByRole('button', { name: 'New conversation' }));
    const started = threads.getState().activeId;
    await user.click(within(nav).getByRole('button', { name: /^Trip plans/ }));
    expect(opened).toEqual([started, first]);
    expect(started).not.toBe(first);
    // Renaming or deleting opens nothing.
    await user.click(within(nav).getAllByRole('button', { name: /^Rename/ })[0] as HTMLElement);
    await user.keyboard('{Escape}');
    expect(opened).toHaveLength(2);
  });
});

describe('ThreadList date headings', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('puts threads under Today, Yesterday, the previous 7 and 30 days, then their month', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    const now = new Date(2026, 11, 1, 15, 0).getTime();
    const midnight = new Date(2026, 11, 1).getTime();
    const at = [
      now - 60_000,
      midnight + 1,
      midnight - 1,
      midnight - 3 * DAY,
      midnight - 20 * DAY,
      new Date(2026, 8, 14).getTime(),
      new Date(2026, 8, 2).getTime(),
      new Date(2025, 11, 30).getTime(),
    ];
    act(() => {
      for (let i = at.length - 1; i >= 0; i--) {
        const id = threads.getState().newThread();
        threads.getState().renameThread(id, `Thread ${i}`);
      }
      // The activity times the list sorts and files by, as a restored list would have them.
      threads.setState((state) => ({
        threads: state.threads.map((thread, i) => ({ ...thread, updatedAt: at[i] as number })),
      }));
    });
    const realNow = Date.now;
    Date.now = () => now;
    try {
      render(<ThreadList store={threads} />);
      const nav = screen.getByRole('navigation', { name: 'Conversations' });
      await screen.findAllByRole('listitem');
      const month = (date: Date) =>
        new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }).format(date);
      const sections = within(nav)
        .getAllByRole('list')
        .map((list) => [
          list.getAttribute('aria-labelledby') &&
            document.getElementById(list.getAttribute('aria-labelledby') as string)?.textContent,
          within(list)
            .getAllByRole('listitem')
            .map((item) => item.querySelector('.ms-thread__open')?.textContent),
        ]);
      expect(sections).toEqual([
        ['Today', ['Thread 0', 'Thread 1']],
        ['Yesterday', ['Thread 2']],
        ['Previous 7 days', ['Thread 3']],
        ['Previous 30 days', ['Thread 4']],
        [month(new Date(2026, 8, 1)), ['Thread 5', 'Thread 6']],
        [month(new Date(2025, 11, 1)), ['Thread 7']],
      ]);
      // Each list is named by its heading, for screen readers' list navigation.
      expect(within(nav).getByRole('list', { name: 'Yesterday' })).toBeDefined();
    } finally {
      Date.now = realNow;
    }
  });

  it('puts a thread whose time is not a number under Older instead of failing', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    act(() => {
      const id = threads.getState().newThread();
      threads.getState().renameThread(id, 'Odd one');
      threads.setState((state) => ({
        threads: state.threads.map((thread) => ({ ...thread, updatedAt: Number.NaN })),
      }));
    });
    render(<ThreadList store={threads} />);
    const older = await screen.findByRole('list', { name: 'Older' });
    expect(within(older).getByRole('button', { name: 'Odd one' })).toBeDefined();
  });

  it('takes other words for the relative headings, or none at all', async () => {
    const threads = createThreadStore({ chat: { request, batch: false } });
    act(() => {
      threads.getState().newThread();
    });
    const { rerender } = render(
      <ThreadList store={threads} sectionLabels={{ today: "Aujourd'hui" }} />,
    );
    expect(await screen.findByRole('list', { name: "Aujourd'hui" })).toBeDefined();
    rerender(<ThreadList store={threads} groupByDate={false} />);
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    expect(within(nav).getAllByRole('list')).toHaveLength(1);
    expect(nav.querySelector('.ms-threads__heading')).toBeNull();
  });
});
