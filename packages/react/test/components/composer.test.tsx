import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../../src/chat/composer.js';
import { useAttachments } from '../../src/hooks/use-attachments.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const noop = () => {};
const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

/** A phone: the main pointer is a finger. */
const onATouchScreen = () =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(pointer: coarse)',
    media: query,
  }));

describe('Composer on a touch screen', () => {
  it('starts a new line on Enter and sends with the Send button', async () => {
    onATouchScreen();
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<Composer busy={false} onSend={onSend} onStop={noop} />);
    await user.type(field(), 'first line{Enter}second line');
    expect(onSend).not.toHaveBeenCalled();
    expect(field().value).toBe('first line\nsecond line');
    expect(field().getAttribute('enterkeyhint')).toBe('enter');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('first line\nsecond line');
  });

  it('does not take focus on load, where it would open the keyboard over the page', () => {
    onATouchScreen();
    render(<Composer busy={false} onSend={noop} onStop={noop} autoFocus />);
    expect(document.activeElement).not.toBe(field());
  });

  it('sends on Enter when the app says so (enterKeySends)', async () => {
    onATouchScreen();
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<Composer busy={false} onSend={onSend} onStop={noop} enterKeySends />);
    await user.type(field(), 'Hello{Enter}');
    expect(onSend).toHaveBeenCalledWith('Hello');
  });
});

describe('Composer with a keyboard', () => {
  it('sends on Enter, starts a line on Shift+Enter, and takes focus when asked', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<Composer busy={false} onSend={onSend} onStop={noop} autoFocus />);
    expect(document.activeElement).toBe(field());
    expect(field().getAttribute('enterkeyhint')).toBe('send');
    await user.type(field(), 'one{Shift>}{Enter}{/Shift}two{Enter}');
    expect(onSend).toHaveBeenCalledWith('one\ntwo');
  });

  it('does not tell of an Enter that does not send (enterKeySends false)', () => {
    render(<Composer busy={false} onSend={noop} onStop={noop} enterKeySends={false} />);
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send.getAttribute('title') ?? '').not.toMatch(/Enter/);
  });

  it('leaves Enter to the field when the app says so (enterKeySends false)', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<Composer busy={false} onSend={onSend} onStop={noop} enterKeySends={false} />);
    await user.type(field(), 'a{Enter}b');
    expect(onSend).not.toHaveBeenCalled();
    expect(field().value).toBe('a\nb');
  });
});

function WithFiles() {
  const attachments = useAttachments();
  return <Composer busy={false} onSend={noop} onStop={noop} attachments={attachments} />;
}

describe('Composer refusals', () => {
  it('can be dismissed, and focus goes back to the field', async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(<WithFiles />);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(input as HTMLInputElement, new File(['PK'], 'code.zip'));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('code.zip cannot be attached');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(document.activeElement).toBe(field());
  });

  it('on a touch screen, hands focus to Attach rather than opening the keyboard', async () => {
    onATouchScreen();
    const user = userEvent.setup({ applyAccept: false });
    render(<WithFiles />);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(input as HTMLInputElement, new File(['MZ'], 'setup.exe'));
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Attach files' }));
  });
});

describe('Composer files', () => {
  it('opens a file before it is sent, and closes it again', async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(<WithFiles />);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(
      input as HTMLInputElement,
      new File(['Remember the milk.'], 'list.txt', { type: 'text/plain' }),
    );
    await user.click(await screen.findByRole('button', { name: /^Open list\.txt/ }));
    const dialog = await screen.findByRole('dialog', { name: 'list.txt' });
    expect(dialog.textContent).toContain('Remember the milk.');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Still staged: looking at it did not remove it.
    expect(screen.getByRole('button', { name: 'Remove list.txt' })).toBeDefined();
  });
});
