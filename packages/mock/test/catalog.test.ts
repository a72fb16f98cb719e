import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fixtureNames,
  fixtureRequest,
  fixtures,
  getFixture,
  isFixtureName,
  loadFixture,
} from '../src/index.js';
import { blockOfType, finalStateOf } from '../src/testing.js';
import { catalogFile, fixtureFile } from './support/helpers.js';

describe('catalog', () => {
  it('matches fixtures/catalog.json exactly (regenerate with test/support/generate-catalog.mjs)', () => {
    const expected = catalogFile().map(({ name, description, request }) => ({
      name,
      description,
      request,
    }));
    expect(fixtures).toEqual(expected);
    expect([...fixtureNames]).toEqual(expected.map((entry) => entry.name));
  });

  it('lists every .sse file in fixtures/ (a fixture, or the continuation of one)', () => {
    const files = readdirSync(new URL('../fixtures/', import.meta.url)).filter((file) =>
      file.endsWith('.sse'),
    );
    const continuations = catalogFile().flatMap((entry) =>
      'continuation' in entry ? [entry.continuation as string] : [],
    );
    expect(continuations).toEqual(['max-tokens.continuation.sse']);
    expect(
      files
        .filter((file) => !continuations.includes(file))
        .map((file) => file.replace(/\.sse$/, ''))
        .sort(),
    ).toEqual([...fixtureNames].sort());
    expect(files.filter((file) => continuations.includes(file))).toEqual(continuations);
  });

  it('loads every fixture in Node with the exact text of its file', async () => {
    for (const name of fixtureNames) {
      expect(await loadFixture(name)).toBe(fixtureFile(name));
    }
  });

  it("fallback-block carries the wire's fallback shape: from / to as { model } objects", async () => {
    const state = await finalStateOf(await loadFixture('fallback-block'));
    const fallback = blockOfType(state, 'fallback').block as Record<string, unknown>;
    expect(fallback).toEqual({
      type: 'fallback',
      from: { model: 'claude-opus-5' },
      to: { model: 'claude-sonnet-5' },
    });
  });

  it('caches a loaded fixture (the same promise for the same name)', () => {
    expect(loadFixture('text-pings')).toBe(loadFixture('text-pings'));
  });

  it('rejects unknown names, listing the known ones', async () => {
    expect(isFixtureName('text-pings')).toBe(true);
    expect(isFixtureName('nope')).toBe(false);
    expect(() => getFixture('nope')).toThrow(/Known fixtures: spec-basic-text/);
    await expect(loadFixture('nope')).rejects.toThrow(/Unknown fixture "nope"/);
  });

  it('gives a fixture request as a fresh copy without stream', () => {
    const request = fixtureRequest('spec-thinking');
    expect(request.stream).toBeUndefined();
    expect(request.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    request.messages.push({ role: 'user', content: 'changed' });
    expect(fixtureRequest('spec-thinking').messages).toHaveLength(1);
  });

  it('keeps the main entry browser-safe: no node: import is reachable from src/index.ts', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(new URL(file, new URL('../src/', import.meta.url)), 'utf8');
      for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
        const specifier = match[1] as string;
        expect(specifier.startsWith('node:'), `${file} imports ${specifier}`).toBe(false);
        if (specifier.startsWith('./')) visit(specifier.slice(2).replace(/\.js$/, '.ts'));
      }
    };
    visit('index.ts');
    expect(seen.has('catalog.ts')).toBe(true);
    expect(seen.has('node.ts')).toBe(false);
  });
});
