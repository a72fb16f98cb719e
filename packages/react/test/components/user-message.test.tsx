import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserMessage } from '../../src/chat/user-message.js';
import type { UserTurn } from '../../src/store/types.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A phone: the main pointer is a finger. */
const onATouchScreen = () =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(pointer: coarse)',
    media: query,
  }));

const turn: UserTurn = { id: 'turn_touch', role: 'user', content: 'First line' };

describe('UserMessage’s editor on a touch screen', () => {
  it('starts a new line on Enter, as the composer does there, and sends with Send', async () => {
    onATouchScreen();
    const onEdit = vi.fn();
    const user = userEvent.setup();
    render(<UserMessage turn={turn} onEdit={onEdit} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement;
    await user.type(field, '{Enter}second line');
    expect(onEdit).not.toHaveBeenCalled();
    expect(field.value).toBe('First line\nsecond line');
    expect(field.getAttribute('enterkeyhint')).toBe('enter');
    await user.click(screen.getByRole('button', { name: 'Send edited message' }));
    expect(onEdit).toHaveBeenCalledWith('turn_touch', 'First line\nsecond line', undefined);
  });
});

/** An app's own versions: an edit shows its new turn at once, and the first can be shown again. */
function Versions({ first }: { first: UserTurn }) {
  const [versions, setVersions] = useState<UserTurn[]>([first]);
  const [shown, setShown] = useState(0);
  const turn = versions[shown] as UserTurn;
  return (
    <>
      <UserMessage
        key={turn.id}
        turn={turn}
        onEdit={(_id, content) => {
          setVersions((all) => [
            ...all,
            { id: `${first.id}_v${all.length}`, role: 'user', content },
          ]);
          setShown(versions.length);
        }}
      />
      <button type="button" onClick={() => setShown(0)}>
        First version
      </button>
    </>
  );
}

describe('UserMessage’s editor, sent', () => {
  it('is closed on the first version when that is shown again, however soon the app swaps turns', async () => {
    const user = userEvent.setup();
    render(<Versions first={{ id: 'turn_sent', role: 'user', content: 'Before' }} />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('textbox', { name: 'Edit message' }), ' and after{Enter}');
    expect(screen.getByText('Before and after')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'First version' }));
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    expect(screen.getByText('Before')).toBeDefined();
  });
});
