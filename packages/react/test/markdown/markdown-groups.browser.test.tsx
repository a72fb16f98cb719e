import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { CHUNKS_PER_GROUP } from '../../src/markdown/chunk-groups.js';
import { withDefaultStyles } from '../browser-styles.js';

// Real layout: these run in Chromium only.

afterEach(() => {
  cleanup();
  window.scrollTo(0, 0);
});
withDefaultStyles();

const frames = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
};

/** Paragraphs, headings, lists, code and rules, in a cycle that puts each kind at a group's edge. */
const KINDS = [
  'A paragraph of the answer, long enough to wrap once or twice at this width of the column.',
  '## A heading',
  'Another paragraph.',
  '- a list item\n- and another',
  '```ts\nconst x = 1;\n```',
  '---',
  '### A smaller heading',
  '#### Right after another heading',
  '> A quote.',
  'A setext heading\n---',
];
const blocks = Array.from(
  { length: 7 * CHUNKS_PER_GROUP + 3 },
  (_, i) => KINDS[i % KINDS.length] as string,
);
const TEXT = blocks.join('\n\n');

/** TEXT drawn 600 px wide, two frames on: its groups. */
async function renderGroups(): Promise<HTMLElement[]> {
  const { container } = render(
    <div style={{ width: '600px' }}>
      <TextBlockView text={TEXT} highlight={false} />
    </div>,
  );
  await frames(2);
  return [...container.querySelectorAll<HTMLElement>('.ms-markdown__group')];
}

describe('a long markdown answer drawn in groups of blocks', () => {
  it('spaces its blocks the same across a group’s edge as within a group', async () => {
    const groups = await renderGroups();
    expect(groups.length).toBeGreaterThan(5);
    // Every group drawn once, as a reader scrolling through would: skipped again, each keeps
    // the size it was drawn at, and measuring a block in it lays it out.
    for (const group of groups) {
      group.scrollIntoView();
      await frames(2);
    }
    const elements = groups.flatMap((group) => [...group.children] as HTMLElement[]);
    expect(elements.length).toBe(blocks.length);
    // The gap before a block, by the kinds of the two blocks it sits between.
    const gaps = new Map<string, Set<number>>();
    for (let i = 1; i < elements.length; i++) {
      const gap =
        (elements[i] as HTMLElement).getBoundingClientRect().top -
        (elements[i - 1] as HTMLElement).getBoundingClientRect().bottom;
      const key = `${i % KINDS.length}`;
      gaps.set(key, (gaps.get(key) ?? new Set()).add(Math.round(gap * 10) / 10));
    }
    // Each pair of kinds meets both inside groups and at an edge: one gap for each. (No group
    // starts at a heading: its top margin is larger than the gap a block leaves below it.)
    expect(
      groups.slice(1).every((group) => !/^H\d$/.test(group.firstElementChild?.tagName ?? '')),
    ).toBe(true);
    // One may end with a heading (its smaller bottom margin stays inside the group): the
    // gaps below cover that edge too.
    expect(
      groups.slice(0, -1).some((group) => /^H\d$/.test(group.lastElementChild?.tagName ?? '')),
    ).toBe(true);
    for (const [key, seen] of gaps) expect([key, [...seen]]).toEqual([key, [[...seen][0]]]);
  });

  it('ends at its last block, with no gap below it, whatever that block is', async () => {
    const endings = {
      paragraph: 'The last paragraph.',
      list: '- one\n- two',
      'ordered list': '1. one\n2. two',
      code: '```ts\nconst last = true;\n```',
      table: '| a | b |\n| - | - |\n| 1 | 2 |',
      quote: '> The last quote.',
      heading: '## The last heading',
      rule: '---',
      math: '$$\nx^2 + y^2 = z^2\n$$',
    };
    for (const [kind, ending] of Object.entries(endings)) {
      const { container, unmount } = render(
        <div style={{ width: '600px' }}>
          <TextBlockView text={`${TEXT}\n\n${ending}`} highlight={false} math={kind === 'math'} />
          {/* What follows keeps its own top margin (a list of sources, the next block). */}
          <div data-testid="after" style={{ height: '1px', marginTop: '10px' }} />
        </div>,
      );
      await frames(2);
      if (kind === 'math') {
        // KaTeX is a chunk loaded on first use: on a loaded CI machine it took over a second.
        await expect
          .poll(() => container.querySelector('.katex-display'), { timeout: 15_000 })
          .not.toBeNull();
      }
      const groups = [...container.querySelectorAll<HTMLElement>('.ms-markdown__group')];
      const lastGroup = groups.at(-1) as HTMLElement;
      expect(
        groups.filter((group) => group.classList.contains('ms-markdown__group--open')),
      ).toEqual([lastGroup]);
      const after = container.querySelector('[data-testid="after"]') as HTMLElement;
      const gap = () => {
        const lastBlock = lastGroup.lastElementChild as HTMLElement;
        const below = after.getBoundingClientRect().top - lastBlock.getBoundingClientRect().bottom;
        return [kind, Math.round(below * 10) / 10];
      };
      // Polled: typeset math settles once KaTeX's stylesheet and fonts have loaded.
      await expect.poll(gap, { timeout: 5000 }).toEqual([kind, 10]);
      unmount();
    }
  }, 40_000); // nine renders, and math's chunk and fonts loaded under load

  it('never lets what follows overlap an answer that ends in HTML shown as text', async () => {
    const { container } = render(
      <div style={{ width: '600px' }}>
        <TextBlockView text={`${TEXT}\n\n<details>\nA note\n</details>`} highlight={false} />
        <div data-testid="after" style={{ height: '1px' }} />
      </div>,
    );
    await frames(2);
    const group = [...container.querySelectorAll('.ms-markdown__group')].at(-1) as HTMLElement;
    const text = group.lastChild as Node;
    expect(text.textContent).toContain('</details>');
    const range = document.createRange();
    range.selectNodeContents(text);
    const after = container.querySelector('[data-testid="after"]') as HTMLElement;
    expect(after.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      range.getBoundingClientRect().bottom - 0.5,
    );
  });

  it('skips the groups out of view and keeps their size once drawn', async () => {
    const groups = await renderGroups();
    const visible = (group: HTMLElement) =>
      (group.firstElementChild as HTMLElement).checkVisibility({ contentVisibilityAuto: true });
    expect(visible(groups[0] as HTMLElement)).toBe(true);
    // The last group, the one that grows, is never skipped, and has style containment before it
    // closes: gaining it as it closed made the browser walk the whole page again.
    expect(visible(groups.at(-1) as HTMLElement)).toBe(true);
    expect(getComputedStyle(groups.at(-1) as HTMLElement).contain).toContain('style');
    expect(groups.slice(2, -1).some((group) => !visible(group))).toBe(true);
    // Never drawn, a skipped group is about as tall as its lines; drawn once, it keeps the
    // height it was drawn at when skipped again.
    const third = groups[3] as HTMLElement;
    expect(visible(third)).toBe(false);
    const lines = Number(third.style.getPropertyValue('--ms-group-lines'));
    expect(lines).toBeGreaterThan(32);
    // The group's own, not inherited: set as a group closes, it would restyle all it holds.
    const block = third.firstElementChild as HTMLElement;
    expect(getComputedStyle(block).getPropertyValue('--ms-group-lines').trim()).toBe('64');
    const fontSize = Number.parseFloat(getComputedStyle(third).fontSize);
    expect(third.getBoundingClientRect().height).toBeCloseTo(lines * 1.65 * fontSize, 0);
    const estimated = third.getBoundingClientRect().height;
    third.scrollIntoView();
    await frames(2);
    expect(visible(third)).toBe(true);
    const drawn = third.getBoundingClientRect().height;
    // The estimate is of the right size, not exact.
    expect(estimated / drawn).toBeGreaterThan(0.5);
    expect(estimated / drawn).toBeLessThan(2);
    window.scrollTo(0, 0);
    await frames(2);
    expect(visible(third)).toBe(false);
    expect(third.getBoundingClientRect().height).toBe(drawn);
  });

  it('leaves a focus ring room to draw past a skipped group’s edge', async () => {
    const group = (await renderGroups())[0] as HTMLElement;
    const style = getComputedStyle(group);
    // Paint containment clips at the box unless a clip margin lets a ring of 2px at 2px out.
    expect(style.contentVisibility).toBe('auto');
    expect(Number.parseFloat(style.overflowClipMargin)).toBeGreaterThanOrEqual(4);
  });
});
