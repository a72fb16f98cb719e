import type { BlockState } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReactElement } from 'react';
import { expect } from 'storybook/test';
import { type BlockRendererProps, type BlockRenderers, ContentBlockView } from './kit.js';
import { blockState, blocksOf, finalState } from './support.js';

const meta = {
  title: 'Components/ContentBlockView',
  component: ContentBlockView,
} satisfies Meta<typeof ContentBlockView>;
export default meta;
type Story = StoryObj<typeof meta>;

const blocks = (loaded: Record<string, unknown>) => loaded.blocks as BlockState[];

/** Every block of the `spec-web-search` answer, each with its built-in view. */
export const BuiltInViews: Story = {
  args: { block: undefined as never },
  loaders: [async () => ({ blocks: blocksOf(await finalState('spec-web-search')) })],
  render: (_args, { loaded }) => (
    <div>
      {blocks(loaded).map((block) => (
        <ContentBlockView key={block.index} block={block} answerStarted />
      ))}
    </div>
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-server-tool')).toHaveTextContent(
      'Searched the web',
    );
    await expect(canvas.getByText('3 search results')).toBeVisible();
    await expect(canvasElement.querySelectorAll('.ms-text').length).toBeGreaterThan(1);
  },
};

function WeatherCard({ block, toolResult }: BlockRendererProps): ReactElement {
  const input = (block.block as { input?: { location?: string } }).input;
  return (
    <section className="weather-card" aria-label="Weather">
      <p>
        Weather for <strong>{input?.location ?? '…'}</strong>
        {toolResult ? `: ${String(toolResult.content)}` : ''}
      </p>
    </section>
  );
}

function QuotedText({ block }: BlockRendererProps): ReactElement {
  return <blockquote className="quoted-text">{(block.block as { text: string }).text}</blockquote>;
}

// A module constant: the renderers object is a prop of every memoized block view.
const RENDERERS: BlockRenderers = {
  byToolName: { get_weather: WeatherCard },
  byType: { text: QuotedText },
};

/**
 * Custom renderers: `byToolName` for the get_weather call, `byType` for text; anything without
 * one (an unknown type, even one named `constructor`) falls back to GenericBlockView.
 */
export const CustomRenderers: Story = {
  args: { block: undefined as never },
  loaders: [
    async () => ({
      blocks: [
        ...blocksOf(await finalState('spec-tool-use')),
        { ...blockState({ type: 'constructor', note: 'not a renderer' }), index: 9 },
      ],
    }),
  ],
  render: (_args, { loaded }) => (
    <div>
      {blocks(loaded).map((block) => (
        <ContentBlockView
          key={block.index}
          block={block}
          renderers={RENDERERS}
          toolResult={block.block.type === 'tool_use' ? { content: '18 °C, clear' } : undefined}
        />
      ))}
    </div>
  ),
  play: async ({ canvas, canvasElement }) => {
    const weather = canvas.getByRole('region', { name: 'Weather' });
    await expect(weather).toHaveTextContent('Weather for San Francisco, CA: 18 °C, clear');
    await expect(canvasElement.querySelector('.quoted-text')).toHaveTextContent(
      "Okay, let's check the weather for San Francisco, CA:",
    );
    await expect(canvasElement.querySelector('.ms-tool')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'constructor' })).toBeVisible();
  },
};
