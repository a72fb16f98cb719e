import {
  type ComponentProps,
  type ReactElement,
  type ReactNode,
  useLayoutEffect,
  useRef,
} from 'react';

/**
 * Boxes the stylesheet lets scroll (`overflow: auto` with a max height) must be reachable
 * by keyboard, or a keyboard user cannot read what overflows them (WCAG 2.1.1; axe
 * `scrollable-region-focusable`).
 */
export function ScrollablePre(props: ComponentProps<'pre'>): ReactElement {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box needs focus to scroll by keyboard.
  return <pre tabIndex={0} {...props} />;
}

/**
 * A box that scrolls sideways only when its content is wider than it (a wide table): then,
 * and only then, it is a named group in the tab order, so a keyboard user can scroll it. A
 * box that fits is a plain `div`, not an empty tab stop. Measured after the frame's layout
 * (never forcing one) and whenever the box or its content changes size.
 *
 * The three attributes are set on the element directly, not through state: the measure runs
 * in a ResizeObserver callback, after the frame's own commit, and a state change there would
 * be a second commit in the frame (a table growing while its answer streams). React renders
 * none of them, so it never undoes them.
 */
export function OverflowScroller({
  className,
  label,
  children,
}: {
  className: string;
  /** The accessible name while it scrolls. */
  label: string;
  children: ReactNode;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const name = useRef(label);
  name.current = label;
  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return;
    const measure = () => {
      // Scrolling: a named group (a role that takes a name) in the tab order.
      if (element.scrollWidth > element.clientWidth) {
        element.setAttribute('role', 'group');
        element.setAttribute('aria-label', name.current);
        element.tabIndex = 0;
      } else {
        element.removeAttribute('role');
        element.removeAttribute('aria-label');
        element.removeAttribute('tabindex');
      }
    };
    // A ResizeObserver's first report measures, after the frame's layout and before its paint:
    // measuring here read the layout of a page the commit had just changed, a forced layout
    // in the commit's task (3-4 ms for each table of a streaming answer). Every browser since
    // 2020 has one; jsdom, which lays nothing out, has nothing that would scroll.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  // A new name while it scrolls (no layout read: whether it scrolls is what was last measured).
  useLayoutEffect(() => {
    if (box.current?.hasAttribute('role')) box.current.setAttribute('aria-label', label);
  }, [label]);
  return (
    <div ref={box} className={className}>
      {children}
    </div>
  );
}
