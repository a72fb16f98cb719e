import webSearch from '@message-stream/mock/fixtures/spec-web-search.sse?raw';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageBadge } from '../../src/components/usage-badge.js';
import { axeViolations, finalState } from './support.js';

afterEach(cleanup);

/** What the badge shows on screen (the parts not hidden from view). */
const visible = (container: HTMLElement) =>
  [...container.querySelectorAll('[aria-hidden="true"]')].map((e) => e.textContent).join('');
/** What a screen reader reads (the parts not hidden from assistive technology). */
const spoken = (container: HTMLElement) =>
  [...container.querySelectorAll('.ms-sr-only')].map((e) => e.textContent).join('');

describe('UsageBadge', () => {
  it('shows input, output, cache read and cache write tokens', () => {
    const { container } = render(
      <UsageBadge
        locale="en-US"
        usage={{
          input_tokens: 1234,
          output_tokens: 567,
          cache_read_input_tokens: 89,
          cache_creation_input_tokens: 12,
        }}
      />,
    );
    expect(visible(container)).toBe('1,234 in · 567 out · 89 cached · 12 cache write');
    expect(spoken(container)).toBe(
      'Token usage: 1,234 input tokens, 567 output tokens, 89 tokens read from cache, 12 tokens written to cache',
    );
  });

  it('shows only the counts present, and cache counts only when not zero (spec-web-search)', async () => {
    const state = await finalState(webSearch);
    const { container } = render(<UsageBadge usage={state.message?.usage} locale="en-US" />);
    const usage = state.message?.usage;
    expect(visible(container)).toBe(
      `${usage?.input_tokens?.toLocaleString('en-US')} in · ${usage?.output_tokens?.toLocaleString('en-US')} out`,
    );
  });

  it('shows output alone when that is all there is', () => {
    const { container } = render(<UsageBadge usage={{ output_tokens: 5 }} locale="en-US" />);
    expect(visible(container)).toBe('5 out');
  });

  it('renders nothing without usage or without counts', () => {
    for (const usage of [null, undefined, {}, { input_tokens: null }]) {
      const { container } = render(<UsageBadge usage={usage} />);
      expect(container.innerHTML).toBe('');
      cleanup();
    }
  });

  it('has no axe violations', async () => {
    const { container } = render(<UsageBadge usage={{ input_tokens: 1, output_tokens: 2 }} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
