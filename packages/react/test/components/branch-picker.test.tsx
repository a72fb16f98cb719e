import { createMockFetch } from '@message-stream/mock';
import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BranchPicker } from '../../src/components/branch-picker.js';
import { createChatStore } from '../../src/store/create-chat-store.js';
import { axeViolations } from './support.js';

const request = { model: 'claude-opus-5', max_tokens: 256 };
/** The answer shown now (its id changes as versions are switched). */
const shown = (store: ReturnType<typeof createChatStore>) =>
  store.getState().turns[1]?.id as string;

async function storeWithVersions(count: number) {
  const store = createChatStore({
    request,
    fetch: createMockFetch({ defaultFixture: 'spec-basic-text' }),
    batch: false,
  });
  await act(() => store.getState().send('Hello'));
  for (let i = 1; i < count; i++) await act(() => store.getState().regenerate());
  const answer = store.getState().turns[1]?.id as string;
  return { store, answer };
}

describe('BranchPicker', () => {
  it('renders nothing for a turn without siblings', async () => {
    const { store, answer } = await storeWithVersions(1);
    const { container } = render(<BranchPicker store={store} turnId={answer} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows ‹ 3 / 3 › in a named group and switches with the buttons', async () => {
    const { store, answer } = await storeWithVersions(3);
    const user = userEvent.setup();
    const { container } = render(<BranchPicker store={store} turnId={answer} />);
    const group = screen.getByRole('group', { name: 'Version 3 of 3' });
    expect(group.textContent).toContain('3 / 3');
    expect(screen.getByRole('button', { name: 'Next version' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Previous version' }));
    expect(store.getState().branchesOf(shown(store))).toEqual({ index: 1, count: 3 });
    expect(screen.getByRole('group', { name: 'Version 2 of 3' }).textContent).toContain('2 / 3');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('is operable from the keyboard: Tab to it, Enter, and the arrow keys', async () => {
    const { store, answer } = await storeWithVersions(3);
    const user = userEvent.setup();
    render(<BranchPicker store={store} turnId={answer} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Previous version' }));
    await user.keyboard('{Enter}');
    expect(store.getState().branchesOf(shown(store)).index).toBe(1);
    await user.keyboard('{ArrowLeft}');
    expect(store.getState().branchesOf(shown(store)).index).toBe(0);
    // At the first version Previous does nothing, and keeps focus.
    await user.keyboard('{Enter}');
    expect(store.getState().branchesOf(shown(store)).index).toBe(0);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Previous version' }));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('group', { name: 'Version 3 of 3' })).toBeDefined();
  });
});
