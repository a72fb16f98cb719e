import { afterEach, describe, expect, it, vi } from 'vitest';
import { mountAnswerFacesWhenIdle } from '../../src/chat/font-warm-up.js';

/** Frames and idle periods that run when the test says so. */
function manualScheduling() {
  const queued: (() => void)[] = [];
  vi.stubGlobal('requestAnimationFrame', (run: () => void) => queued.push(run));
  vi.stubGlobal('requestIdleCallback', (run: () => void) => queued.push(run));
  return async () => {
    // Until nothing is left: a chunk that arrives after the idle period waits for the next.
    for (let round = 0; round < 5; round++) {
      while (queued.length > 0) queued.shift()?.();
      // The specimen chunk's import and the work after it.
      await vi.dynamicImportSettled();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('mountAnswerFacesWhenIdle', () => {
  it('puts one hidden holder into the chat when idle and takes it out on unmount', async () => {
    const runAll = manualScheduling();
    const chat = document.body.appendChild(document.createElement('section'));
    const unmount = mountAnswerFacesWhenIdle(() => chat);
    expect(chat.querySelector('[data-ms-faces]')).toBeNull();
    await runAll();
    const holder = chat.querySelector('[data-ms-faces]');
    expect(holder?.getAttribute('aria-hidden')).toBe('true');
    // Only the holder stays: the specimen with the kit's classes was taken out again.
    expect(chat.children).toHaveLength(1);
    expect(chat.querySelector('[class]')).toBeNull();
    unmount();
    expect(chat.children).toHaveLength(0);
  });

  it('adds nothing when the chat unmounted before the idle period', async () => {
    const runAll = manualScheduling();
    const chat = document.body.appendChild(document.createElement('section'));
    mountAnswerFacesWhenIdle(() => chat)();
    await runAll();
    expect(chat.children).toHaveLength(0);
  });
});
