import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNKS_PER_GROUP } from '../../src/markdown/chunk-groups.js';
import { StreamingMarkdown } from '../../src/markdown/streaming-markdown.js';

afterEach(cleanup);

const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, i) => `Paragraph ${i} of the answer.`).join('\n\n');

describe('StreamingMarkdown groups', () => {
  it('leaves no group that draws nothing when the answer ends in link definitions', () => {
    // The definitions' chunk falls at a group's size, and after it.
    for (const count of [CHUNKS_PER_GROUP - 1, 2 * CHUNKS_PER_GROUP - 1, CHUNKS_PER_GROUP + 3]) {
      const text = `${paragraphs(count)}\n\nSee [the docs][x].\n\n[x]: https://example.com/docs`;
      const { container, unmount } = render(<StreamingMarkdown text={text} />);
      const groups = [...container.querySelectorAll('.ms-markdown__group')];
      expect(groups.length).toBeGreaterThan(count > CHUNKS_PER_GROUP ? 1 : 0);
      expect(groups.every((group) => group.childElementCount > 0)).toBe(true);
      // The last drawn block is in the last group, where the stylesheet ends its margin.
      expect(groups.at(-1)?.lastElementChild?.textContent).toBe('See the docs.');
      unmount();
    }
  });

  it('carries the caret from group to group as the answer grows past a group', () => {
    const first = paragraphs(CHUNKS_PER_GROUP + 1);
    const { container, rerender } = render(<StreamingMarkdown text={first} streaming />);
    const caret = () => [...container.querySelectorAll('.ms-text__caret')];
    expect(caret()).toHaveLength(1);
    const next = `${first}\n\n${paragraphs(CHUNKS_PER_GROUP + 2)}`;
    rerender(<StreamingMarkdown text={next} streaming />);
    rerender(<StreamingMarkdown text={`${next} and more`} streaming />);
    // One caret, on the last paragraph drawn so far (a burst is drawn a few blocks a frame).
    expect(caret()).toHaveLength(1);
    rerender(<StreamingMarkdown text={`${next} and more.`} />);
    expect(caret()).toHaveLength(0);
    expect(container.querySelectorAll('.ms-markdown__group').length).toBeGreaterThan(1);
  });

  it('keeps the last group drawn open while a burst is drawn over frames', async () => {
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const start = paragraphs(CHUNKS_PER_GROUP + 4);
    const { container, rerender } = render(<StreamingMarkdown text={start} streaming />);
    const groups = () => [...container.querySelectorAll('.ms-markdown__group')];
    // A closed group of 32 blocks, and the open one with the last 4.
    expect(groups()).toHaveLength(2);
    const first = groups()[0] as HTMLElement;
    const open = () => groups().filter((g) => g.classList.contains('ms-markdown__group--open'));
    const changes: string[] = [];
    const watch = new MutationObserver((records) => {
      for (const r of records)
        changes.push(`${(r.target as Element).className} ${r.attributeName}`);
    });
    const last = groups().at(-1) as HTMLElement;
    watch.observe(last, { attributes: true });
    // Six blocks in one update: drawn two a frame, inside the group that already grows.
    rerender(<StreamingMarkdown text={`${start}\n\n${paragraphs(6)}`} streaming />);
    expect(open()).toEqual([last]);
    expect(last.hasAttribute('style')).toBe(false);
    for (let i = 0; i < 4; i++) await act(frame);
    expect(last.querySelectorAll('p')).toHaveLength(10);
    expect(open()).toEqual([last]);
    // Never closed for a frame and opened again: each change restyles all the group holds.
    watch.disconnect();
    expect(changes).toEqual([]);
    // A closed group carries its estimate; the open one none.
    expect(first.classList.contains('ms-markdown__group--open')).toBe(false);
    expect(first.style.getPropertyValue('--ms-group-lines')).not.toBe('');
  });
});
