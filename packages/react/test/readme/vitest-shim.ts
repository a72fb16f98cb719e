/**
 * What a README's Vitest example imports from 'vitest', when the README test runs it inside
 * its own test: `describe` runs its body at once, tests and hooks are collected, and
 * `runCollected` runs them in order with the real `expect`.
 */
export { expect, vi } from 'vitest';

type Fn = () => unknown;
const collected = {
  tests: [] as { name: string; fn: Fn }[],
  beforeAll: [] as Fn[],
  afterAll: [] as Fn[],
  beforeEach: [] as Fn[],
  afterEach: [] as Fn[],
};

export const describe = (_name: string, body: Fn): void => void body();
export const it = (name: string, fn: Fn): void => void collected.tests.push({ name, fn });
export const test = it;
export const beforeAll = (fn: Fn): void => void collected.beforeAll.push(fn);
export const afterAll = (fn: Fn): void => void collected.afterAll.push(fn);
export const beforeEach = (fn: Fn): void => void collected.beforeEach.push(fn);
export const afterEach = (fn: Fn): void => void collected.afterEach.push(fn);

/** Runs what the example declared; returns the names of its tests (an example with none fails). */
export async function runCollected(): Promise<string[]> {
  const { tests, ...hooks } = collected;
  const names = tests.map((t) => t.name);
  collected.tests = [];
  try {
    for (const hook of hooks.beforeAll) await hook();
    for (const { fn } of tests) {
      for (const hook of hooks.beforeEach) await hook();
      try {
        await fn();
      } finally {
        for (const hook of hooks.afterEach) await hook();
      }
    }
  } finally {
    for (const hook of hooks.afterAll) await hook();
    collected.beforeAll = [];
    collected.afterAll = [];
    collected.beforeEach = [];
    collected.afterEach = [];
  }
  return names;
}
