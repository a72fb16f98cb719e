import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(cleanup);

// The setup loads every chunk up front. A fresh copy of a part's module has a group of its own,
// whose chunk is still on its way when the part first renders: what a page sees before then.
// (jsdom only: the browser runner does not give a test fresh modules.)
async function fresh<M>(load: () => Promise<M>): Promise<M> {
  vi.resetModules();
  return load();
}

describe('parts loaded on demand, before their chunk arrives', () => {
  it('CodeBlock draws its placeholder, out of the tab order, then the block', async () => {
    const { CodeBlock } = await fresh(() => import('../../src/components/code-block.js'));
    const { container } = render(<CodeBlock code={'let a = 1;\nlet b = 2;'} language="ts" />);
    const placeholder = screen.getByRole('group', { name: 'ts code' });
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    expect(container.querySelector('pre')?.textContent).toBe('let a = 1;\nlet b = 2;');
    expect(container.querySelector('pre')?.hasAttribute('tabindex')).toBe(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy ts code' })).toBeTruthy(), {
      timeout: 10_000,
    });
    expect(screen.getByRole('group', { name: 'ts code' }).hasAttribute('aria-busy')).toBe(false);
    expect(container.querySelector('pre')?.getAttribute('tabindex')).toBe('0');
  });

  it('CitationMarkers and SourcesList draw numbers and titles, then links', async () => {
    const { CitationMarkers, SourcesList } = await fresh(
      () => import('../../src/components/citations.js'),
    );
    const { indexCitations } = await import('../../src/components/citation-index.js');
    const index = indexCitations([
      [
        {
          type: 'web_search_result_location',
          url: 'https://a.example.com/',
          title: 'Alpha',
          cited_text: 'Alpha says so.',
        },
      ],
    ]);
    const { container } = render(
      <>
        <p>
          Cited.
          <CitationMarkers numbers={[1]} index={index} idPrefix="s-" />
        </p>
        <SourcesList sources={index.sources} idPrefix="s-" />
      </>,
    );
    expect(container.querySelector('.ms-cite__marker')?.textContent).toBe('1');
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('.ms-sources li')?.textContent).toBe('Alpha');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Source 1' })).toBeTruthy(), {
      timeout: 10_000,
    });
    expect(screen.getByRole('link', { name: 'Alpha' }).getAttribute('href')).toBe(
      'https://a.example.com/',
    );
    expect(container.querySelector('[aria-busy]')).toBeNull();
  });
});
