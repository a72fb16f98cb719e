import type { BlockState, ContentBlock } from '@message-stream/core';
import unknownEvents from '@message-stream/mock/fixtures/unknown-events.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import fc from 'fast-check';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentBlockView } from '../../src/components/content-block-view.js';
import { GenericBlockView } from '../../src/components/generic-block-view.js';
import { axeViolations, blockAt, blockState, finalState } from './support.js';

afterEach(cleanup);

describe('GenericBlockView', () => {
  it('is a collapsed card naming the block type, opening to its JSON (unknown-events)', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(unknownEvents), 1);
    const { container } = render(<GenericBlockView block={block} />);
    const button = screen.getByRole('button', { name: 'code_execution_output' });
    const panel = container.querySelector('.ms-generic__panel') as HTMLElement;
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBe(panel.id);
    expect(panel.hidden).toBe(true);
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    expect(JSON.parse(panel.querySelector('pre')?.textContent ?? '')).toEqual({
      type: 'code_execution_output',
      stdout: '42\n',
    });
  });

  it('shows the deltas it could not apply (unknown-events)', async () => {
    const text = blockAt(await finalState(unknownEvents), 0);
    expect(text.otherDeltas).toHaveLength(1);
    const { container } = render(<GenericBlockView block={text} defaultOpen />);
    const [, deltas] = container.querySelectorAll('pre');
    expect(JSON.parse(deltas?.textContent ?? '')).toEqual([
      { type: 'text_annotation_delta', note: 'x' },
    ]);
  });

  it('says when the block is still streaming or was cut off', () => {
    const { rerender } = render(
      <GenericBlockView block={blockState({ type: 'future' }, 'streaming')} />,
    );
    expect(screen.getByRole('button').textContent).toBe('future (streaming)');
    rerender(<GenericBlockView block={blockState({ type: 'future' }, 'incomplete')} />);
    expect(screen.getByRole('button').textContent).toBe('future (incomplete)');
  });

  it('opens and closes with Enter on the focused button', async () => {
    const user = userEvent.setup();
    render(<GenericBlockView block={blockState({ type: 'future' })} />);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button').getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button').getAttribute('aria-expanded')).toBe('false');
  });

  it('has no axe violations, closed and open', async () => {
    const user = userEvent.setup();
    const { container } = render(<GenericBlockView block={blockState({ type: 'future', a: 1 })} />);
    expect(await axeViolations(container)).toEqual([]);
    await user.click(screen.getByRole('button'));
    expect(await axeViolations(container)).toEqual([]);
  });
});

class Catch extends Component<{ children: ReactNode; onError(error: unknown): void }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

describe('any block shape', () => {
  const anything = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    maxDepth: 3,
  });
  const knownType = fc.constantFrom(
    'text',
    'thinking',
    'redacted_thinking',
    'tool_use',
    'server_tool_use',
    'mcp_tool_use',
    'web_search_tool_result',
    'constructor',
    '__proto__',
    'toString',
  );
  const oddBlock = fc.oneof(
    anything,
    fc.record({
      type: knownType,
      text: anything,
      thinking: anything,
      name: fc.oneof(fc.constantFrom('web_search', 'get_weather'), anything),
      id: anything,
      input: anything,
      content: fc.oneof(anything, fc.array(fc.dictionary(fc.string(), anything))),
      citations: fc.oneof(anything, fc.array(anything)),
      server_name: anything,
    }),
    fc.dictionary(fc.string(), anything).map((fields) => ({ ...fields, type: 'text' })),
  );
  const oddState = fc.record({
    index: fc.nat(),
    status: fc.constantFrom('streaming', 'complete', 'incomplete'),
    block: oddBlock,
    inputJson: fc.option(fc.oneof(fc.string(), anything), { nil: undefined }),
    inputError: fc.option(anything, { nil: undefined }),
    otherDeltas: fc.option(fc.oneof(fc.array(anything), anything), { nil: undefined }),
  });

  it('renders arbitrary blocks without throwing (property)', () => {
    fc.assert(
      fc.property(oddState, fc.boolean(), (state, answerStarted) => {
        const errors: unknown[] = [];
        const view = render(
          <Catch onError={(error) => errors.push(error)}>
            <ContentBlockView
              block={state as unknown as BlockState<ContentBlock>}
              answerStarted={answerStarted}
              toolResult={answerStarted ? { content: state.inputJson } : undefined}
            />
          </Catch>,
        );
        view.unmount();
        expect(errors).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
