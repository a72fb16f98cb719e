import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { indexCitations } from '../../src/components/citation-index.js';
import {
  CitationMarkersPlaceholder,
  SourcesListPlaceholder,
} from '../../src/components/citations.js';

afterEach(cleanup);

/** The index of one text block citing two pages, titled `first` and `second`. */
const twoSources = (first: string, second: string) =>
  indexCitations([
    [
      {
        type: 'web_search_result_location',
        url: 'https://a.example.com/',
        title: first,
        cited_text: 'a',
      },
      {
        type: 'web_search_result_location',
        url: 'https://b.example.com/',
        title: second,
        cited_text: 'b',
      },
    ],
  ]);

// What a part draws before its chunk has arrived (the tests' setup loads every chunk, so the
// parts themselves never show these here).
describe('placeholders of parts loaded on demand', () => {
  it('CitationMarkers: the numbers, in the frame the markers take', () => {
    const index = twoSources('A', 'B');
    const { container } = render(
      <p>
        Cited.
        <CitationMarkersPlaceholder numbers={[1, 2]} index={index} idPrefix="s-" />
      </p>,
    );
    const group = container.querySelector('.ms-cite-group');
    expect(group?.getAttribute('aria-busy')).toBe('true');
    expect([...container.querySelectorAll('.ms-cite__marker')].map((m) => m.textContent)).toEqual([
      '1',
      '2',
    ]);
    expect(container.querySelector('a')).toBeNull();
    cleanup();
    const empty = render(<CitationMarkersPlaceholder numbers={[]} index={index} idPrefix="s-" />);
    expect(empty.container.innerHTML).toBe('');
  });

  it('SourcesList: the heading and the numbered titles, not yet links', () => {
    const index = twoSources('Alpha', 'Beta');
    const { container } = render(
      <SourcesListPlaceholder
        sources={index.sources}
        idPrefix="s-"
        label="Sources"
        className="mine"
      />,
    );
    const list = container.querySelector('.ms-sources');
    expect(list?.classList.contains('mine')).toBe(true);
    expect(list?.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText('Sources').tagName).toBe('P');
    expect([...container.querySelectorAll('li')].map((li) => [li.value, li.textContent])).toEqual([
      [1, 'Alpha'],
      [2, 'Beta'],
    ]);
    expect(container.querySelector('a')).toBeNull();
    cleanup();
    const none = render(<SourcesListPlaceholder sources={[]} idPrefix="s-" />);
    expect(none.container.innerHTML).toBe('');
  });
});
