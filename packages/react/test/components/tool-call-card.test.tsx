import {
  type BlockState,
  type ContentBlockDelta,
  createStreamState,
  reduceStream,
  type StreamState,
} from '@message-stream/core';
import mcpToolUse from '@message-stream/mock/fixtures/mcp-tool-use.sse?raw';
import parallelToolCalls from '@message-stream/mock/fixtures/parallel-tool-calls.sse?raw';
import specToolUse from '@message-stream/mock/fixtures/spec-tool-use.sse?raw';
import toolNoInput from '@message-stream/mock/fixtures/tool-no-input.sse?raw';
import truncatedMidTool from '@message-stream/mock/fixtures/truncated-mid-tool.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JSON_VIEW_LIMITS } from '../../src/components/json-view-limits.js';
import { ToolCallCard } from '../../src/components/tool-call-card.js';
import {
  deriveToolStatus,
  TOOL_STATUS_LABELS,
  type ToolCallStatus,
} from '../../src/components/tool-status.js';
import { axeViolations, blockAt, blocksOf, everyState, finalState } from './support.js';

afterEach(cleanup);

const code = (container: HTMLElement) =>
  container.querySelector('.ms-tool__code code')?.textContent ?? null;
const badge = (container: HTMLElement) =>
  container.querySelector('.ms-tool__badge')?.textContent ?? null;

/** A tool_use block fed fragment by fragment through the core reducer. */
function toolStates(fragments: string[]): BlockState[] {
  let state: StreamState = createStreamState();
  state = reduceStream(state, {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id: 'toolu_test', name: 'create_event', input: {} },
  });
  const blocks = [blockAt(state, 0)];
  for (const partial_json of fragments) {
    const delta: ContentBlockDelta = { type: 'input_json_delta', partial_json };
    state = reduceStream(state, { type: 'content_block_delta', index: 0, delta });
    blocks.push(blockAt(state, 0));
  }
  state = reduceStream(state, { type: 'content_block_stop', index: 0 });
  blocks.push(blockAt(state, 0));
  return blocks;
}

describe('deriveToolStatus', () => {
  const base: BlockState = {
    index: 0,
    status: 'complete',
    block: { type: 'tool_use', id: 'a', name: 'b', input: {} },
  };
  it.each([
    [{ ...base, status: 'streaming' as const }, undefined, undefined, 'input-streaming'],
    [{ ...base, status: 'incomplete' as const }, undefined, undefined, 'interrupted'],
    [base, undefined, undefined, 'input-complete'],
    [base, { content: 'ok' }, undefined, 'result'],
    [base, { content: 'no', isError: true }, undefined, 'error'],
    [base, undefined, 'running' as const, 'running'],
    [base, { content: 'no', isError: true, declined: 'denied' as const }, undefined, 'denied'],
    [base, { content: 'no', isError: true, declined: 'skipped' as const }, undefined, 'skipped'],
    [base, { content: 'cut', isError: true, endedBy: 'stop' as const }, undefined, 'stopped'],
    [base, { content: 'cut', isError: true, endedBy: 'reload' as const }, undefined, 'interrupted'],
  ])('derives %#', (block, result, status, expected) => {
    expect(deriveToolStatus(block, result, status)).toBe(expected);
  });
});

describe('ToolCallCard', () => {
  it('shows the tool name, its id and the status in words', async () => {
    const block = blockAt(await finalState(specToolUse), 1);
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    expect(screen.queryByRole('group', { name: 'Tool get_weather' })).not.toBeNull();
    expect(container.querySelector('.ms-tool__id')?.textContent).toBe(
      'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
    );
    expect(badge(container)).toBe('Not run');
  });

  it('fills the formatted input in as it streams (spec-tool-use)', () => {
    const seen: string[] = [];
    const { container, rerender } = render(<div />);
    for (const state of everyState(specToolUse)) {
      const block = blocksOf(state).find((b) => b.index === 1);
      if (!block) continue;
      rerender(<ToolCallCard defaultOpen block={block} />);
      const shown = code(container);
      if (shown !== null && seen.at(-1) !== shown) seen.push(shown);
      if (block.status === 'streaming') expect(badge(container)).toBe('Writing input…');
    }
    expect(seen).toEqual([
      '{}',
      '{\n  "location": "San"\n}',
      '{\n  "location": "San Francisc"\n}',
      '{\n  "location": "San Francisco,"\n}',
      '{\n  "location": "San Francisco, CA"\n}',
    ]);
  });

  it('adds keys one by one as they arrive', () => {
    const blocks = toolStates([
      '{"title": "Standup", ',
      '"day": "Mon',
      'day", "attendees": ["a',
      '"]}',
    ]);
    const { container, rerender } = render(
      <ToolCallCard defaultOpen block={blocks[0] as BlockState} />,
    );
    const keys: string[][] = [];
    for (const block of blocks) {
      rerender(<ToolCallCard defaultOpen block={block} />);
      keys.push(Object.keys(JSON.parse(code(container) ?? '{}')));
    }
    expect(keys).toContainEqual(['title']);
    expect(keys).toContainEqual(['title', 'day']);
    expect(keys.at(-1)).toEqual(['title', 'day', 'attendees']);
    expect(JSON.parse(code(container) ?? '')).toEqual({
      title: 'Standup',
      day: 'Monday',
      attendees: ['a'],
    });
  });

  it('switches between the formatted and the raw input', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specToolUse), 1);
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    const formatted = screen.getByRole('button', { name: 'Formatted' });
    const raw = screen.getByRole('button', { name: 'Raw' });
    expect(formatted.getAttribute('aria-pressed')).toBe('true');
    await user.click(raw);
    expect(raw.getAttribute('aria-pressed')).toBe('true');
    expect(formatted.getAttribute('aria-pressed')).toBe('false');
    expect(code(container)).toBe(block.inputJson as string);
    await user.click(formatted);
    expect(code(container)).toBe('{\n  "location": "San Francisco, CA"\n}');
  });

  it('copies the input shown and says "Copied"', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specToolUse), 1);
    render(<ToolCallCard defaultOpen block={block} />);
    await user.click(screen.getByRole('button', { name: /^Copy/ }));
    expect(await navigator.clipboard.readText()).toBe('{\n  "location": "San Francisco, CA"\n}');
    expect(screen.getByRole('status').textContent).toBe('Copied');
    await user.click(screen.getByRole('button', { name: 'Raw' }));
    await user.click(screen.getByRole('button', { name: /^Copy/ }));
    expect(await navigator.clipboard.readText()).toBe(block.inputJson as string);
  });

  it('says "Copy failed" when the clipboard refuses', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specToolUse), 1);
    render(<ToolCallCard defaultOpen block={block} />);
    const writeText = navigator.clipboard.writeText;
    navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
    try {
      await user.click(screen.getByRole('button', { name: /^Copy/ }));
      expect(screen.getByRole('status').textContent).toBe('Copy failed');
    } finally {
      navigator.clipboard.writeText = writeText;
    }
  });

  it('warns about input that is not valid JSON, and keeps the last good value', () => {
    const blocks = toolStates(['{"title": "Standup"', '} trailing']);
    const last = blocks.at(-1) as BlockState;
    expect(last.inputError).toBeTruthy();
    const { container } = render(<ToolCallCard defaultOpen block={last} />);
    expect(container.querySelector('.ms-tool__warning')?.textContent).toMatch(
      /^Warning: the input is not valid JSON \(.+, at character \d+\)\./,
    );
    expect(JSON.parse(code(container) ?? '')).toEqual({ title: 'Standup' });
  });

  it('shows an interrupted call as interrupted, with the input it had (truncated-mid-tool)', async () => {
    const block = blockAt(await finalState(truncatedMidTool), 1);
    expect(block.status).toBe('incomplete');
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    expect(badge(container)).toBe('Interrupted');
    expect(container.firstElementChild?.className).toContain('ms-tool--interrupted');
    expect(JSON.parse(code(container) ?? '')).toMatchObject({ origin: 'SFO', destination: 'JFK' });
  });

  it('shows "No input" for a tool called without input deltas (tool-no-input)', async () => {
    const block = blockAt(await finalState(toolNoInput), 1);
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    expect(code(container)).toBe('{}');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Raw' }));
    expect(code(container)).toBe('{}');
  });

  it('shows "Running…" when the app says so', async () => {
    const block = blockAt(await finalState(specToolUse), 1);
    const { container } = render(<ToolCallCard defaultOpen block={block} status="running" />);
    expect(badge(container)).toBe('Running…');
  });

  it.each<[string, unknown, string]>([
    ['a string', 'Sunny, 21 °C', 'Sunny, 21 °C'],
    [
      'content blocks',
      [
        { type: 'text', text: 'First' },
        { type: 'image', source: {} },
        { type: 'text', text: 'Second' },
      ],
      'First\n\n[image]\n\nSecond',
    ],
    ['JSON', { temp: 21, unit: 'C' }, '{\n  "temp": 21,\n  "unit": "C"\n}'],
    ['nothing', undefined, '(no content)'],
  ])('shows a result given as %s', async (_, content, text) => {
    const block = blockAt(await finalState(specToolUse), 1);
    const { container } = render(<ToolCallCard defaultOpen block={block} result={{ content }} />);
    expect(badge(container)).toBe('Done');
    expect(container.querySelector('.ms-tool__result-label')?.textContent).toBe('Result');
    expect(container.querySelector('.ms-tool__result-body')?.textContent).toBe(text);
  });

  it('shows an error result as an error', async () => {
    const block = blockAt(await finalState(specToolUse), 1);
    const { container } = render(
      <ToolCallCard
        defaultOpen
        block={block}
        result={{ content: 'City not found', isError: true }}
      />,
    );
    expect(badge(container)).toBe('Failed');
    expect(container.querySelector('.ms-tool__result--error')?.textContent).toBe(
      'ErrorCity not found',
    );
  });

  it('shows a call the user denied as declined, with their reason as text, not as an error', async () => {
    const block = blockAt(await finalState(specToolUse), 1);
    const denied = {
      content: 'I already know',
      isError: true,
      declined: 'denied' as const,
      reason: 'I already know',
    };
    const { container, rerender } = render(
      <ToolCallCard defaultOpen block={block} result={denied} />,
    );
    expect(badge(container)).toBe('Declined');
    expect(container.querySelector('.ms-tool')?.getAttribute('data-status')).toBe('denied');
    expect(container.querySelector('.ms-tool__badge--error')).toBeNull();
    expect(container.querySelector('.ms-tool__result--error')).toBeNull();
    // In body text, not a monospace result box.
    expect(container.querySelector('.ms-tool__result-body')).toBeNull();
    expect(container.querySelector('.ms-tool__note')?.textContent).toBe(
      'Your reason: I already know',
    );

    rerender(
      <ToolCallCard
        defaultOpen
        block={block}
        result={{ content: 'The user denied this tool call.', isError: true, declined: 'denied' }}
      />,
    );
    expect(badge(container)).toBe('Declined');
    expect(container.querySelector('.ms-tool__note')?.textContent).toBe(
      'You declined it, so it did not run.',
    );

    rerender(
      <ToolCallCard
        defaultOpen
        block={block}
        result={{
          content: 'The user sent a new message instead.',
          isError: true,
          declined: 'skipped',
        }}
      />,
    );
    expect(badge(container)).toBe('Skipped');
    expect(container.querySelector('.ms-tool__result-label')?.textContent).toBe('Skipped');
    expect(container.querySelector('.ms-tool__note')?.textContent).toBe(
      'You sent a new message before deciding, so it did not run.',
    );

    rerender(
      <ToolCallCard
        defaultOpen
        block={block}
        result={{ content: 'Stopped before the tool finished.', isError: true, endedBy: 'stop' }}
      />,
    );
    expect(badge(container)).toBe('Stopped');
    expect(container.querySelector('.ms-tool__result--error')).toBeNull();
    expect(container.querySelector('.ms-tool__note')?.textContent).toBe(
      'You stopped it before it finished.',
    );
    expect(await axeViolations(container)).toEqual([]);
  });

  it('names the MCP server of an mcp_tool_use call (mcp-tool-use)', async () => {
    const block = blockAt(await finalState(mcpToolUse), 0);
    render(<ToolCallCard defaultOpen block={block} />);
    expect(screen.queryByRole('group', { name: 'Tool linear · search_issues' })).not.toBeNull();
  });

  it('renders each of two parallel calls with its own input (parallel-tool-calls)', async () => {
    const state = await finalState(parallelToolCalls);
    const tools = blocksOf(state).filter((b) => b.block.type === 'tool_use');
    expect(tools).toHaveLength(2);
    const { container } = render(
      tools.map((block) => <ToolCallCard defaultOpen key={block.index} block={block} />),
    );
    const inputs = [...container.querySelectorAll('.ms-tool__code code')].map((c) =>
      JSON.parse(c.textContent ?? ''),
    );
    expect(inputs).toEqual(tools.map((b) => b.block.input));
  });

  it('has a status badge for every status, in words', async () => {
    const block = blockAt(await finalState(specToolUse), 1);
    const statuses: ToolCallStatus[] = [
      'input-streaming',
      'input-complete',
      'running',
      'result',
      'error',
      'interrupted',
      'denied',
      'skipped',
    ];
    for (const status of statuses) {
      const { container } = render(<ToolCallCard defaultOpen block={block} status={status} />);
      expect(badge(container)).toBe(TOOL_STATUS_LABELS[status]);
      expect(container.firstElementChild?.getAttribute('data-status')).toBe(status);
      cleanup();
    }
  });

  it('has no axe violations in each state', async () => {
    const state = await finalState(specToolUse);
    const block = blockAt(state, 1);
    const variants = [
      <ToolCallCard key="s" block={{ ...block, status: 'streaming' }} />,
      <ToolCallCard key="c" block={block} />,
      <ToolCallCard key="r" block={block} status="running" />,
      <ToolCallCard key="d" block={block} result={{ content: 'Sunny' }} />,
      <ToolCallCard key="e" block={block} result={{ content: 'Nope', isError: true }} />,
      <ToolCallCard key="i" block={blockAt(await finalState(truncatedMidTool), 1)} />,
    ];
    for (const ui of variants) {
      const { container } = render(ui);
      expect(await axeViolations(container)).toEqual([]);
      cleanup();
    }
  });

  it('starts as a compact row: name, status and a one-line summary; the id only when opened', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specToolUse), 1);
    const { container } = render(<ToolCallCard block={block} />);
    const row = screen.getByRole('button', { name: /get_weather/ });
    expect(row.getAttribute('aria-expanded')).toBe('false');
    expect(container.querySelector('.ms-tool__summary')?.textContent).toBe(
      'location: San Francisco, CA',
    );
    expect(container.textContent).not.toContain('toolu_01T1x1fJ34qAmk2tNTrN7Up6');
    expect(code(container)).toBeNull();
    await user.click(row);
    expect(row.getAttribute('aria-expanded')).toBe('true');
    expect(container.querySelector('.ms-tool__id')?.textContent).toBe(
      'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
    );
    expect(code(container)).toBe('{\n  "location": "San Francisco, CA"\n}');
    await user.keyboard('{Enter}');
    expect(row.getAttribute('aria-expanded')).toBe('false');
  });

  it('colours JSON by kind and shows a multi-line string on its real lines', () => {
    const block: BlockState = {
      index: 0,
      status: 'complete',
      block: {
        type: 'tool_use',
        id: 't',
        name: 'write_file',
        input: { path: 'a.txt', lines: 2, ok: true, content: 'first line\nsecond line' },
      },
    };
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    const text = (kind: string) =>
      [...container.querySelectorAll(`.ms-json__${kind}`)].map((span) => span.textContent);
    expect(text('key')).toEqual(['"path"', '"lines"', '"ok"', '"content"']);
    expect(text('number')).toEqual(['2']);
    expect(text('literal')).toEqual(['true']);
    expect(code(container)).toContain('"content": "first line\n    second line"');
    expect(code(container)).not.toContain('\\n');
  });

  it('draws only the start of a 1 MB input, and all of it on "Show all" once complete', async () => {
    const user = userEvent.setup();
    const big = 'x'.repeat(1_000_000);
    const block: BlockState = {
      index: 0,
      status: 'complete',
      block: { type: 'tool_use', id: 't', name: 'write_file', input: { content: big } },
      inputJson: JSON.stringify({ content: big }),
    };
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    const shown = code(container) ?? '';
    expect(shown.length).toBeLessThanOrEqual(JSON_VIEW_LIMITS.chars + 100);
    expect(shown.startsWith('{\n  "content": "xxxx')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Raw' }));
    expect((code(container) ?? '').length).toBe(JSON_VIEW_LIMITS.chars);
    await user.click(screen.getByRole('button', { name: 'Show all' }));
    expect(code(container)).toBe(block.inputJson);
  });

  it('draws a bounded slice of a streaming input, the same size at 100 KB as at 1 MB', () => {
    // A large input streaming in: what each update draws must not grow with the input.
    const sections = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ heading: `Section ${i}`, score: i / 10 }));
    const streaming = (n: number): BlockState => {
      const input = { title: 'Report', sections: sections(n) };
      return {
        index: 0,
        status: 'streaming',
        block: { type: 'tool_use', id: 't', name: 'report', input },
        inputJson: JSON.stringify(input),
      };
    };
    const drawn = (block: BlockState) => {
      const { container } = render(<ToolCallCard defaultOpen block={block} />);
      const figures = {
        nodes: container.querySelectorAll('.ms-json__code *').length,
        chars: (code(container) ?? '').length,
        showAll: screen.queryByRole('button', { name: 'Show all' }) !== null,
        note: container.querySelector('.ms-json__more')?.textContent ?? null,
      };
      cleanup();
      return figures;
    };
    const small = drawn(streaming(2_000)); // ~100 KB of JSON
    const large = drawn(streaming(20_000)); // ~1 MB
    expect(small.nodes).toBeGreaterThan(100);
    expect(large.nodes).toBe(small.nodes);
    expect(large.chars).toBe(small.chars);
    expect(large.chars).toBeLessThanOrEqual(JSON_VIEW_LIMITS.chars);
    // No "Show all" while it streams: drawing everything would cost the whole value per delta.
    expect(large.showAll).toBe(false);
    expect(large.note).toBe('Showing the start of a large value while it arrives.');
  });

  it('keeps a streaming input bounded after "Show all", and draws it all once complete', async () => {
    const user = userEvent.setup();
    const input = { content: 'z'.repeat(100_000) };
    const block = (status: BlockState['status']): BlockState => ({
      index: 0,
      status,
      block: { type: 'tool_use', id: 't', name: 'write_file', input },
      inputJson: JSON.stringify(input),
    });
    const { container, rerender } = render(<ToolCallCard defaultOpen block={block('complete')} />);
    await user.click(screen.getByRole('button', { name: 'Show all' }));
    expect((code(container) ?? '').length).toBeGreaterThan(100_000);
    rerender(<ToolCallCard defaultOpen block={block('streaming')} />);
    // The limit, and the line breaks between the lines drawn.
    expect((code(container) ?? '').length).toBeLessThanOrEqual(JSON_VIEW_LIMITS.chars + 100);
    rerender(<ToolCallCard defaultOpen block={block('complete')} />);
    expect((code(container) ?? '').length).toBeGreaterThan(100_000);
  });

  it('copies the whole input while it streams, though only its start is drawn', async () => {
    const user = userEvent.setup();
    const input = { content: 'w'.repeat(200_000), done: false };
    const block: BlockState = {
      index: 0,
      status: 'streaming',
      block: { type: 'tool_use', id: 't', name: 'write_file', input },
      inputJson: JSON.stringify(input),
    };
    const { container } = render(<ToolCallCard defaultOpen block={block} />);
    expect((code(container) ?? '').length).toBeLessThanOrEqual(JSON_VIEW_LIMITS.chars + 100);
    await user.click(screen.getByRole('button', { name: /^Copy/ }));
    expect(JSON.parse(await navigator.clipboard.readText())).toEqual(input);
  });

  it('copies the whole value as valid JSON even when only its start is drawn', async () => {
    const user = userEvent.setup();
    const input = { content: 'y'.repeat(100_000) };
    const block: BlockState = {
      index: 0,
      status: 'complete',
      block: { type: 'tool_use', id: 't', name: 'write_file', input },
    };
    render(<ToolCallCard defaultOpen block={block} />);
    await user.click(screen.getByRole('button', { name: /^Copy/ }));
    expect(JSON.parse(await navigator.clipboard.readText())).toEqual(input);
  });

  it('asks for approval: open, with the input, Approve and Deny (with a reason) call back', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specToolUse), 1);
    const onApprove = vi.fn();
    const onDeny = vi.fn();
    const { container, rerender } = render(
      <ToolCallCard
        block={block}
        status="awaiting-approval"
        onApprove={onApprove}
        onDeny={onDeny}
      />,
    );
    expect(badge(container)).toBe('Awaiting approval');
    expect(code(container)).toBe('{\n  "location": "San Francisco, CA"\n}');
    expect(screen.queryByText('Run get_weather with this input?')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onApprove).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(onDeny).toHaveBeenLastCalledWith(undefined);
    await user.type(screen.getByRole('textbox', { name: 'Reason (optional)' }), '  not now ');
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(onDeny).toHaveBeenLastCalledWith('not now');
    expect(await axeViolations(container)).toEqual([]);
    rerender(<ToolCallCard block={block} status="running" onApprove={onApprove} onDeny={onDeny} />);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('Enter in the reason field denies, and types nothing where focus goes next', async () => {
    const user = userEvent.setup();
    const block = blockAt(await finalState(specToolUse), 1);
    // The chat moves focus to its composer once a call is decided, during the same key.
    const onDeny = vi.fn(() => screen.getByRole('textbox', { name: 'Composer' }).focus());
    render(
      <>
        <ToolCallCard block={block} status="awaiting-approval" onDeny={onDeny} />
        <textarea aria-label="Composer" />
      </>,
    );
    await user.type(screen.getByRole('textbox', { name: 'Reason (optional)' }), 'not now{Enter}');
    expect(onDeny).toHaveBeenLastCalledWith('not now');
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Composer' }).value).toBe('');
  });

  it('has no axe violations when open, in each state', async () => {
    const block = blockAt(await finalState(specToolUse), 1);
    for (const status of ['input-streaming', 'result', 'error'] as const) {
      const { container } = render(
        <ToolCallCard
          defaultOpen
          block={block}
          status={status}
          result={
            status === 'input-streaming' ? null : { content: 'x', isError: status === 'error' }
          }
        />,
      );
      expect(await axeViolations(container)).toEqual([]);
      cleanup();
    }
  });
});
