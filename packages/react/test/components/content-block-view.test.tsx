import type { BlockState, StreamState } from '@message-stream/core';
import fallbackBlock from '@message-stream/mock/fixtures/fallback-block.sse?raw';
import mcpToolUse from '@message-stream/mock/fixtures/mcp-tool-use.sse?raw';
import parallelToolCalls from '@message-stream/mock/fixtures/parallel-tool-calls.sse?raw';
import redactedThinking from '@message-stream/mock/fixtures/redacted-thinking.sse?raw';
import webSearch from '@message-stream/mock/fixtures/spec-web-search.sse?raw';
import unknownEvents from '@message-stream/mock/fixtures/unknown-events.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerScope } from '../../src/components/answer-scope.js';
import {
  type BlockRendererProps,
  type BlockRenderers,
  ContentBlockView,
} from '../../src/components/content-block-view.js';
import { axeViolations, blockState, blocksOf, everyState, finalState } from './support.js';

afterEach(cleanup);

const ByName = (props: BlockRendererProps) => <p>by name {String(props.block.block.name)}</p>;
const ByType = (props: BlockRendererProps) => <p>by type {props.block.block.type}</p>;

/** Counts its renders through `countRender`, set by the test using it. */
let countRender: (index: number) => void = () => {};
function CountingRenderer({ block }: BlockRendererProps) {
  countRender(block.index);
  return null;
}

function Message({
  state,
  renderers,
  toolResults,
}: {
  state: StreamState;
  renderers?: BlockRenderers;
  toolResults?: Record<string, unknown>;
}) {
  return (
    <div>
      {blocksOf(state).map((block) => {
        const id = block.block.id;
        const content = typeof id === 'string' ? toolResults?.[id] : undefined;
        return (
          <ContentBlockView
            key={block.index}
            block={block}
            renderers={renderers}
            // Rebuilt on every render, as a store selector might.
            toolResult={content === undefined ? undefined : { content }}
          />
        );
      })}
    </div>
  );
}

describe('ContentBlockView', () => {
  it('renders each block type with its view (spec-web-search)', async () => {
    const state = await finalState(webSearch);
    const { container } = render(<Message state={state} />);
    const kinds = [...(container.firstElementChild as HTMLElement).children].map(
      (element) => element.className.split(' ')[0],
    );
    expect(kinds).toEqual([
      'ms-text',
      'ms-server-tool',
      'ms-search-results',
      'ms-text',
      'ms-text',
      'ms-text',
      'ms-text',
      'ms-text',
    ]);
  });

  it('renders thinking, redacted thinking and text (redacted-thinking)', async () => {
    const state = await finalState(redactedThinking);
    render(<Message state={state} />);
    expect(screen.queryByRole('button', { name: 'Thought' })).not.toBeNull();
    expect(screen.queryByText('Some reasoning was redacted by the model provider.')).not.toBeNull();
    expect(screen.queryByText('ninth Mersenne prime')).not.toBeNull();
  });

  it('shows a server-side fallback as a line naming both models, not as JSON (fallback-block)', async () => {
    const state = await finalState(fallbackBlock);
    const { container } = render(<Message state={state} />);
    const note = container.querySelector('[data-block="fallback"]');
    expect(note?.textContent).toBe('Continued by claude-sonnet-5 (switched from claude-opus-5)');
    expect(screen.queryByRole('button', { name: /fallback/ })).toBeNull();
    expect(container.querySelector('.ms-generic')).toBeNull();
  });

  it('names no model it was not told, for a fallback block without them', () => {
    const block = blockState({ type: 'fallback' });
    const { container } = render(<ContentBlockView block={block} />);
    expect(container.textContent).toBe('Continued by another model');
  });

  it('renders mcp_tool_use as a tool card and its mcp_tool_result as a result (mcp-tool-use)', async () => {
    const state = await finalState(mcpToolUse);
    const { container } = render(<Message state={state} />);
    expect(container.querySelectorAll('.ms-tool')).toHaveLength(1);
    // Outside an AnswerScope the result has no card to go into: it shows on its own.
    expect(container.querySelector('.ms-tool__result-body')?.textContent).toMatch(
      /^Found 2 open issues/,
    );
    expect(screen.queryByRole('button', { name: 'mcp_tool_result' })).toBeNull();
  });

  it('pairs an mcp_tool_result with its mcp_tool_use inside an AnswerScope (mcp-tool-use)', async () => {
    const user = userEvent.setup();
    const state = await finalState(mcpToolUse);
    const blocks = blocksOf(state);
    const { container } = render(
      <AnswerScope blocks={blocks}>
        {blocks.map((block) => (
          <ContentBlockView key={block.index} block={block} />
        ))}
      </AnswerScope>,
    );
    // One card, no separate result block, and the card says the call is done.
    expect(container.querySelectorAll('.ms-tool__result')).toHaveLength(0);
    expect(container.querySelector('.ms-tool__badge')?.textContent).toBe('Done');
    await user.click(screen.getByRole('button', { name: /linear · search_issues/ }));
    const results = container.querySelectorAll('.ms-tool .ms-tool__result-body');
    expect(results).toHaveLength(1);
    expect(results[0]?.textContent).toMatch(/^Found 2 open issues/);
  });

  it('renders an unknown block type generically (unknown-events)', async () => {
    const state = await finalState(unknownEvents);
    render(<Message state={state} />);
    expect(screen.queryByRole('button', { name: 'code_execution_output' })).not.toBeNull();
  });

  it('passes a tool result and status to the tool card', async () => {
    const state = await finalState(parallelToolCalls);
    const tool = blocksOf(state).find((b) => b.block.type === 'tool_use') as BlockState;
    const { container, rerender } = render(<ContentBlockView block={tool} toolStatus="running" />);
    expect(container.querySelector('.ms-tool__badge')?.textContent).toBe('Running…');
    rerender(<ContentBlockView block={tool} toolResult={{ content: '18 °C' }} />);
    expect(container.querySelector('.ms-tool__badge')?.textContent).toBe('Done');
    await userEvent.setup().click(screen.getByRole('button', { name: /get_weather/ }));
    expect(container.querySelector('.ms-tool__result-body')?.textContent).toBe('18 °C');
  });

  it('renders text as plain text when asked', () => {
    const { container } = render(
      <ContentBlockView block={blockState({ type: 'text', text: '**raw**' })} textMode="plain" />,
    );
    expect(container.querySelector('.ms-text__plain')?.textContent).toBe('**raw**');
  });

  it('uses a custom renderer by tool name before one by type, and both before the built-in', async () => {
    const state = await finalState(parallelToolCalls);
    const renderers: BlockRenderers = {
      byToolName: { get_weather: ByName },
      byType: { tool_use: ByType, text: ByType },
    };
    const { container } = render(<Message state={state} renderers={renderers} />);
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'by type text',
      'by name get_weather',
      'by name get_weather',
    ]);
  });

  it('passes answerStarted, toolResult and toolStatus to a custom renderer', () => {
    const Spy = vi.fn((_: BlockRendererProps) => null);
    const block = blockState({ type: 'x' });
    render(
      <ContentBlockView
        block={block}
        renderers={{ byType: { x: Spy } }}
        answerStarted
        toolStatus="running"
        toolResult={{ content: 1 }}
      />,
    );
    expect(Spy.mock.calls[0]?.[0]).toEqual({
      block,
      answerStarted: true,
      toolStatus: 'running',
      toolResult: { content: 1 },
    });
  });

  it('does not take inherited keys for renderers: a block typed "constructor" is generic', () => {
    const block = blockState({ type: 'constructor' });
    render(<ContentBlockView block={block} renderers={{ byType: {}, byToolName: {} }} />);
    expect(screen.queryByRole('button', { name: 'constructor' })).not.toBeNull();
  });

  it('does not re-render a block that did not change when a sibling does (parallel-tool-calls)', () => {
    const renders = new Map<number, number>();
    const renderers: BlockRenderers = {
      byType: { text: CountingRenderer, tool_use: CountingRenderer },
    };
    countRender = (index) => renders.set(index, (renders.get(index) ?? 0) + 1);
    const states = everyState(parallelToolCalls).filter((s) => blocksOf(s).length > 0);
    const { rerender } = render(<Message state={states[0] as StreamState} renderers={renderers} />);
    let previous = states[0] as StreamState;
    for (const state of states.slice(1)) {
      const before = new Map(renders);
      rerender(<Message state={state} renderers={renderers} toolResults={{}} />);
      for (const block of blocksOf(state)) {
        const old = blocksOf(previous).find((b) => b.index === block.index);
        const rendered = (renders.get(block.index) ?? 0) - (before.get(block.index) ?? 0);
        // A block renders again exactly when the core gave it a new object.
        expect(rendered).toBe(old === block ? 0 : 1);
      }
      previous = state;
    }
    // Every block rendered once per change of its own, not once per event.
    expect(renders.get(0)).toBeLessThan(states.length / 2);
  });

  it('does not re-render a tool card for a result rebuilt with the same content', () => {
    const Counting = vi.fn((_: BlockRendererProps) => null);
    const block = blockState({ type: 'tool_use', id: 't', name: 'n', input: {} });
    const content = [{ type: 'text', text: 'ok' }];
    const renderers = { byToolName: { n: Counting } };
    const { rerender } = render(
      <ContentBlockView block={block} renderers={renderers} toolResult={{ content }} />,
    );
    rerender(<ContentBlockView block={block} renderers={renderers} toolResult={{ content }} />);
    expect(Counting).toHaveBeenCalledTimes(1);
    rerender(
      <ContentBlockView
        block={block}
        renderers={renderers}
        toolResult={{ content, isError: true }}
      />,
    );
    expect(Counting).toHaveBeenCalledTimes(2);
  });

  it('has no axe violations for a whole message (spec-web-search, redacted-thinking)', async () => {
    for (const body of [webSearch, redactedThinking, mcpToolUse, unknownEvents, fallbackBlock]) {
      const { container } = render(<Message state={await finalState(body)} />);
      expect(await axeViolations(container)).toEqual([]);
      cleanup();
    }
  });
});
