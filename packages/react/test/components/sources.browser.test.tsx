import type { Citation } from '@message-stream/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CitationList } from '../../src/components/citation-list.js';
import { withDefaultStyles } from '../browser-styles.js';
import { contrast, over, rgba } from './colour.js';

// The default stylesheet's sources list, measured in Chromium.
withDefaultStyles();

const cite = (url: string, title: string, cited_text: string): Citation => ({
  type: 'web_search_result_location',
  url,
  title,
  cited_text,
});

const CITATIONS = [
  cite(
    'https://www.accuweather.com/en/us/new-york/forecast',
    'New York, NY Weather Forecast | AccuWeather',
    'Today: Mostly cloudy with a few showers in the afternoon. High 68F.',
  ),
  cite(
    'https://world-weather.info/forecast/usa/new_york/may-2025/',
    'Weather in New York City in May 2025 (New York) - detailed Weather Forecast for a month',
    'In the second half of May, daytime temperatures are expected to climb.',
  ),
];

describe.each(['light', 'dark'])('the sources list (%s)', (theme) => {
  it('numbers its sources as the markers in the text are drawn, titles unframed, the site under each', async () => {
    const { container } = render(
      <div data-theme={theme} style={{ background: 'var(--ms-bg)', width: 390 }}>
        <CitationList citations={CITATIONS} />
        {/* Never under the pointer: a mouse left over it by an earlier file's test hovered it
            (the hover colours), and the comparison below is of its resting look. */}
        <span className="ms-cite__marker" style={{ pointerEvents: 'none' }}>
          1
        </span>
      </div>,
    );
    const root = container.firstElementChild as HTMLElement;
    const page = rgba('var(--ms-bg)', root);
    const first = await screen.findByRole('link', { name: /AccuWeather/ });
    const list = screen.getByRole('list', { name: 'Sources' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => (item as HTMLLIElement).value)).toEqual([1, 2]);

    // The number: the list's own counter, in the pill the inline marker has.
    const number = getComputedStyle(items[0] as Element, '::before');
    const marker = getComputedStyle(container.querySelector('.ms-cite__marker') as Element);
    expect(number.content).toBe('counter(list-item)');
    expect(getComputedStyle(items[0] as Element).listStyleType).toBe('none');
    for (const property of [
      'backgroundColor',
      'borderTopColor',
      'borderTopLeftRadius',
      'color',
    ] as const) {
      expect(number[property]).toBe(marker[property]);
    }
    const pill = over(rgba(number.backgroundColor, root), page);
    expect(contrast(rgba(number.color, root), pill)).toBeGreaterThanOrEqual(4.5);

    // A list of links, not links in prose: no underline until hovered or focused.
    const title = getComputedStyle(first);
    expect(title.textDecorationLine).toBe('none');
    expect(contrast(rgba(title.color, root), page)).toBeGreaterThanOrEqual(4.5);

    // The site on a line of its own, under the title, in a muted colour that still reads.
    const host = items[0]?.querySelector('.ms-citations__host') as HTMLElement;
    expect(host.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      first.getBoundingClientRect().bottom - 1,
    );
    expect(contrast(rgba(getComputedStyle(host).color, root), page)).toBeGreaterThanOrEqual(4.5);
    // The quote is kept whole, and nothing is wider than the column at phone width.
    const quote = items[1]?.querySelector('.ms-citations__quote') as HTMLElement;
    expect(quote.scrollHeight).toBeLessThanOrEqual(quote.clientHeight + 1);
    expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth);
  });
});
