import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyParts, preloadParts } from '../../src/components/lazy-part.js';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const Greeting = ({ name }: { name: string }) => <p>Hello, {name}</p>;
type Parts = { Greeting: typeof Greeting };

describe('lazyParts', () => {
  it('draws the fallback until the chunk arrives, then the part with the same props', async () => {
    const chunk = deferred<Parts>();
    const load = vi.fn(() => chunk.promise);
    const group = lazyParts(load);
    const Part = group.part(
      'Greeting',
      (parts) => parts.Greeting,
      ({ name }) => <p>Loading {name}</p>,
    );
    render(<Part name="Ada" />);
    expect(screen.getByText('Loading Ada').tagName).toBe('P');
    expect(screen.queryByText('Hello, Ada')).toBeNull();
    expect(group.loaded()).toBe(false);
    await act(async () => chunk.resolve({ Greeting }));
    expect(screen.getByText('Hello, Ada').tagName).toBe('P');
    expect(screen.queryByText('Loading Ada')).toBeNull();
    expect(group.loaded()).toBe(true);
  });

  it('loads the chunk once for every part, and draws parts mounted later at once', async () => {
    const chunk = deferred<Parts>();
    const load = vi.fn(() => chunk.promise);
    const group = lazyParts(load);
    const A = group.part(
      'A',
      (p) => p.Greeting,
      () => <p>loading</p>,
    );
    const B = group.part(
      'B',
      (p) => p.Greeting,
      () => <p>loading</p>,
    );
    render(
      <>
        <A name="a" />
        <B name="b" />
      </>,
    );
    await act(async () => chunk.resolve({ Greeting }));
    expect(load).toHaveBeenCalledTimes(1);
    cleanup();
    // Loaded: the first render is the part itself, no fallback frame.
    render(<B name="c" />);
    expect(screen.getByText('Hello, c').tagName).toBe('P');
  });

  it('keeps the fallback when the chunk fails, and tries again on the next mount', async () => {
    const first = deferred<Parts>();
    const load = vi
      .fn<() => Promise<Parts>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValueOnce({ Greeting });
    const group = lazyParts(load);
    const Part = group.part(
      'Greeting',
      (p) => p.Greeting,
      ({ name }) => <p>Loading {name}</p>,
    );
    render(<Part name="Ada" />);
    await act(async () => first.reject(new Error('offline')));
    expect(screen.getByText('Loading Ada').tagName).toBe('P');
    expect(group.loaded()).toBe(false);
    cleanup();
    render(<Part name="Ada" />);
    await act(async () => {});
    expect(screen.getByText('Hello, Ada').tagName).toBe('P');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('preload starts the load before any part mounts', async () => {
    const load = vi.fn(async () => ({ Greeting }));
    const group = lazyParts(load);
    const Part = group.part(
      'Greeting',
      (p) => p.Greeting,
      () => <p>loading</p>,
    );
    await group.preload();
    await group.preload();
    expect(load).toHaveBeenCalledTimes(1);
    render(<Part name="Bo" />);
    expect(screen.getByText('Hello, Bo').tagName).toBe('P');
  });
});

describe('preloadParts', () => {
  it('also loads the groups a loaded chunk makes (the messages chunk holds the code block)', async () => {
    const inner = vi.fn(async (): Promise<Parts> => ({ Greeting }));
    let innerGroup: ReturnType<typeof lazyParts<Parts>> | undefined;
    const outer = lazyParts(async () => {
      // As a chunk's module does when it is evaluated: it makes a group of its own.
      innerGroup = lazyParts(inner);
      return { Greeting };
    });
    await preloadParts();
    expect(outer.loaded()).toBe(true);
    expect(inner).toHaveBeenCalledTimes(1);
    expect(innerGroup?.loaded()).toBe(true);
  });
});

describe('lazyParts: a chunk that fails', () => {
  it('is asked for again by the part on screen after a pause, and said once in the console', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const load = vi
        .fn<() => Promise<Parts>>()
        .mockRejectedValueOnce(new Error('offline'))
        .mockRejectedValueOnce(new Error('still offline'))
        .mockResolvedValueOnce({ Greeting });
      const Part = lazyParts(load).part(
        'Greeting',
        (p) => p.Greeting,
        ({ name }) => <p>Loading {name}</p>,
      );
      render(<Part name="Ada" />);
      await act(async () => {});
      expect(screen.getByText('Loading Ada').tagName).toBe('P');
      await act(async () => vi.advanceTimersByTimeAsync(2_000));
      expect(load).toHaveBeenCalledTimes(2);
      expect(screen.queryByText('Hello, Ada')).toBeNull();
      await act(async () => vi.advanceTimersByTimeAsync(10_000));
      // No remount: the same part drew itself once the chunk came.
      expect(screen.getByText('Hello, Ada').tagName).toBe('P');
      expect(load).toHaveBeenCalledTimes(3);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
      vi.useRealTimers();
    }
  });
});
