import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeBlock } from '../../src/components/code-block.js';
import { withDefaultStyles } from '../browser-styles.js';

// Real layout: these run in Chromium only.

afterEach(cleanup);
withDefaultStyles();

/** 200 lines: three full groups of 64 and a last one of 8. */
const CODE = Array.from({ length: 200 }, (_, i) => `const line${i} = ${i}; // line ${i}`).join(
  '\n',
);

const frames = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
};

async function groupsOf(testId: string): Promise<HTMLElement[]> {
  const box = await screen.findByTestId(testId);
  // The block draws its lines in groups once its chunk has loaded.
  await expect.poll(() => box.querySelectorAll('.ms-code__group').length).toBe(4);
  return [...box.querySelectorAll<HTMLElement>('.ms-code__group')];
}

describe('a long code block', () => {
  it('skips the groups of lines out of view, each as tall as its lines as if drawn', async () => {
    render(
      <div style={{ width: '480px' }}>
        <div data-testid="seen">
          <CodeBlock code={CODE} language="ts" highlight={false} />
        </div>
        <div style={{ height: '20000px' }} />
        <div data-testid="unseen">
          <CodeBlock code={CODE} language="ts" highlight={false} />
        </div>
      </div>,
    );
    const seen = await groupsOf('seen');
    const unseen = await groupsOf('unseen');
    // A group is skipped as soon as it has the style, and drawn once a frame has found it in
    // view: only the first group of the first block is.
    await frames(2);
    const firstLine = (group: HTMLElement) => group.firstElementChild as HTMLElement;
    // The first group on screen is drawn; none of the one far below is.
    expect(firstLine(seen[0] as HTMLElement).checkVisibility({ contentVisibilityAuto: true })).toBe(
      true,
    );
    for (const group of unseen) {
      expect(firstLine(group).checkVisibility({ contentVisibilityAuto: true })).toBe(false);
    }
    // Skipped or drawn, a group takes the same room: nothing moves when it scrolls into view.
    const heights = (groups: HTMLElement[]) =>
      groups.map((group) => Math.round(group.getBoundingClientRect().height));
    expect(heights(unseen)).toEqual(heights(seen));
    // The short last group too: as tall as its 8 lines, not as a full group.
    const lineHeight = (seen[0] as HTMLElement).getBoundingClientRect().height / 64;
    expect(lineHeight).toBeGreaterThan(10);
    const last = (unseen[3] as HTMLElement).getBoundingClientRect().height;
    expect(Math.abs(last - 8 * lineHeight)).toBeLessThan(1);
    // Its text is still all in the page (find in page, selection, screen readers).
    expect(screen.getByTestId('unseen').querySelector('code')?.textContent).toBe(`${CODE}\n`);
  });

  it('does not hold a block wide that has narrowed since its groups were drawn', async () => {
    render(
      <div data-testid="box" style={{ width: '900px' }}>
        <CodeBlock code={CODE} language="ts" highlight={false} />
      </div>,
    );
    const groups = await groupsOf('box');
    // Each group drawn once, at 900 px, then scrolled out of view again.
    for (const group of groups) {
      group.scrollIntoView();
      await frames(2);
    }
    window.scrollTo(0, 0);
    await frames(2);
    (screen.getByTestId('box') as HTMLElement).style.width = '600px';
    await frames(2);
    const pre = screen.getByTestId('box').querySelector('pre') as HTMLElement;
    for (const group of groups) {
      expect(group.getBoundingClientRect().width).toBeLessThanOrEqual(600);
    }
    // Nothing to scroll to sideways: the lines are short.
    expect(pre.scrollWidth).toBeLessThanOrEqual(pre.clientWidth);
  });

  it('scrolls sideways to the end of a long line, not clipping it', async () => {
    const long = `const long = '${'x'.repeat(400)}';`;
    render(
      <div data-testid="wide" style={{ width: '480px' }}>
        <CodeBlock code={`${long}\n${CODE}`} language="ts" highlight={false} />
      </div>,
    );
    await groupsOf('wide');
    await frames(2);
    const pre = screen.getByTestId('wide').querySelector('pre') as HTMLElement;
    const group = pre.querySelector('.ms-code__group') as HTMLElement;
    expect(pre.scrollWidth).toBeGreaterThan(pre.clientWidth + 1000);
    // The group is as wide as its long line, so the line is drawn, not clipped at the block.
    expect(group.getBoundingClientRect().width).toBeGreaterThan(pre.clientWidth + 1000);
  });

  // A property that is inherited restyles everything under the element it changes on: each
  // new line of a streaming block restyled every line and token of its group.
  it('keeps a group’s line count to the group, not inherited by its lines', async () => {
    render(
      <div data-testid="block">
        <CodeBlock code={CODE} language="ts" highlight={false} />
      </div>,
    );
    const groups = await groupsOf('block');
    const last = groups[3] as HTMLElement;
    expect(getComputedStyle(last).getPropertyValue('--ms-code-lines').trim()).toBe('8');
    const line = last.firstElementChild as HTMLElement;
    expect(getComputedStyle(line).getPropertyValue('--ms-code-lines').trim()).toBe('64');
  });
});
