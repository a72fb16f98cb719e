import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';

// Real IntersectionObserver and idle periods: Chromium only.

const idle = (): Promise<void> =>
  new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 }));
const frame = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

const answer = (i: number) => `## Answer ${i}\n\nSome **bold** text and \`code\` for turn ${i}.`;

function History({ turns }: { turns: number }): ReactElement {
  return (
    <div data-testid="log" style={{ height: 300, overflowY: 'auto' }}>
      {Array.from({ length: turns }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list.
        <article key={i} style={{ minHeight: 200 }}>
          <TextBlockView text={answer(i)} />
        </article>
      ))}
    </div>
  );
}

const pendingIn = (root: HTMLElement) => root.querySelectorAll('.ms-markdown--pending').length;

describe('finished markdown mounted in bulk', () => {
  it('shows the text of most answers at once and parses them near the viewport or when idle', async () => {
    const view = render(<History turns={60} />);
    const log = view.getByTestId('log');
    // Every answer's words are in the DOM from the first render.
    expect(log.textContent).toContain('for turn 59.');
    // Only a few were parsed in that render; the rest wait.
    const waiting = pendingIn(log);
    expect(waiting).toBeGreaterThan(40);
    expect(log.querySelectorAll('h2').length).toBe(60 - waiting);

    // The reader scrolls to the end: what comes into view is parsed in the next frames.
    await act(async () => {
      log.scrollTop = log.scrollHeight;
      await frame();
    });
    const last = log.querySelectorAll('article')[59];
    expect(last?.querySelector('h2')?.textContent).toBe('Answer 59');

    // Idle periods parse the rest, a few at a time.
    for (let i = 0; i < 60 && pendingIn(log) > 0; i++) {
      await act(idle);
    }
    expect(pendingIn(log)).toBe(0);
    expect(log.querySelectorAll('strong').length).toBe(60);
  });

  it('parses a few answers at once right away', () => {
    const view = render(<History turns={5} />);
    expect(pendingIn(view.container)).toBe(0);
    expect(view.container.querySelectorAll('h2').length).toBe(5);
  });
});
