import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyParts, preloadPartsWhenIdle } from '../../src/components/lazy-part.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('preloadPartsWhenIdle', () => {
  it('loads every on-demand group in an idle period after two frames, once', async () => {
    const frames: FrameRequestCallback[] = [];
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      frames.push(callback),
    );
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
    const load = vi.fn(async () => ({ answer: 42 }));
    const group = lazyParts(load);
    // A chunk that fails is left to the part that needs it: no unhandled rejection (Vitest
    // fails a run that has one), and it is asked for again later.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = vi.fn(() => Promise.reject(new TypeError('offline')));
    const broken = lazyParts(failing);

    preloadPartsWhenIdle();
    preloadPartsWhenIdle();
    expect(load).not.toHaveBeenCalled();
    // The page paints (two frames), then is idle.
    frames.shift()?.(0);
    expect(idle).toHaveLength(0);
    frames.shift()?.(16);
    expect(load).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle.shift()?.({ didTimeout: false, timeRemaining: () => 10 });
    expect(load).toHaveBeenCalledTimes(1);
    expect(failing).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(group.loaded()).toBe(true));
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(broken.loaded()).toBe(false);
    warn.mockRestore();
    // Asked once however often the chat mounts.
    expect(frames).toHaveLength(0);
  });

  it('runs one pass per page: a later call asks for nothing', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      frames.push(callback),
    );
    vi.stubGlobal('requestIdleCallback', () => 0);
    // The first call of the page (if the test above has not made it) asks for one frame.
    preloadPartsWhenIdle();
    const asked = frames.length;
    expect(asked).toBeLessThanOrEqual(1);
    preloadPartsWhenIdle();
    preloadPartsWhenIdle();
    expect(frames).toHaveLength(asked);
  });
});
