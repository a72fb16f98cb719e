import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamingMarkdown } from '../../src/markdown/streaming-markdown.js';

afterEach(cleanup);

const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1}.`);
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

describe('StreamingMarkdown while the answer grows', () => {
  it('shows at most two new blocks a frame when many arrive at once, then catches up', async () => {
    const parsed: number[] = [];
    const onChunkRender = (start: number) => parsed.push(start);
    const first = `${paragraphs(1).join('\n\n')}\n\n`;
    const { container, rerender } = render(
      <StreamingMarkdown text={first} streaming onChunkRender={onChunkRender} />,
    );
    const shown = () => [...container.querySelectorAll('p')].map((p) => p.textContent);
    expect(shown()).toEqual(['Paragraph 1.']);

    // Six blocks in one update, as a burst of deltas between two frames brings them.
    const burst = `${paragraphs(7).join('\n\n')}\n\n`;
    parsed.length = 0;
    rerender(<StreamingMarkdown text={burst} streaming onChunkRender={onChunkRender} />);
    expect(shown()).toEqual(['Paragraph 1.', 'Paragraph 2.', 'Paragraph 3.']);
    // Only the two new blocks were parsed in that commit.
    expect(new Set(parsed).size).toBe(2);

    for (let i = 0; i < 4; i++) await act(frame);
    expect(shown()).toEqual(paragraphs(7));
  });

  it('marks only the last paragraph shown for the caret, and nothing once it ends', () => {
    const caret = (container: HTMLElement) =>
      [...container.querySelectorAll('.ms-text__caret')].map((e) => e.textContent);
    const { container, rerender } = render(
      <StreamingMarkdown text={paragraphs(1).join('\n\n')} streaming />,
    );
    expect(caret(container)).toEqual(['Paragraph 1.']);
    // A burst: the caret follows what is on the page, not the blocks still to come.
    rerender(<StreamingMarkdown text={paragraphs(7).join('\n\n')} streaming />);
    expect(caret(container)).toEqual(['Paragraph 3.']);
    // A list or a code block last: no caret (it goes after paragraph text only).
    rerender(<StreamingMarkdown text={'Intro.\n\n- one\n- two'} streaming />);
    expect(caret(container)).toEqual([]);
    rerender(<StreamingMarkdown text={'Intro.\n\n```ts\nconst a = 1;'} streaming />);
    expect(caret(container)).toEqual([]);
    rerender(<StreamingMarkdown text={'Intro.\n\nThe end.'} streaming />);
    expect(caret(container)).toEqual(['The end.']);
    // Link definitions last draw nothing: the caret stays on the paragraph before them.
    rerender(<StreamingMarkdown text={'Intro [a].\n\n[a]: https://example.com'} streaming />);
    expect(caret(container)).toEqual(['Intro a.']);
    // HTML shown as written after the paragraph, in the same chunk: no caret before it.
    rerender(<StreamingMarkdown text={'Intro.\n\nPara one\n<div>raw</div>'} streaming />);
    expect(caret(container)).toEqual([]);
    rerender(<StreamingMarkdown text={'Intro.\n\nThe end.'} />);
    expect(caret(container)).toEqual([]);
  });

  it('shows everything at once on its first render', () => {
    const text = paragraphs(9).join('\n\n');
    const { container } = render(<StreamingMarkdown text={text} streaming />);
    expect(container.querySelectorAll('p')).toHaveLength(9);
  });

  it('after the answer ends, shows what is left of a burst at once', () => {
    const text = paragraphs(9).join('\n\n');
    const { container, rerender } = render(<StreamingMarkdown text={text} streaming />);
    const more = paragraphs(15).join('\n\n');
    rerender(<StreamingMarkdown text={more} streaming />);
    expect(container.querySelectorAll('p')).toHaveLength(11);
    rerender(<StreamingMarkdown text={more} streaming={false} />);
    expect(container.querySelectorAll('p')).toHaveLength(15);
  });

  it('after the answer ends, spreads a large remainder over frames, six blocks a frame', async () => {
    const { container, rerender } = render(
      <StreamingMarkdown text={paragraphs(1).join('\n\n')} streaming />,
    );
    const all = paragraphs(40).join('\n\n');
    rerender(<StreamingMarkdown text={all} streaming />);
    expect(container.querySelectorAll('p')).toHaveLength(3);
    // The end does not paint the other 37 in one long frame.
    rerender(<StreamingMarkdown text={all} streaming={false} />);
    expect(container.querySelectorAll('p')).toHaveLength(9);
    await act(frame);
    expect(container.querySelectorAll('p')).toHaveLength(15);
    for (let i = 0; i < 5; i++) await act(frame);
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual(paragraphs(40));
  });
});
