import type { Citation } from '@message-stream/core';
import pauseTurn from '@message-stream/mock/fixtures/pause-turn.sse?raw';
import webSearch from '@message-stream/mock/fixtures/spec-web-search.sse?raw';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CitationList } from '../../src/components/citation-list.js';
import { ServerToolUseView } from '../../src/components/server-tool-use-view.js';
import { WebSearchResultsView } from '../../src/components/web-search-results-view.js';
import { axeViolations, blockAt, blockState, blocksOf, everyState, finalState } from './support.js';

afterEach(cleanup);

describe('ServerToolUseView', () => {
  it('shows the web search query as it streams, then as searched (spec-web-search)', () => {
    const { container, rerender } = render(<div />);
    const lines: string[] = [];
    for (const state of everyState(webSearch)) {
      const block = blocksOf(state).find((b) => b.index === 1);
      if (!block) continue;
      rerender(<ServerToolUseView block={block} />);
      const line = container.textContent ?? '';
      if (lines.at(-1) !== line) lines.push(line);
    }
    expect(lines[0]).toBe('Searching the web');
    expect(lines).toContain('Searching the web for weather NY');
    expect(lines.at(-2)).toBe('Searching the web for weather NYC today');
    expect(lines.at(-1)).toBe('Searched the web for weather NYC today');
    expect(container.querySelector('q.ms-server-tool__query')?.textContent).toBe(
      'weather NYC today',
    );
  });

  it('says a search was interrupted', () => {
    const block = blockState(
      { type: 'server_tool_use', id: 's', name: 'web_search', input: { query: 'cats' } },
      'incomplete',
    );
    const { container } = render(<ServerToolUseView block={block} />);
    expect(container.textContent).toBe('Web search interrupted for cats');
    expect(container.firstElementChild?.className).toContain('ms-server-tool--incomplete');
  });

  it('shows code the API runs as a code block (code_execution)', () => {
    const block = blockState({
      type: 'server_tool_use',
      id: 's',
      name: 'code_execution',
      input: { code: 'print(1)' },
    });
    const { container } = render(<ServerToolUseView block={block} />);
    expect(container.querySelector('.ms-server-tool__line')?.textContent).toBe('Ran code');
    expect(container.querySelector('.ms-code')?.getAttribute('data-language')).toBe('python');
    expect(container.querySelector('.ms-code code')?.textContent).toBe('print(1)\n');
  });

  it('shows another server tool by name with its input', () => {
    const block = blockState({
      type: 'server_tool_use',
      id: 's',
      name: 'memory',
      input: { key: 'k' },
    });
    const { container } = render(<ServerToolUseView block={block} />);
    expect(container.querySelector('.ms-server-tool__line')?.textContent).toBe('Used memory');
    expect(container.querySelector('pre')?.textContent).toBe('{\n  "key": "k"\n}');
  });
});

describe('WebSearchResultsView', () => {
  it('folds the results under their count, and opens them from the keyboard', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(webSearch), 2);
    render(<WebSearchResultsView block={block} />);
    const toggle = screen.getByRole('button', { name: '3 search results' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('list')).toBeNull();
    await user.tab();
    expect(document.activeElement).toBe(toggle);
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('list', { name: '3 search results' })).toBeDefined();
  });

  it('lists each result as a link with its host and age (spec-web-search)', async () => {
    const block = blockAt(await finalState(webSearch), 2);
    render(<WebSearchResultsView block={block} defaultOpen />);
    const list = screen.getByRole('list', { name: '3 search results' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const link = within(items[1] as HTMLElement).getByRole('link');
    expect(link.textContent).toBe('New York, NY Weather Forecast | AccuWeather');
    expect(link.getAttribute('href')).toBe(
      'https://www.accuweather.com/en/us/new-york/10021/weather-forecast/349727',
    );
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(items[1]?.querySelector('.ms-search-results__host')?.textContent).toBe(
      'accuweather.com',
    );
    expect(items[1]?.querySelector('.ms-search-results__age')?.textContent).toBe('May 15, 2025');
    // page_age null: no age shown.
    expect(items[0]?.querySelector('.ms-search-results__age')).toBeNull();
  });

  it('says the search failed, with its error code', () => {
    const block = blockState({
      type: 'web_search_tool_result',
      tool_use_id: 's',
      content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
    });
    const { container } = render(<WebSearchResultsView block={block} />);
    expect(container.textContent).toBe('Search failed: max_uses_exceeded');
  });

  it('counts one result in the singular (pause-turn has two, checked too)', async () => {
    const two = blockAt(await finalState(pauseTurn), 2);
    render(<WebSearchResultsView block={two} defaultOpen />);
    expect(screen.queryByRole('list', { name: '2 search results' })).not.toBeNull();
    cleanup();
    const content = (two.block.content as unknown[]).slice(0, 1);
    render(
      <WebSearchResultsView block={{ ...two, block: { ...two.block, content } }} defaultOpen />,
    );
    expect(screen.queryByRole('list', { name: '1 search result' })).not.toBeNull();
  });
});

describe('CitationList', () => {
  it('lists sources with the cited text and dedupes a repeated citation', async () => {
    const state = await finalState(webSearch);
    const citations = blocksOf(state).flatMap(
      (b) => (Array.isArray(b.block.citations) ? b.block.citations : []) as Citation[],
    );
    expect(citations.length).toBeGreaterThan(1);
    render(<CitationList citations={[...citations, citations[0] as Citation]} />);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(citations.length);
    expect(items[0]?.querySelector('blockquote')?.textContent).toBe(citations[0]?.cited_text);
  });

  it('titles a document citation by its document, without a link', () => {
    render(
      <CitationList
        citations={[
          {
            type: 'char_location',
            document_title: 'Handbook',
            cited_text: 'Be kind.',
            start_char_index: 0,
            end_char_index: 8,
          },
          { type: 'page_location', cited_text: 'No title here.' },
        ]}
        label="Cited"
      />,
    );
    const list = screen.getByRole('list', { name: 'Cited' });
    expect(within(list).queryByRole('link')).toBeNull();
    expect(list.querySelectorAll('.ms-citations__title')[0]?.textContent).toBe('Handbook');
    expect(list.querySelectorAll('.ms-citations__title')[1]?.textContent).toBe('Source 2');
  });

  it('renders nothing for no usable citations', () => {
    const { container } = render(<CitationList citations={[]} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('server tool views: accessibility', () => {
  it('have no axe violations', async () => {
    const state = await finalState(webSearch);
    const citations = blockAt(state, 4).block.citations as Citation[];
    const { container } = render(
      <>
        <ServerToolUseView block={blockAt(state, 1)} />
        <WebSearchResultsView block={blockAt(state, 2)} />
        <CitationList citations={citations} />
      </>,
    );
    expect(await axeViolations(container)).toEqual([]);
  });
});
