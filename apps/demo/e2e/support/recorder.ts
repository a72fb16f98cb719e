/**
 * Watches the newest answer in the page and keeps every distinct state the reader could have
 * seen: one snapshot per DOM commit that changed something, taken in the page by a
 * MutationObserver, so no intermediate state is missed however short it lasted, and none is
 * inferred from timing.
 */
import type { Page } from 'playwright';

export interface Snapshot {
  /** ms since recording started. */
  readonly at: number;
  /** The answer's `data-status` (the stream's status). */
  readonly status: string | null;
  /** The answer's text blocks, whitespace collapsed. */
  readonly text: string;
  /** `aria-expanded` of the answer's thinking disclosure, if it has one. */
  readonly thinkingExpanded: string | null;
  /** The tool card's input as displayed (the formatted JSON), if there is one. */
  readonly toolInput: string | null;
}

declare global {
  interface Window {
    __e2eSnapshots?: Snapshot[];
    __e2eStop?: () => void;
  }
}

/** Starts recording the newest answer of the conversation log. */
export async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__e2eStop?.();
    const snapshots: Snapshot[] = [];
    window.__e2eSnapshots = snapshots;
    const start = performance.now();
    const log = document.querySelector('[role="log"]');
    if (!log) throw new Error('No conversation log in the page.');
    let previous = '';
    const take = () => {
      const answers = log.querySelectorAll('article[aria-label="Assistant"]');
      const answer = answers[answers.length - 1];
      if (!answer) return;
      const text = [...answer.querySelectorAll('.ms-text')]
        .map((block) => block.textContent ?? '')
        .join('\n')
        .replace(/\s+/g, ' ')
        .trim();
      const toggle = answer.querySelector('.ms-thinking button[aria-expanded]');
      const code = answer.querySelector('[role="group"] pre code');
      const snapshot: Snapshot = {
        at: performance.now() - start,
        status: answer.getAttribute('data-status'),
        text,
        thinkingExpanded: toggle?.getAttribute('aria-expanded') ?? null,
        toolInput: code?.textContent ?? null,
      };
      const key = JSON.stringify({ ...snapshot, at: 0 });
      if (key === previous) return;
      previous = key;
      snapshots.push(snapshot);
    };
    const observer = new MutationObserver(take);
    observer.observe(log, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    window.__e2eStop = () => observer.disconnect();
    take();
  });
}

/** Every distinct snapshot so far, oldest first. */
export function snapshots(page: Page): Promise<Snapshot[]> {
  return page.evaluate(() => window.__e2eSnapshots ?? []);
}
