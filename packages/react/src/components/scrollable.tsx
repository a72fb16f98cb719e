import type { ComponentProps, ReactElement } from 'react';

/**
 * Boxes the stylesheet lets scroll (`overflow: auto` with a max height) must be reachable
 * by keyboard, or a keyboard user cannot read what overflows them (WCAG 2.1.1; axe
 * `scrollable-region-focusable`).
 */
export function ScrollablePre(props: ComponentProps<'pre'>): ReactElement {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box needs focus to scroll by keyboard.
  return <pre tabIndex={0} {...props} />;
}

export function ScrollableDiv(props: ComponentProps<'div'>): ReactElement {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box needs focus to scroll by keyboard.
  return <div tabIndex={0} {...props} />;
}
