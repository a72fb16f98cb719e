import type { BlockState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { ToolCallCard } from './kit.js';
import { Replay } from './replay.js';
import {
  blockOfType,
  blockState,
  blocksOf,
  finalState,
  midStream,
  statesOf,
  watch,
} from './support.js';

const meta = {
  title: 'Components/ToolCallCard',
  component: ToolCallCard,
} satisfies Meta<typeof ToolCallCard>;
export default meta;
type Story = StoryObj<typeof meta>;

const weatherCall = async () => ({
  block: blockOfType(await finalState('spec-tool-use'), 'tool_use'),
});
const card = (canvasElement: HTMLElement) =>
  canvasElement.querySelector<HTMLElement>('.ms-tool') as HTMLElement;
const badge = (canvasElement: HTMLElement) =>
  canvasElement.querySelector<HTMLElement>('.ms-tool__badge') as HTMLElement;
const code = (canvasElement: HTMLElement) => canvasElement.querySelector('.ms-tool__code');
const blockOf = (loaded: Record<string, unknown>) => loaded.block as BlockState;

/** The input is still arriving: pretty JSON of what has been parsed so far. */
export const InputStreaming: Story = {
  args: { block: undefined as never },
  loaders: [
    async () =>
      midStream('spec-tool-use', (state) => {
        const block = blocksOf(state).find((b) => b.block.type === 'tool_use');
        return block?.status === 'streaming' && (block.inputJson ?? '').includes('Francisc')
          ? block
          : undefined;
      }),
  ],
  render: (_args, { loaded }) => <ToolCallCard defaultOpen block={blockOf(loaded)} />,
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('group', { name: 'Tool get_weather' })).toBeVisible();
    await expect(badge(canvasElement)).toHaveTextContent('Writing input…');
    await expect(code(canvasElement)).toHaveAttribute('aria-busy', 'true');
    await expect(code(canvasElement)).toHaveTextContent('"location": "San Francisc');
  },
};

/** The input is whole; nothing ran it yet. */
export const InputComplete: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => <ToolCallCard defaultOpen block={blockOf(loaded)} />,
  play: async ({ canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Not run');
    await expect(code(canvasElement)).toHaveTextContent('"location": "San Francisco, CA"');
    await expect(code(canvasElement)).not.toHaveAttribute('aria-busy');
  },
};

/** The app is running the tool (the store says so: nothing in the stream can). */
export const Running: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard defaultOpen block={blockOf(loaded)} status="running" />
  ),
  play: async ({ canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Running…');
    await expect(card(canvasElement)).toHaveAttribute('data-status', 'running');
  },
};

/** The tool returned a result. */
export const Result: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard
      defaultOpen
      block={blockOf(loaded)}
      result={{ content: '18 °C, light wind, clear sky' }}
    />
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Done');
    await expect(canvas.getByText('Result')).toBeVisible();
    await expect(canvas.getByText('18 °C, light wind, clear sky')).toBeVisible();
  },
};

/** A result made of content blocks: text as text, anything else as a placeholder. */
export const ResultBlocks: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard
      defaultOpen
      block={blockOf(loaded)}
      result={{
        content: [
          { type: 'text', text: 'Radar image attached.' },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
          },
        ],
      }}
    />
  ),
  play: async ({ canvasElement }) => {
    const body = canvasElement.querySelector('.ms-tool__result-body');
    await expect(body).toHaveTextContent('Radar image attached.');
    await expect(body).toHaveTextContent('[image]');
  },
};

/** The tool failed. */
export const ErrorResult: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard
      defaultOpen
      block={blockOf(loaded)}
      result={{ content: 'Weather service unavailable (HTTP 503)', isError: true }}
    />
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Failed');
    await expect(canvas.getByText('Error')).toBeVisible();
    await expect(canvas.getByText('Weather service unavailable (HTTP 503)')).toBeVisible();
  },
};

/** The user denied the call, with a reason: their choice, not a failure. */
export const Declined: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard
      defaultOpen
      block={blockOf(loaded)}
      result={{
        content: 'I already know',
        isError: true,
        declined: 'denied',
        reason: 'I already know',
      }}
    />
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Declined');
    await expect(canvas.getByText('Your reason: I already know')).toBeVisible();
    await expect(canvas.queryByText('Error')).toBeNull();
  },
};

/** The user sent a new message while the call waited for approval: it never ran. */
export const Skipped: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard
      defaultOpen
      block={blockOf(loaded)}
      result={{
        content: 'The user sent a new message instead.',
        isError: true,
        declined: 'skipped',
      }}
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Skipped');
  },
};

/** The user pressed Stop while the tool ran: stopped by them, not failed. */
export const Stopped: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard
      defaultOpen
      block={blockOf(loaded)}
      result={{ content: 'Stopped before the tool finished.', isError: true, endedBy: 'stop' }}
    />
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Stopped');
    await expect(canvas.getByText('You stopped it before it finished.')).toBeVisible();
    await expect(canvas.queryByText('Error')).toBeNull();
  },
};

/** The stream ended inside the input (the `truncated-mid-tool` fixture): it will not run. */
export const Interrupted: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({ block: blockOfType(await finalState('truncated-mid-tool'), 'tool_use') }),
  ],
  render: (_args, { loaded }) => <ToolCallCard defaultOpen block={blockOf(loaded)} />,
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('group', { name: 'Tool search_flights' })).toBeVisible();
    await expect(badge(canvasElement)).toHaveTextContent('Interrupted');
    await expect(code(canvasElement)).toHaveTextContent('"origin": "SFO"');
  },
};

/** Formatted and raw views of the input: raw is the JSON text exactly as it arrived. */
export const RawView: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => <ToolCallCard defaultOpen block={blockOf(loaded)} />,
  play: async ({ canvas, canvasElement, loaded }) => {
    const formatted = canvas.getByRole('button', { name: 'Formatted' });
    const raw = canvas.getByRole('button', { name: 'Raw' });
    await expect(formatted).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(raw);
    await expect(raw).toHaveAttribute('aria-pressed', 'true');
    await expect(formatted).toHaveAttribute('aria-pressed', 'false');
    await expect(code(canvasElement)?.textContent).toBe(blockOf(loaded).inputJson);
    await userEvent.click(formatted);
    await expect(code(canvasElement)?.textContent).toContain('\n  "location"');
  },
};

/** Input JSON that does not parse: a warning, and the last valid part. */
export const InvalidInput: Story = {
  args: { block: undefined as never },
  render: () => (
    <ToolCallCard
      defaultOpen
      block={blockState(
        { type: 'tool_use', id: 'toolu_01Bad', name: 'get_weather', input: { location: 'Paris' } },
        'complete',
        {
          inputJson: '{"location": "Paris",, "unit": "celsius"}',
          inputError: { message: "Unexpected ','", position: 21 } as never,
        },
      )}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/the input is not valid JSON/)).toHaveTextContent(
      "Warning: the input is not valid JSON (Unexpected ',', at character 21). The last valid part is shown.",
    );
  },
};

/** A tool that takes no input (the `tool-no-input` fixture). */
export const NoInput: Story = {
  args: { block: undefined as never },
  loaders: [async () => ({ block: blockOfType(await finalState('tool-no-input'), 'tool_use') })],
  render: (_args, { loaded }) => <ToolCallCard defaultOpen block={blockOf(loaded)} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('group', { name: 'Tool get_time' })).toBeVisible();
  },
};

/** An MCP tool call: the server's name beside the tool's (the `mcp-tool-use` fixture). */
export const McpTool: Story = {
  args: { block: undefined as never },
  loaders: [async () => ({ block: blockOfType(await finalState('mcp-tool-use'), 'mcp_tool_use') })],
  render: (_args, { loaded }) => <ToolCallCard defaultOpen block={blockOf(loaded)} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('group', { name: 'Tool linear · search_issues' })).toBeVisible();
  },
};

/** The card filling in while the input JSON streams (the `spec-tool-use` fixture, replayed). */
export const Filling: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({
      steps: (await statesOf('spec-tool-use'))
        .map((state) => blocksOf(state).find((b) => b.block.type === 'tool_use'))
        .filter((b) => b !== undefined),
    }),
  ],
  render: (_args, { loaded }) => (
    <Replay steps={loaded.steps as BlockState[]} intervalMs={80}>
      {(block) => <ToolCallCard defaultOpen block={block} />}
    </Replay>
  ),
  play: async ({ canvasElement }) => {
    const input = watch(canvasElement, () => code(canvasElement)?.textContent ?? '');
    const labels = watch(canvasElement, () => badge(canvasElement)?.textContent ?? '');
    await waitFor(() => expect(badge(canvasElement)).toHaveTextContent('Not run'), {
      timeout: 10_000,
    });
    input.stop();
    labels.stop();
    await expect(labels.values).toContain('Writing input…');
    const filled = input.values.filter((text) => text !== '');
    // Several partial inputs, each extending the last, before the whole one.
    await expect(filled.length).toBeGreaterThan(2);
    await expect(filled.at(-1)).toContain('"location": "San Francisco, CA"');
  },
};

/** The default: a compact row (status, name, a one-line summary) that opens to the card. */
export const CompactRow: Story = {
  args: { block: undefined as never },
  loaders: [weatherCall],
  render: (_args, { loaded }) => (
    <ToolCallCard block={blockOf(loaded)} result={{ content: '18 °C, light wind, clear sky' }} />
  ),
  play: async ({ canvas, canvasElement }) => {
    const row = canvas.getByRole('button', { name: /get_weather/ });
    await expect(row).toHaveAttribute('aria-expanded', 'false');
    await expect(canvasElement.querySelector('.ms-tool__summary')).toHaveTextContent(
      'location: San Francisco, CA',
    );
    await expect(canvasElement.querySelector('.ms-tool__id')).toBeNull();
    await userEvent.click(row);
    await expect(row).toHaveAttribute('aria-expanded', 'true');
    await expect(canvasElement.querySelector('.ms-tool__id')).toBeVisible();
    await expect(canvasElement.querySelector('.ms-tool__result-body')).toHaveTextContent('18 °C');
  },
};

/** A call that needs the user's approval: its input, Approve, Deny and a reason. */
export const AwaitingApproval: Story = {
  args: { block: undefined as never, onApprove: fn(), onDeny: fn() },
  loaders: [weatherCall],
  render: (args, { loaded }) => (
    <ToolCallCard
      block={blockOf(loaded)}
      status="awaiting-approval"
      onApprove={args.onApprove}
      onDeny={args.onDeny}
    />
  ),
  play: async ({ args, canvas, canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('Awaiting approval');
    await expect(code(canvasElement)).toHaveTextContent('"location": "San Francisco, CA"');
    await userEvent.click(canvas.getByRole('button', { name: 'Approve' }));
    await expect(args.onApprove).toHaveBeenCalledTimes(1);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Reason (optional)' }), 'Not now');
    await userEvent.click(canvas.getByRole('button', { name: 'Deny' }));
    await expect(args.onDeny).toHaveBeenCalledWith('Not now');
  },
};

const FILE = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the file`).join('\n');

/** A long string value (a file's content) on its real lines, keys and values in colour. */
export const MultilineString: Story = {
  args: {
    defaultOpen: true,
    block: blockState({
      type: 'tool_use',
      id: 'toolu_01Write',
      name: 'write_file',
      input: { path: 'notes/todo.txt', overwrite: true, mode: 420, content: FILE },
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(code(canvasElement)).toHaveTextContent('"content": "line 1 of the file');
    await expect(code(canvasElement)?.textContent).toContain('\n    line 2 of the file');
  },
};

const MEGABYTE = 'x'.repeat(1_000_000);

/** A 1 MB input: the card draws its start, and all of it on "Show all". */
export const LargeInput: Story = {
  args: {
    defaultOpen: true,
    block: {
      ...blockState({
        type: 'tool_use',
        id: 'toolu_01Huge',
        name: 'upload',
        input: { name: 'blob.txt', data: MEGABYTE },
      }),
      status: 'streaming',
      inputJson: JSON.stringify({ name: 'blob.txt', data: MEGABYTE }),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    // Streaming: a bounded slice, and no "Show all" until the input is complete.
    await expect(
      canvas.getByText('Showing the start of a large value while it arrives.'),
    ).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Show all' })).toBeNull();
    await expect((code(canvasElement)?.textContent ?? '').length).toBeLessThan(50_000);
  },
};
