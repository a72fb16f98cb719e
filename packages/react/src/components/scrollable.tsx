import {
  type ComponentProps,
  type ReactElement,
  type ReactNode,
  useLayoutEffect,
  useRef,
  useState,
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
 * box that fits is a plain `div`, not an empty tab stop. Measured after layout and whenever
 * the box or its content changes size.
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
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  // Scrolling: a named group (a role that takes a name) in the tab order.
  const named = scrolls ? { role: 'group', 'aria-label': label, tabIndex: 0 } : null;
  return (
    <div ref={box} className={className} {...named}>
      {children}
    </div>
  );
}
