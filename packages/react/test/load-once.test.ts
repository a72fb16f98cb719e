import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from '../src/load-once.js';

describe('loadOnce', () => {
  it('loads once for every caller, and shares the one promise', async () => {
    const load = vi.fn(async () => ({ answer: 42 }));
    const get = loadOnce(load);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    await get();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next call asks again (offline, then back)', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('chunk');
    const get = loadOnce(load);
    await expect(get()).rejects.toThrow('Failed to fetch');
    await expect(get()).resolves.toBe('chunk');
    await expect(get()).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
