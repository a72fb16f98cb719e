import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageActions } from '../../src/components/message-actions.js';
import { withDefaultStyles } from '../browser-styles.js';
import { contrast, over, rgba } from './colour.js';

// The default stylesheet's controls, measured in Chromium: colours, sizes, states.
withDefaultStyles();

const noop = () => {};

describe.each(['light', 'dark'])('a pressed feedback button (%s)', (theme) => {
  it('stands out by a background and a filled icon, not by hue alone', () => {
    const { container } = render(
      <div data-theme={theme} style={{ background: 'var(--ms-bg)' }}>
        <MessageActions copyText="x" onFeedback={noop} feedback="up" />
      </div>,
    );
    const root = container.firstElementChild as HTMLElement;
    const page = rgba('var(--ms-bg)', root);
    const pressed = screen.getByRole('button', { name: 'Good answer' });
    const other = screen.getByRole('button', { name: 'Bad answer' });
    const backOf = (button: HTMLElement) =>
      over(rgba(getComputedStyle(button).backgroundColor, root), page);
    // A visible tint behind the pressed one; none behind the other.
    expect(contrast(backOf(other), page)).toBe(1);
    expect(contrast(backOf(pressed), page)).toBeGreaterThan(1.15);
    // Its icon is filled: a shape that differs, whatever the colours.
    expect(getComputedStyle(pressed.querySelector('path') as SVGPathElement).fill).not.toBe('none');
    expect(getComputedStyle(other.querySelector('path') as SVGPathElement).fill).toBe('none');
  });
});
