import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHUNKS_PER_GROUP,
  type GroupStarts,
  groupStarts,
  NO_GROUP_STARTS,
  opensGroup,
} from '../../src/markdown/chunk-groups.js';
import { type MarkdownSplit, splitMarkdown } from '../../src/markdown/split.js';

const block = fc.constantFrom(
  'A paragraph.',
  '## A heading',
  '   # Indented heading',
  'Setext heading\n===',
  'Another one\n---',
  '---',
  '- a\n- b',
  '> quote',
  '$$\nx^2\n$$',
  '```ts\nconst a = 1;\n```',
  '[ref]: https://example.com',
  '| a |\n| - |\n| 1 |',
);

/** Every version of `text` as it streams in `steps` pieces, split as the view splits it. */
function streamed(text: string, steps: number): MarkdownSplit[] {
  const splits: MarkdownSplit[] = [];
  let split: MarkdownSplit | null = null;
  for (let k = 1; k <= steps; k++) {
    split = splitMarkdown(text.slice(0, Math.ceil((text.length * k) / steps)), split);
    splits.push(split);
  }
  return splits;
}

describe('groups of markdown chunks', () => {
  it('starts a group only at a finished chunk with no top margin of its own', () => {
    const chunks = splitMarkdown(
      Array.from({ length: 3 * CHUNKS_PER_GROUP }, (_, i) =>
        i % 4 === 0 ? `## Heading ${i}` : `Paragraph ${i}.`,
      ).join('\n\n'),
    ).chunks;
    const { starts } = groupStarts(chunks, NO_GROUP_STARTS);
    expect(starts[0]).toBe(0);
    expect(starts.length).toBeGreaterThan(1);
    for (const at of starts.slice(1)) {
      expect(chunks[at]?.text.startsWith('##')).toBe(false);
      expect(at).toBeLessThan(chunks.length - 1);
    }
    for (let g = 1; g < starts.length; g++) {
      expect((starts[g] as number) - (starts[g - 1] as number)).toBeGreaterThanOrEqual(
        CHUNKS_PER_GROUP,
      );
    }
    expect(opensGroup(chunks[4] as (typeof chunks)[number])).toBe(false);
    expect(opensGroup(chunks[5] as (typeof chunks)[number])).toBe(true);
  });

  it('puts no heading, display math or definitions first in a group', () => {
    const kinds = ['## h', '   # h', 'Setext\n===', 'Setext\n---', '$$\nx\n$$', '[r]: https://e.x'];
    for (const text of kinds) {
      const [chunk] = splitMarkdown(text).chunks;
      expect([text, opensGroup(chunk as NonNullable<typeof chunk>)]).toEqual([text, false]);
    }
    for (const text of ['Text.', '---', '- a', '> q', '```\nx\n```', '| a |\n| - |']) {
      const [chunk] = splitMarkdown(text).chunks;
      expect([text, opensGroup(chunk as NonNullable<typeof chunk>)]).toEqual([text, true]);
    }
  });

  it('gives a streaming text the starts its whole text gives, carried on from update to update', () => {
    fc.assert(
      fc.property(
        fc.array(block, { minLength: 1, maxLength: 150 }),
        fc.integer({ min: 1, max: 40 }),
        (blocks, steps) => {
          const text = blocks.join('\n\n');
          let known: GroupStarts = NO_GROUP_STARTS;
          for (const split of streamed(text, steps)) {
            known = groupStarts(split.chunks, known);
            expect(known.starts).toEqual(groupStarts(split.chunks, NO_GROUP_STARTS).starts);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('returns the same starts object when an update changed none', () => {
    const text = Array.from({ length: 80 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const first = splitMarkdown(text);
    const starts = groupStarts(first.chunks, NO_GROUP_STARTS);
    const next = splitMarkdown(`${text} more`, first);
    expect(groupStarts(next.chunks, starts)).toBe(starts);
  });
});
