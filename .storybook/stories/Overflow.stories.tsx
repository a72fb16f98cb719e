import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { GenericBlockView, ServerToolUseView, TextBlockView, ToolCallCard } from './kit.js';
import { blockState, SCROLLABLE_REGION_A11Y } from './support.js';

/**
 * Content longer or wider than its box: the box scrolls instead of growing the message. Each
 * story checks that it does scroll; see SCROLLABLE_REGION_A11Y for the open accessibility issue.
 */
const meta = {
  title: 'Components/Overflowing content',
  parameters: { a11y: SCROLLABLE_REGION_A11Y },
  // A narrow message column, as on a phone.
  decorators: [
    (Story) => (
      <div style={{ width: '20rem' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const BIG_INPUT = Object.fromEntries(
  Array.from({ length: 80 }, (_, i) => [`field_${i}`, `value number ${i}`]),
);

const scrollsDown = async (element: Element | null) => {
  await expect(element).not.toBeNull();
  await expect((element as HTMLElement).scrollHeight).toBeGreaterThan(
    (element as HTMLElement).clientHeight,
  );
};
const scrollsSideways = async (element: Element | null) => {
  await expect(element).not.toBeNull();
  await expect((element as HTMLElement).scrollWidth).toBeGreaterThan(
    (element as HTMLElement).clientWidth,
  );
};

/** A tool input of 80 lines. */
export const LongToolInput: Story = {
  render: () => (
    <ToolCallCard
      defaultOpen
      block={blockState({
        type: 'tool_use',
        id: 'toolu_01Big',
        name: 'write_rows',
        input: BIG_INPUT,
      })}
    />
  ),
  play: async ({ canvasElement }) => scrollsDown(canvasElement.querySelector('.ms-tool__code')),
};

/** A tool result of 80 lines. */
export const LongToolResult: Story = {
  render: () => (
    <ToolCallCard
      defaultOpen
      block={blockState({ type: 'tool_use', id: 'toolu_01Log', name: 'read_log', input: {} })}
      result={{ content: Array.from({ length: 80 }, (_, i) => `log line ${i}`).join('\n') }}
    />
  ),
  play: async ({ canvasElement }) =>
    scrollsDown(canvasElement.querySelector('.ms-tool__result-body')),
};

/** An unknown block with a lot of JSON, opened. */
export const LongUnknownBlock: Story = {
  render: () => (
    <GenericBlockView defaultOpen block={blockState({ type: 'bulk_data', ...BIG_INPUT })} />
  ),
  play: async ({ canvasElement }) => scrollsDown(canvasElement.querySelector('.ms-generic__json')),
};

/** A server tool with a long input. */
export const LongServerToolInput: Story = {
  render: () => (
    <ServerToolUseView
      block={blockState({
        type: 'server_tool_use',
        id: 'srvtoolu_01Big',
        name: 'code_execution',
        input: BIG_INPUT,
      })}
    />
  ),
  play: async ({ canvasElement }) =>
    scrollsDown(canvasElement.querySelector('.ms-server-tool__input')),
};

/** A code block with a line wider than the message. */
export const WideCodeBlock: Story = {
  render: () => (
    <TextBlockView text={`\`\`\`ts\n${'const value = compute(input); '.repeat(12)}\n\`\`\``} />
  ),
  play: async ({ canvasElement }) => {
    // A group of lines is skipped until the frame that finds it in view draws it
    // (content-visibility): before that it is no wider than the block.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await scrollsSideways(canvasElement.querySelector('.ms-markdown pre'));
  },
};

/** A table wider than the message. */
export const WideTable: Story = {
  render: () => {
    const columns = Array.from({ length: 30 }, (_, i) => `Quarter_${i + 1}_revenue`);
    return (
      <TextBlockView
        text={[
          `| ${columns.join(' | ')} |`,
          `| ${columns.map(() => '---').join(' | ')} |`,
          `| ${columns.map((_, i) => `${(i + 1) * 1000} EUR`).join(' | ')} |`,
        ].join('\n')}
      />
    );
  },
  play: async ({ canvasElement }) => {
    const wrap = canvasElement.querySelector('.ms-md__table-wrap');
    await scrollsSideways(wrap);
    // Scrolling, it is a named tab stop (a table that fits is neither). Set once a
    // ResizeObserver has reported the overflow: a frame or more later on a loaded machine.
    await waitFor(() => expect(wrap).toHaveAttribute('tabindex', '0'));
    await expect(wrap).toHaveAccessibleName('Scrollable table');
  },
};
