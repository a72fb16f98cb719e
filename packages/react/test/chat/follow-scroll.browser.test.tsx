import { act, render } from '@testing-library/react';
import { type ReactElement, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { describe, expect, it } from 'vitest';
import { useFollowScroll } from '../../src/hooks/use-follow-scroll.js';

// Real layout: a 200 px log whose last turn grows, in Chromium.

const frame = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

let grow: (lines: number) => void = () => {};
let addTurn: () => void = () => {};

function Log(): ReactElement {
  const [turns, setTurns] = useState<number[]>([5]);
  grow = (lines) => setTurns((t) => [...t.slice(0, -1), lines]);
  addTurn = () => setTurns((t) => [...t, 1]);
  const ref = useRef<HTMLDivElement>(null);
  const follow = useFollowScroll(ref, turns);
  return (
    <div
      ref={ref}
      data-testid="log"
      onScroll={follow.onScroll}
      style={{ height: 200, overflowY: 'auto' }}
    >
      {turns.map((lines, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: turns are only appended.
        <article key={i}>
          {Array.from({ length: lines }, (_, line) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are only appended.
            <p key={line} style={{ margin: 0, height: 20 }}>
              line {line}
            </p>
          ))}
        </article>
      ))}
    </div>
  );
}

/** Counts reads of `scrollHeight` on `element` (each one may force a synchronous layout). */
function countScrollHeightReads(element: HTMLElement): { reads: number } {
  const counter = { reads: 0 };
  const native = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight');
  Object.defineProperty(element, 'scrollHeight', {
    configurable: true,
    get() {
      counter.reads++;
      return native?.get?.call(this) as number;
    },
  });
  return counter;
}

const gapToBottom = (element: HTMLElement) =>
  element.scrollHeight - element.clientHeight - element.scrollTop;

describe('useFollowScroll in a real browser', () => {
  it('follows a growing turn without reading layout during the commit', async () => {
    const view = render(<Log />);
    const log = view.getByTestId('log');
    await act(frame);
    const counter = countScrollHeightReads(log);
    // A commit of new content: nothing in it may ask for layout (that would lay out the whole
    // log synchronously, on top of the frame's own layout).
    flushSync(() => grow(40));
    expect(counter.reads).toBe(0);
    // The frame's own layout, then the observer: pinned to the bottom before the next paint.
    await act(frame);
    expect(gapToBottom(log)).toBeLessThanOrEqual(1);
    expect(log.scrollTop).toBeGreaterThan(500);

    counter.reads = 0;
    flushSync(() => addTurn());
    expect(counter.reads).toBe(0);
    await act(frame);
    expect(gapToBottom(log)).toBeLessThanOrEqual(1);
    flushSync(() => grow(10));
    await act(frame);
    expect(gapToBottom(log)).toBeLessThanOrEqual(1);
  });

  it('lets go when the reader scrolls up, and does not pull them back as the turn grows', async () => {
    const view = render(<Log />);
    const log = view.getByTestId('log');
    await act(async () => {
      grow(40);
      await frame();
    });
    await act(async () => {
      log.scrollTop = 100;
      await frame();
    });
    await act(async () => {
      grow(80);
      await frame();
    });
    expect(log.scrollTop).toBe(100);
  });

  it('stays pinned when content grows before a late scroll event (a fast stream, an answer footer)', async () => {
    const view = render(<Log />);
    const log = view.getByTestId('log');
    await act(async () => {
      grow(40);
      await frame();
    });
    expect(gapToBottom(log)).toBeLessThanOrEqual(1);
    // The browser reports our own pin a frame late, when more has arrived below it: the
    // position did not move up, so this is not the reader leaving.
    flushSync(() => grow(44));
    await act(async () => {
      log.dispatchEvent(new Event('scroll'));
      await frame();
    });
    expect(gapToBottom(log)).toBeLessThanOrEqual(1);
    flushSync(() => grow(60));
    await act(frame);
    expect(gapToBottom(log)).toBeLessThanOrEqual(1);
  });
});
