import type { Citation } from '@message-stream/core';
import longMarkdown from '@message-stream/mock/fixtures/long-markdown.sse?raw';
import webSearch from '@message-stream/mock/fixtures/spec-web-search.sse?raw';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { axeViolations, blockAt, blocksOf, everyState, finalState } from './support.js';

afterEach(cleanup);

describe('TextBlockView', () => {
  it('renders GFM markdown: headings, emphasis, lists, tables, code, strikethrough', () => {
    const text = [
      '## Title',
      'Some **bold**, *em*, ~~gone~~ and `code`.',
      '- one\n- two',
      '| a | b |\n| - | - |\n| 1 | 2 |',
      '```ts\nconst x = 1;\n```',
    ].join('\n\n');
    const { container } = render(<TextBlockView text={text} />);
    expect(screen.queryByRole('heading', { level: 2, name: 'Title' })).not.toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('em');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(screen.queryByRole('table')).not.toBeNull();
    expect(container.querySelector('pre code.language-ts')?.textContent).toBe('const x = 1;\n');
  });

  it('keeps a line end inside a paragraph as a line break (a poem stays one line a line)', () => {
    const haiku = 'Leaves drift on the stream\nthe river carries autumn\nsoftly out of sight';
    for (const streaming of [true, false]) {
      const { container, unmount } = render(
        <TextBlockView text={`A haiku:\n\n${haiku}`} streaming={streaming} />,
      );
      const poem = container.querySelectorAll('p')[1];
      expect(poem?.querySelectorAll('br')).toHaveLength(2);
      expect(poem?.innerHTML.split('<br>').map((line) => line.trim())).toEqual(haiku.split('\n'));
      unmount();
    }
  });

  it('renders plain mode as the text exactly, in one paragraph, without markdown', () => {
    const { container } = render(
      <TextBlockView text={'# not a heading\n\n**as is**'} mode="plain" />,
    );
    const p = container.querySelector('p.ms-text__plain');
    expect(p?.textContent).toBe('# not a heading\n\n**as is**');
    expect(container.querySelector('h1, strong')).toBeNull();
  });

  it('streams a long plain text in pieces: only the last one changes, and carries the caret', () => {
    const line = 'A line of a long plain answer, as written.\n';
    const first = line.repeat(200);
    const { container, rerender } = render(<TextBlockView text={first} mode="plain" streaming />);
    const p = container.querySelector('p.ms-text__plain') as HTMLElement;
    const before = [...p.children];
    // Pieces end after a line break, so they draw the same lines as one text would.
    expect(before.length).toBeGreaterThan(2);
    expect(before.every((piece) => piece.className.startsWith('ms-segment'))).toBe(true);
    expect(before.slice(0, -1).every((piece) => piece.textContent?.endsWith('\n'))).toBe(true);
    const next = `${first}and more`;
    rerender(<TextBlockView text={next} mode="plain" streaming />);
    const after = [...p.children];
    expect(p.textContent).toBe(next);
    // The finished pieces are the same nodes with the same text: nothing to lay out again.
    expect(after.slice(0, -1).every((piece, i) => piece === before[i])).toBe(true);
    expect(after.at(-1)?.classList.contains('ms-text__caret')).toBe(true);
    expect(p.querySelectorAll('.ms-text__caret')).toHaveLength(1);
    rerender(<TextBlockView text={next} mode="plain" />);
    expect(p.querySelector('.ms-text__caret')).toBeNull();
  });

  it('marks a streaming block busy and with a modifier class, and a finished one not', () => {
    const { container, rerender } = render(<TextBlockView text="Hello" streaming />);
    const root = container.firstElementChild as HTMLElement;
    expect(root.className).toBe('ms-text ms-text--streaming');
    expect(root.getAttribute('aria-busy')).toBe('true');
    rerender(<TextBlockView text="Hello" />);
    expect(root.className).toBe('ms-text');
    expect(root.hasAttribute('aria-busy')).toBe(false);
  });

  it('gives links rel="noopener noreferrer" and target="_blank"', () => {
    render(<TextBlockView text="[site](https://example.com) and <https://auto.example.com>" />);
    for (const link of screen.getAllByRole('link')) {
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.getAttribute('target')).toBe('_blank');
    }
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });

  it('never loads an image: it becomes a link named by its alt text', () => {
    const { container } = render(
      <TextBlockView text="![a chart](https://img.example.com/c.png)" />,
    );
    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByRole('link', { name: 'Image: a chart' });
    expect(link.getAttribute('href')).toBe('https://img.example.com/c.png');
  });

  it('resolves a reference link whose definition is in another chunk', () => {
    render(
      <TextBlockView text={'See [the docs][d].\n\nMore text.\n\n[d]: https://example.com/docs'} />,
    );
    expect(screen.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe(
      'https://example.com/docs',
    );
  });

  it('lists citations under the text, with the cited passage as a quote (spec-web-search)', async () => {
    const block = blockAt(await finalState(webSearch), 4);
    const citations = block.block.citations as Citation[];
    const { container } = render(
      <TextBlockView text={block.block.text as string} citations={citations} />,
    );
    const list = screen.getByRole('list', { name: 'Sources' });
    const link = within(list).getByRole('link', {
      name: 'New York, NY Weather Forecast | AccuWeather',
    });
    expect(link.getAttribute('href')).toBe(
      'https://www.accuweather.com/en/us/new-york/10021/weather-forecast/349727',
    );
    expect(container.querySelector('blockquote.ms-citations__quote')?.textContent).toMatch(
      /^Today: Mostly cloudy/,
    );
  });

  it('has no axe violations, streaming and complete', async () => {
    const text =
      '# Heading\n\nA paragraph with a [link](https://example.com).\n\n- [ ] task\n- [x] done\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```js\ncode\n```';
    const { container, rerender } = render(<TextBlockView text={text} streaming />);
    expect(await axeViolations(container)).toEqual([]);
    rerender(<TextBlockView text={text} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('TextBlockView render counts', () => {
  it('re-renders only the last chunk when the text grows', () => {
    const onChunkRender = vi.fn();
    const { rerender } = render(
      <TextBlockView text={'# A\n\npara one\n\npara t'} streaming onChunkRender={onChunkRender} />,
    );
    expect(onChunkRender.mock.calls.map(([start]) => start)).toEqual([0, 5, 15]);
    onChunkRender.mockClear();
    rerender(
      <TextBlockView
        text={'# A\n\npara one\n\npara two'}
        streaming
        onChunkRender={onChunkRender}
      />,
    );
    expect(onChunkRender.mock.calls.map(([start]) => start)).toEqual([15]);
  });

  it('renders nothing again when only blank lines arrive', () => {
    const onChunkRender = vi.fn();
    const { rerender } = render(
      <TextBlockView text="para" streaming onChunkRender={onChunkRender} />,
    );
    onChunkRender.mockClear();
    rerender(<TextBlockView text={'para\n\n'} streaming onChunkRender={onChunkRender} />);
    expect(onChunkRender.mock.calls.map(([start]) => start)).toEqual([0]);
    onChunkRender.mockClear();
    rerender(<TextBlockView text={'para\n\n\n'} streaming onChunkRender={onChunkRender} />);
    expect(onChunkRender).not.toHaveBeenCalled();
  });

  // About 1,600 renders of a 40 KB answer: give it time on a loaded machine.
  it('streams long-markdown delta by delta rendering only the chunk at the end (fixture)', {
    timeout: 60_000,
  }, () => {
    const states = everyState(longMarkdown).filter((s) => blocksOf(s)[0] !== undefined);
    const onChunkRender = vi.fn();
    let previousLastStart = 0;
    let renders = 0;
    let updates = 0;
    const { container, rerender } = render(<TextBlockView text="" streaming />);
    let lastText = '';
    for (const state of states) {
      const block = blockAt(state, 0);
      const text = block.block.text as string;
      if (text === lastText) continue;
      lastText = text;
      onChunkRender.mockClear();
      rerender(<TextBlockView text={text} streaming onChunkRender={onChunkRender} />);
      const starts = onChunkRender.mock.calls.map(([start]) => start as number);
      // Nothing before the chunk that was last at the previous delta renders again.
      for (const start of starts) expect(start).toBeGreaterThanOrEqual(previousLastStart);
      previousLastStart = Math.max(previousLastStart, ...starts);
      renders += starts.length;
      updates++;
    }
    expect(updates).toBeGreaterThan(1000);
    // About one chunk per delta: the work per delta does not grow with the text.
    expect(renders).toBeLessThan(updates * 1.2);
    // The streamed result is the same as rendering the finished text at once.
    const { container: fresh } = render(<TextBlockView text={lastText} streaming />);
    expect(container.innerHTML).toBe(fresh.innerHTML);
  });
});
