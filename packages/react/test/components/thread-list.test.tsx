import { act, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ThreadList } from '../../src/components/thread-list.js';
import { createThreadStore } from '../../src/store/create-thread-store.js';
import { axeViolations } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 256 };

describe('ThreadList', () => {
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
    expect(current.textContent).toBe('New conversation');

    await user.click(screen.getByRole('button', { name: 'Trip plans' }));
    expect(screen.getByRole('button', { current: 'page' }).textContent).toBe('Trip plans');

    await user.click(screen.getByRole('button', { name: 'Rename Trip plans' }));
    const field = screen.getByRole('textbox', { name: 'New name for Trip plans' });
    expect(document.activeElement).toBe(field);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Trip plans' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Rename Trip plans' }));
    await user.keyboard('Lisbon trip{Enter}');
    expect(threads.getState().threads.map((t) => t.title)).toContain('Lisbon trip');

    expect(await axeViolations(container)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete Lisbon trip' }));
    expect(threads.getState().threads.map((t) => t.title)).toEqual(['New conversation']);
    expect(screen.getByRole('button', { current: 'page' }).textContent).toBe('New conversation');
  });
});
