import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatStream } from '../../src/index.js';
import { isMarkdownWarm } from '../../src/markdown/markdown-chunk-view.js';

// Real frames and idle periods: Chromium only. Nothing else in this file parses markdown.

const idle = (): Promise<void> =>
  new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 }));
const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));

describe('the markdown warm-up', () => {
  it('waits for the chat to paint, then runs in an idle period', async () => {
    // Loading the module does not start it: idle time before the first render stays free.
    await idle();
    expect(isMarkdownWarm()).toBe(false);

    render(<ChatStream request={{ model: 'claude-opus-5', max_tokens: 256 }} />);
    await act(frame);
    expect(isMarkdownWarm()).toBe(false);

    for (let i = 0; i < 10 && !isMarkdownWarm(); i++) {
      await act(async () => {
        await frame();
        await idle();
      });
    }
    expect(isMarkdownWarm()).toBe(true);
  });
});
