import type { BlockState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { ServerToolResultView, ServerToolUseView, WebSearchResultsView } from './kit.js';
import { blockOfType, blockState, blocksOf, finalState, midStream } from './support.js';

/** Server tools: what the API runs itself (web search, code execution), and their results. */
const meta = {
  title: 'Components/Server tools',
  component: ServerToolUseView,
} satisfies Meta<typeof ServerToolUseView>;
export default meta;
type Story = StoryObj<typeof meta>;

const blockOf = (loaded: Record<string, unknown>) => loaded.block as BlockState;

/** ServerToolUseView: a web search whose query is still being written. */
export const WebSearchStreaming: Story = {
  args: { block: undefined as never },
  loaders: [
    async () =>
      midStream('spec-web-search', (state) => {
        const block = blocksOf(state).find((b) => b.block.type === 'server_tool_use');
        return block?.status === 'streaming' && (block.inputJson ?? '').includes('NY')
          ? block
          : undefined;
      }),
  ],
  render: (_args, { loaded }) => <ServerToolUseView block={blockOf(loaded)} />,
  play: async ({ canvasElement }) => {
    const line = canvasElement.querySelector('.ms-server-tool');
    await expect(line).toHaveTextContent(/^Searching the web for .*weather NY/);
  },
};

/** ServerToolUseView: the search as sent (the `spec-web-search` fixture). */
export const WebSearchComplete: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({ block: blockOfType(await finalState('spec-web-search'), 'server_tool_use') }),
  ],
  render: (_args, { loaded }) => <ServerToolUseView block={blockOf(loaded)} />,
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-server-tool')).toHaveTextContent(
      'Searched the web for',
    );
    await expect(canvasElement.querySelector('q')).toHaveTextContent('weather NYC today');
  },
};

/** ServerToolUseView: a search cut off by the end of the stream. */
export const WebSearchInterrupted: Story = {
  args: {
    block: blockState(
      {
        type: 'server_tool_use',
        id: 'srvtoolu_01Cut',
        name: 'web_search',
        input: { query: 'node 24 rel' },
      },
      'incomplete',
    ),
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-server-tool')).toHaveTextContent(
      'Web search interrupted for',
    );
  },
};

/** ServerToolUseView: another server tool (code execution), with its input. */
export const OtherServerTool: Story = {
  args: {
    block: blockState({
      type: 'server_tool_use',
      id: 'srvtoolu_01Mem',
      name: 'memory',
      input: { key: 'favourite_colour' },
    }),
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Used')).toBeVisible();
    await expect(canvas.getByText('memory')).toBeVisible();
    await expect(canvas.getByText(/"key": "favourite_colour"/)).toBeVisible();
  },
};

/** Code the API runs (`code_execution`): shown as a Python code block with Copy. */
export const CodeExecutionInput: Story = {
  args: {
    block: blockState({
      type: 'server_tool_use',
      id: 'srvtoolu_01Code',
      name: 'code_execution',
      input: { code: 'print(6 * 7)' },
    }),
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('Ran code')).toBeVisible();
    await expect(canvasElement.querySelector('.ms-code')).toHaveAttribute(
      'data-language',
      'python',
    );
    await expect(canvasElement.querySelector('.ms-code code')).toHaveTextContent('print(6 * 7)');
  },
};

/** WebSearchResultsView: three results with host and age (the `spec-web-search` fixture). */
export const SearchResults: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({
      block: blockOfType(await finalState('spec-web-search'), 'web_search_tool_result'),
    }),
  ],
  render: (_args, { loaded }) => <WebSearchResultsView block={blockOf(loaded)} />,
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: '3 search results' }));
    const list = canvas.getByRole('list', { name: '3 search results' });
    await expect(list.querySelectorAll('li')).toHaveLength(3);
    const link = canvas.getByRole('link', { name: 'New York, NY Weather Forecast | AccuWeather' });
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(canvas.getByText('May 15, 2025')).toBeVisible();
  },
};

/** WebSearchResultsView: a result whose URL is not http(s) is listed without a link. */
export const SearchResultUnsafeUrl: Story = {
  args: {
    block: blockState({
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01X',
      content: [
        { type: 'web_search_result', title: 'A safe page', url: 'https://example.com/a' },
        { type: 'web_search_result', title: 'A script URL', url: 'javascript:alert(1)' },
      ],
    }),
  },
  render: (args) => <WebSearchResultsView block={args.block} defaultOpen />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('link', { name: 'A safe page' })).toBeVisible();
    await expect(canvas.queryByRole('link', { name: 'A script URL' })).toBeNull();
    await expect(canvas.getByText('A script URL')).toBeVisible();
  },
};

/** WebSearchResultsView: the search failed. */
export const SearchError: Story = {
  args: {
    block: blockState({
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01Err',
      content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
    }),
  },
  render: (args) => <WebSearchResultsView block={args.block} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Search failed: max_uses_exceeded')).toBeVisible();
  },
};

/** A web fetch result: the page's title as a link, when it was fetched, and its text. */
export const WebFetchResult: Story = {
  args: { block: undefined as never },
  render: () => (
    <ServerToolResultView
      block={blockState({
        type: 'web_fetch_tool_result',
        tool_use_id: 'srvtoolu_01Fetch',
        content: {
          type: 'web_fetch_result',
          url: 'https://example.com/guide',
          retrieved_at: '2026-05-01T12:00:00Z',
          content: {
            type: 'document',
            title: 'Streaming guide',
            source: {
              type: 'text',
              media_type: 'text/plain',
              data: 'Events arrive in order.\nEach one is a JSON object.',
            },
          },
        },
      })}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('link', { name: 'Streaming guide' })).toHaveAttribute(
      'href',
      'https://example.com/guide',
    );
    await expect(canvas.getByText(/Events arrive in order/)).toBeVisible();
  },
};

/** A web fetch that failed says its error code. */
export const WebFetchError: Story = {
  args: { block: undefined as never },
  render: () => (
    <ServerToolResultView
      block={blockState({
        type: 'web_fetch_tool_result',
        tool_use_id: 'srvtoolu_01Fetch',
        content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' },
      })}
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-server-result')).toHaveTextContent(
      'Fetch failed: url_not_accessible',
    );
  },
};

/** Code the API ran, as code with Copy, then its output and exit code. */
export const CodeExecution: Story = {
  args: { block: undefined as never },
  render: () => (
    <>
      <ServerToolUseView
        block={blockState({
          type: 'server_tool_use',
          id: 'srvtoolu_01Run',
          name: 'bash_code_execution',
          input: { command: 'python -c "print(sum(range(10)))"' },
        })}
      />
      <ServerToolResultView
        block={blockState({
          type: 'bash_code_execution_tool_result',
          tool_use_id: 'srvtoolu_01Run',
          content: {
            type: 'bash_code_execution_result',
            stdout: '45\n',
            stderr: '',
            return_code: 0,
            content: [],
          },
        })}
      />
      <ServerToolResultView
        block={blockState({
          type: 'bash_code_execution_tool_result',
          tool_use_id: 'srvtoolu_01Run2',
          content: {
            type: 'bash_code_execution_result',
            stdout: '',
            stderr: 'Traceback (most recent call last):\nZeroDivisionError: division by zero',
            return_code: 1,
            content: [],
          },
        })}
      />
    </>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Ran code')).toBeVisible();
    await expect(canvas.getByText('Ran: exit code 0')).toBeVisible();
    await expect(canvas.getByText('Failed: exit code 1')).toBeVisible();
    await expect(canvas.getByText(/ZeroDivisionError/)).toBeVisible();
  },
};
