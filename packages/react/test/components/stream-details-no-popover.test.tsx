import { createStreamState } from '@message-stream/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamDetails } from '../../src/components/stream-details.js';

const errors: unknown[] = [];
const onError = (event: ErrorEvent) => {
  errors.push(event.error);
  event.preventDefault();
};
afterEach(() => window.removeEventListener('error', onError));

describe('the details popover closing on blur', () => {
  it('throws nothing where the Popover API is missing (jsdom, Safari < 17) when focus leaves it', async () => {
    window.addEventListener('error', onError);
    const state = createStreamState();
    render(
      <>
        <StreamDetails stream={state} locale="en-US" />
        <button type="button">Elsewhere</button>
      </>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Stream details' }));
    const panel = screen.getByRole('dialog', { hidden: true });
    // Without the Popover API the panel is an ordinary element: a click puts focus in it.
    panel.focus();
    expect(document.activeElement).toBe(panel);
    // moving focus on (Tab, a click elsewhere) throws nothing.
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    expect(errors).toEqual([]);
  });
});
