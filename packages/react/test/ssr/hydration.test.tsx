import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../../src/chat/composer.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const noop = () => {};
const composer = () => <Composer busy={false} onSend={noop} onStop={noop} autoFocus />;

describe('a server-rendered composer, hydrated on a touch screen', () => {
  it('neither autofocuses from its HTML nor keeps the server’s Enter key hint', async () => {
    // The server: no matchMedia, so it cannot know the pointer.
    vi.stubGlobal('matchMedia', undefined);
    const html = renderToString(composer());
    // The phone: the main pointer is a finger.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(pointer: coarse)',
      media: query,
      addEventListener: noop,
      removeEventListener: noop,
    }));
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const field = container.querySelector('textarea') as HTMLTextAreaElement;
    // The browser would focus an `autofocus` field as the page loads, keyboard and all.
    expect(field.hasAttribute('autofocus')).toBe(false);
    const errors = vi.spyOn(console, 'error').mockImplementation(noop);
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, composer(), { onRecoverableError: (e) => recoverable.push(e) });
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(field.isConnected).toBe(true);
    // Enter starts a line here: the keyboard's key says so.
    expect(field.getAttribute('enterkeyhint')).toBe('enter');
    expect(document.activeElement).not.toBe(field);
  });
});
