import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageActions } from '../../src/components/message-actions.js';
import { ToolCallCard } from '../../src/components/tool-call-card.js';
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

describe.each(['light', 'dark'])('control outlines (%s)', (theme) => {
  it('hold 3:1 against what is around them (WCAG 1.4.11), and stay calm', async () => {
    const block = {
      index: 0,
      status: 'complete' as const,
      block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    };
    const { container } = render(
      <div data-theme={theme} style={{ background: 'var(--ms-bg)' }}>
        <ToolCallCard block={block} status="awaiting-approval" onApprove={noop} onDeny={noop} />
        <input className="ms-thread__field" aria-label="Rename" />
        <div className="ms-composer" />
      </div>,
    );
    const root = container.firstElementChild as HTMLElement;
    const page = rgba('var(--ms-bg)', root);
    const strong = rgba('var(--ms-border-strong)', root);
    // The token itself: 3:1 with room, not a heavy line (about 3.3–3.7).
    expect(contrast(strong, page)).toBeGreaterThanOrEqual(3.3);
    expect(contrast(strong, page)).toBeLessThanOrEqual(3.7);

    const edge = (element: Element) => rgba(getComputedStyle(element).borderTopColor, root);
    const reason = screen.getByRole('textbox', { name: 'Reason (optional)' });
    const panel = rgba(
      getComputedStyle(container.querySelector('.ms-tool__approval') as Element).backgroundColor,
      root,
    );
    // The Deny reason sits on the warning panel: 3:1 against it and against its own fill.
    expect(contrast(edge(reason), panel)).toBeGreaterThanOrEqual(3);
    expect(
      contrast(edge(reason), rgba(getComputedStyle(reason).backgroundColor, root)),
    ).toBeGreaterThanOrEqual(3);
    for (const field of [
      container.querySelector('.ms-thread__field'),
      container.querySelector('.ms-composer'),
    ]) {
      expect(contrast(edge(field as Element), page)).toBeGreaterThanOrEqual(3);
    }
  });
});
