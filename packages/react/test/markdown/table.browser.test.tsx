import { render } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { withDefaultStyles } from '../browser-styles.js';
import { axeViolations, layoutReads } from '../components/support.js';

// Real layout: these run in Chromium only.
withDefaultStyles();

/** The long-markdown fixture's table, as the review saw it break at 390 px. */
const STOP_REASONS = [
  '| Stop reason | Meaning | Suggested UI |',
  '| --- | --- | --- |',
  '| `end_turn` | The model finished its answer | Nothing special |',
  '| `max_tokens` | The output hit the token limit | Show a *Continue* button |',
  '| `stop_sequence` | A custom stop sequence matched | Show the matched sequence in debug views |',
  '| `tool_use` | The model wants a tool to run | Show the tool call and its progress |',
  '| `pause_turn` | A long server-side turn was paused | Resume automatically |',
  '| `refusal` | The model declined to continue | Explain briefly, offer to rephrase |',
].join('\n');

/** Words of `cell` that the layout split over two lines (after a hyphen is a fair break). */
function brokenWords(cell: Element): string[] {
  const broken: string[] = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (const match of text.matchAll(/[^\s-]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}

/** Which inside edges of `box` its computed box-shadow shades (a visible inset shadow). */
function shadedEdges(box: Element): { left: boolean; right: boolean } {
  const edges = { left: false, right: false };
  const shadow = getComputedStyle(box).boxShadow;
  for (const [, colour = '', x = '0'] of shadow.matchAll(/(rgba?\([^)]*\)) (-?[\d.]+)px/g)) {
    const alpha = colour.startsWith('rgba') ? Number(colour.split(',')[3]?.replace(')', '')) : 1;
    if (alpha === 0 || Number(x) === 0) continue;
    if (Number(x) > 0) edges.left = true;
    else edges.right = true;
  }
  return edges;
}

function table(width: number, text: string) {
  const { container } = render(
    <div style={{ width }}>
      <TextBlockView text={text} />
    </div>,
  );
  return {
    container,
    wrap: container.querySelector('.ms-md__table-wrap') as HTMLElement,
    cells: [...container.querySelectorAll('th, td')],
  };
}

describe('markdown tables', () => {
  it.each([366, 712])('keep words whole in their cells at %i px', async (width) => {
    const { cells } = table(width, STOP_REASONS);
    expect(cells).toHaveLength(21);
    expect(cells.flatMap(brokenWords)).toEqual([]);
  });

  it('scroll sideways when too wide, as a named tab stop', async () => {
    const { container, wrap } = table(300, STOP_REASONS);
    expect(wrap.scrollWidth).toBeGreaterThan(wrap.clientWidth);
    await expect.poll(() => wrap.tabIndex).toBe(0);
    expect(wrap.getAttribute('role')).toBe('group');
    expect(wrap.getAttribute('aria-label')).toBe('Scrollable table');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('show a shadow inside each edge with more of the table beyond it', async () => {
    const { wrap } = table(300, STOP_REASONS);
    await expect.poll(() => wrap.getAttribute('role')).toBe('group');
    const range = wrap.scrollWidth - wrap.clientWidth;
    const at = async (scrollLeft: number) => {
      wrap.scrollLeft = scrollLeft;
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      return shadedEdges(wrap);
    };
    expect(await at(0)).toEqual({ left: false, right: true });
    expect(await at(range / 2)).toEqual({ left: true, right: true });
    expect(await at(range)).toEqual({ left: true, right: false });
  });

  it('show no edge shadow while they fit', async () => {
    const small = '| a | b |\n| --- | --- |\n| 1 | 2 |';
    const { wrap } = table(700, small);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    expect(shadedEdges(wrap)).toEqual({ left: false, right: false });
  });

  it('are no tab stop while they fit, and become one when the column narrows', async () => {
    const small = '| a | b |\n| --- | --- |\n| 1 | 2 |';
    const { container, wrap } = table(700, small);
    // After layout: measured, and it fits.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    expect(wrap.scrollWidth).toBeLessThanOrEqual(wrap.clientWidth);
    expect(wrap.hasAttribute('tabindex')).toBe(false);
    expect(wrap.hasAttribute('role')).toBe(false);
    expect(wrap.hasAttribute('aria-label')).toBe(false);
    expect(await axeViolations(container)).toEqual([]);
    (container.firstElementChild as HTMLElement).style.width = '60px';
    await expect.poll(() => wrap.tabIndex).toBe(0);
    expect(wrap.getAttribute('aria-label')).toBe('Scrollable table');
  });

  it('are measured after the layout of their frame, never by forcing one in the commit', async () => {
    const layout = layoutReads('scrollWidth', 'ms-md__table-wrap');
    try {
      // render() commits and runs the layout effects before it returns.
      const { wrap } = table(300, STOP_REASONS);
      layout.settled();
      await expect.poll(() => wrap.tabIndex).toBe(0);
      expect(layout.reads.length).toBeGreaterThan(0);
      expect(layout.reads).not.toContain('commit');
    } finally {
      layout.restore();
    }
  });

  it('become a tab stop without a React commit of their own (a second commit in the frame)', async () => {
    let commits = 0;
    const small = '| a | b |\n| --- | --- |\n| 1 | 2 |';
    const { container } = render(
      <div style={{ width: 700 }}>
        <Profiler id="table" onRender={() => commits++}>
          <TextBlockView text={small} />
        </Profiler>
      </div>,
    );
    const wrap = container.querySelector('.ms-md__table-wrap') as HTMLElement;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const before = commits;
    (container.firstElementChild as HTMLElement).style.width = '60px';
    await expect.poll(() => wrap.tabIndex).toBe(0);
    (container.firstElementChild as HTMLElement).style.width = '700px';
    await expect.poll(() => wrap.hasAttribute('tabindex')).toBe(false);
    expect(wrap.hasAttribute('role')).toBe(false);
    expect(commits).toBe(before);
  });
});
