import { createStreamError, createStreamState, type StreamState } from '@message-stream/core';
import truncated from '@message-stream/mock/fixtures/truncated-mid-tool.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { indexCitations } from '../../src/components/citation-index.js';
import { CitationMarkersPlaceholder } from '../../src/components/citations.js';
import { ResumeControlPlaceholder } from '../../src/components/resume-control.js';
import { finalState } from './support.js';

afterEach(cleanup);

const noop = () => {};

// What a part draws before its chunk has arrived (the tests' setup loads every chunk, so the
// parts themselves never show these here).
describe('placeholders of parts loaded on demand', () => {
  it('ResumeControl: the one action it will offer, disabled, in a named group', async () => {
    const cut = await finalState(truncated);
    render(<ResumeControlPlaceholder stream={cut} onResume={noop} onRetry={noop} />);
    const button = screen.getByRole('button', { name: 'Resume' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(
      screen.getByRole('group', { name: 'Recover the answer' }).getAttribute('aria-busy'),
    ).toBe('true');
    cleanup();
    const failed = {
      ...createStreamState(),
      status: 'error',
      error: createStreamError({ type: 'overloaded_error', message: '' }),
    } as StreamState;
    render(<ResumeControlPlaceholder stream={failed} onResume={noop} onRetry={noop} />);
    expect((screen.getByRole('button', { name: 'Retry' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('ResumeControl: nothing when there is nothing to recover', () => {
    const fatal = {
      ...createStreamState(),
      status: 'error',
      error: createStreamError({ type: 'authentication_error', message: '', status: 401 }),
    } as StreamState;
    const { container } = render(
      <ResumeControlPlaceholder stream={fatal} onResume={noop} onRetry={noop} />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('CitationMarkers: the numbers, in the frame the markers take', () => {
    const index = indexCitations([
      [
        {
          type: 'web_search_result_location',
          url: 'https://a.example.com/',
          title: 'A',
          cited_text: 'a',
        },
        {
          type: 'web_search_result_location',
          url: 'https://b.example.com/',
          title: 'B',
          cited_text: 'b',
        },
      ],
    ]);
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
});
