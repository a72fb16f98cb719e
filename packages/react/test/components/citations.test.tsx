import type { BlockState, Citation } from '@message-stream/core';
import webSearch from '@message-stream/mock/fixtures/spec-web-search.sse?raw';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useContext } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerScope, CitationScopeContext } from '../../src/components/answer-scope.js';
import { indexCitations } from '../../src/components/citation-index.js';
import { AnswerSources } from '../../src/components/citations.js';
import { ContentBlockView } from '../../src/components/content-block-view.js';
import { TextBlockView } from '../../src/components/text-block-view.js';
import { axeViolations, blocksOf, finalState } from './support.js';

afterEach(cleanup);

const cite = (url: string, title: string, cited_text: string): Citation => ({
  type: 'web_search_result_location',
  url,
  title,
  cited_text,
});

const A = cite('https://a.example.com/x', 'Alpha page', 'Alpha says so.');
const B = cite('https://b.example.com/y', 'Beta page', 'Beta agrees.');
const A2 = cite('https://a.example.com/x', 'Alpha page', 'Alpha says more.');

function textBlock(index: number, text: string, citations: Citation[] | null): BlockState {
  return { index, status: 'complete', block: { type: 'text', text, citations } };
}

/** An answer as an app lays it out: its blocks in one scope, then its sources once. */
function renderAnswer(blocks: readonly BlockState[]) {
  return render(
    <AnswerScope blocks={blocks}>
      {blocks.map((block) => (
        <ContentBlockView key={block.index} block={block} />
      ))}
      <AnswerSources />
    </AnswerScope>,
  );
}

/** Records the citation scope it sees on each render. */
const seenScopes: unknown[] = [];
function Probe() {
  seenScopes.push(useContext(CitationScopeContext));
  return null;
}

describe('citation markers', () => {
  it('puts a numbered marker per source at the end of the text, with a card on keyboard focus', async () => {
    const user = userEvent.setup();
    const { container } = render(<TextBlockView text="It is sunny." citations={[A, B, A2]} />);
    const markers = [...container.querySelectorAll('.ms-cite__marker')];
    expect(markers.map((m) => m.textContent)).toEqual(['1', '2']);
    // The card is hidden until the marker has focus.
    const card = () => screen.queryByRole('tooltip');
    expect(card()).toBeNull();
    await user.tab();
    expect(document.activeElement).toBe(markers[0]);
    const shown = card();
    expect(shown?.textContent).toBe('Alpha pagea.example.comAlpha says so.');
    expect(markers[0]?.getAttribute('aria-describedby')).toBe(shown?.id);
    // Escape hides it; moving on shows the next source's.
    await user.keyboard('{Escape}');
    expect(card()).toBeNull();
    await user.tab();
    expect(card()?.textContent).toContain('Beta page');
    await user.tab();
    expect(card()).toBeNull();
  });

  it('shows the card on hover and names the marker by its number', async () => {
    const user = userEvent.setup();
    render(<TextBlockView text="Cited." citations={[B]} />);
    const marker = screen.getByRole('link', { name: 'Source 1' });
    expect(marker.getAttribute('href')).toBe('https://b.example.com/y');
    await user.hover(marker);
    expect(screen.getByRole('tooltip').textContent).toContain('Beta agrees.');
    await user.unhover(marker);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  /**
   * Whether each click `click` makes would follow the link: read after the kit's handler ran,
   * then stopped, so the test page never opens the source.
   */
  function clicksFollowing(click: () => void): boolean[] {
    const followed: boolean[] = [];
    const record = (event: MouseEvent) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    };
    window.addEventListener('click', record);
    try {
      click();
    } finally {
      window.removeEventListener('click', record);
    }
    expect(followed.length).toBeGreaterThan(0);
    return followed;
  }

  it('on a touch screen, shows the card on the first tap and follows the link on the second', () => {
    render(<TextBlockView text="Cited." citations={[B]} />);
    const marker = screen.getByRole('link', { name: 'Source 1' });
    // A tap: the pointer goes down, the link takes focus (which opens the card), then the click.
    const tap = () => {
      fireEvent.pointerDown(marker, { pointerType: 'touch' });
      marker.focus();
      fireEvent.click(marker);
    };
    expect(clicksFollowing(tap)).toEqual([false]);
    expect(screen.getByRole('tooltip').textContent).toContain('Beta agrees.');
    expect(clicksFollowing(tap)).toEqual([true]);
  });

  it('lets a mouse click follow the link at once', () => {
    render(<TextBlockView text="Cited." citations={[B]} />);
    const marker = screen.getByRole('link', { name: 'Source 1' });
    const click = () => {
      fireEvent.pointerDown(marker, { pointerType: 'mouse' });
      marker.focus();
      fireEvent.click(marker);
    };
    expect(clicksFollowing(click)).toEqual([true]);
  });

  it('numbers sources once across an answer and lists them once (AnswerScope, AnswerSources)', () => {
    const blocks = [
      textBlock(0, 'First claim.', [A]),
      textBlock(1, 'Plain text in between.', null),
      textBlock(2, 'Second claim.', [B, A2]),
    ];
    const { container } = renderAnswer(blocks);
    const markersOf = (i: number) =>
      [
        ...(container.querySelectorAll('.ms-text')[i]?.querySelectorAll('.ms-cite__marker') ?? []),
      ].map((m) => m.textContent);
    expect(markersOf(0)).toEqual(['1']);
    expect(markersOf(1)).toEqual([]);
    expect(markersOf(2)).toEqual(['2', '1']);
    // One "Sources" heading, one list, two entries numbered like the markers.
    expect(screen.getAllByText('Sources')).toHaveLength(1);
    const list = screen.getByRole('list', { name: 'Sources' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('value'))).toEqual(['1', '2']);
    expect(items[0]?.textContent).toContain('Alpha says so.');
    expect(items[0]?.textContent).toContain('Alpha says more.');
  });

  it('renders nothing for AnswerSources when nothing is cited, or outside a scope', () => {
    const { container } = render(
      <>
        <AnswerScope blocks={[textBlock(0, 'No citations.', null)]}>
          <AnswerSources />
        </AnswerScope>
        <AnswerSources />
      </>,
    );
    expect(container.innerHTML).toBe('');
  });

  it('keeps the scope value while citations do not change, so text blocks stay memoized', () => {
    const first = textBlock(0, 'Claim.', [A]);
    seenScopes.length = 0;
    const { rerender } = render(
      <AnswerScope blocks={[first]}>
        <Probe />
      </AnswerScope>,
    );
    // A new sibling block streams in: a new blocks array, the same citation lists.
    rerender(
      <AnswerScope blocks={[first, textBlock(1, 'More', null)]}>
        <Probe />
      </AnswerScope>,
    );
    // A citation arrives: a new list, so a new value.
    rerender(
      <AnswerScope blocks={[first, textBlock(1, 'More', [B])]}>
        <Probe />
      </AnswerScope>,
    );
    expect(seenScopes).toHaveLength(3);
    expect(seenScopes[1]).toBe(seenScopes[0]);
    expect(seenScopes[2]).not.toBe(seenScopes[1]);
  });

  it('numbers the spec-web-search answer and passes axe', async () => {
    const blocks = blocksOf(await finalState(webSearch));
    const { container } = renderAnswer(blocks);
    expect(container.querySelectorAll('.ms-sources')).toHaveLength(1);
    expect(container.querySelectorAll('.ms-cite__marker').length).toBeGreaterThan(0);
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('indexCitations', () => {
  it('groups citations by source in order of first citation; documents by index', () => {
    const index = indexCitations([
      [A, { type: 'char_location', document_index: 0, document_title: 'Report', cited_text: 'q' }],
      [B, A2, { type: 'char_location', document_index: 0, cited_text: 'r' }],
    ]);
    expect(index.sources.map((s) => [s.number, s.title, s.quotes])).toEqual([
      [1, 'Alpha page', ['Alpha says so.', 'Alpha says more.']],
      [2, 'Report', ['q', 'r']],
      [3, 'Beta page', ['Beta agrees.']],
    ]);
    expect(index.numberOf(A2)).toBe(1);
    expect(index.numberOf({ type: 'x' })).toBe(0);
    expect(index.numberOf(null)).toBe(0);
  });

  it('gives a source with a refused URL no link', () => {
    const index = indexCitations([[cite('javascript:alert(1)', 'Bad', 'x')]]);
    expect(index.sources[0]?.href).toBeUndefined();
  });
});
