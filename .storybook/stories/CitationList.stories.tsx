import type { Citation } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { AnswerScope, AnswerSources, CitationList, ContentBlockView } from './kit.js';
import { blocksOf, finalState } from './support.js';

const meta = {
  title: 'Components/CitationList',
  component: CitationList,
} satisfies Meta<typeof CitationList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every citation of the `spec-web-search` answer: a link per source, the cited passage quoted. */
export const WebSearchCitations: Story = {
  args: { citations: [] },
  loaders: [
    async () => ({
      citations: blocksOf(await finalState('spec-web-search')).flatMap(
        (b) => ((b.block as { citations?: Citation[] | null }).citations ?? []) as Citation[],
      ),
    }),
  ],
  render: (_args, { loaded }) => <CitationList citations={loaded.citations as Citation[]} />,
  play: async ({ canvas }) => {
    const list = canvas.getByRole('list', { name: 'Sources' });
    await expect(list.querySelectorAll('li').length).toBeGreaterThan(0);
    const link = canvas.getByRole('link', { name: 'New York, NY Weather Forecast | AccuWeather' });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(canvas.getByText(/Mostly cloudy with a few showers/)).toBeVisible();
  },
};

const cite = (fields: Record<string, unknown>) => fields as unknown as Citation;

/**
 * Each kind of citation: a web result, a document location (no URL), the same passage twice
 * (listed once), and a URL that is not http(s) (no link).
 */
export const Kinds: Story = {
  args: {
    label: 'Sources',
    citations: [
      cite({
        type: 'web_search_result_location',
        url: 'https://example.com/streaming',
        title: 'Streaming guide',
        cited_text: 'Events arrive in order.',
      }),
      cite({
        type: 'web_search_result_location',
        url: 'https://example.com/streaming',
        title: 'Streaming guide',
        cited_text: 'Events arrive in order.',
      }),
      cite({
        type: 'char_location',
        document_title: 'Q3 report.pdf',
        cited_text: 'Revenue grew 12 %.',
        start_char_index: 0,
        end_char_index: 18,
      }),
      cite({ type: 'web_search_result_location', url: 'javascript:alert(1)', title: 'Not a link' }),
    ],
  },
  play: async ({ canvas }) => {
    const list = canvas.getByRole('list', { name: 'Sources' });
    await expect(list.querySelectorAll('li')).toHaveLength(3);
    await expect(canvas.getByRole('link', { name: 'Streaming guide' })).toBeVisible();
    await expect(canvas.getByText('Q3 report.pdf')).toBeVisible();
    await expect(canvas.queryByRole('link', { name: 'Not a link' })).toBeNull();
  },
};

/** No citations: nothing renders. */
export const Empty: Story = {
  args: { citations: [] },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-citations')).toBeNull();
  },
};

/**
 * A whole answer (`spec-web-search`) in an `AnswerScope`: numbered markers at the end of each
 * cited text, a card on focus, one sources list numbered the same way.
 */
export const AnswerWithMarkers: Story = {
  args: { citations: [] },
  loaders: [async () => ({ blocks: blocksOf(await finalState('spec-web-search')) })],
  render: (_args, { loaded }) => {
    const blocks = loaded.blocks as ReturnType<typeof blocksOf>;
    return (
      // The classes of a real answer: its blocks are spaced as in <ChatStream/>.
      <div className="ms-message ms-message--assistant" style={{ maxWidth: '42rem' }}>
        <AnswerScope blocks={blocks}>
          {blocks.map((block) => (
            <ContentBlockView key={block.index} block={block} />
          ))}
          <AnswerSources />
        </AnswerScope>
      </div>
    );
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getAllByText('Sources')).toHaveLength(1);
    const marker = canvas.getAllByRole('link', { name: 'Source 1' })[0] as HTMLElement;
    marker.focus();
    await waitFor(() => expect(canvas.getByRole('tooltip')).toBeVisible());
    await expect(canvas.getByRole('tooltip')).toHaveTextContent('AccuWeather');
    await userEvent.keyboard('{Escape}');
    await expect(canvasElement.querySelector('[role="tooltip"]:not([hidden])')).toBeNull();
  },
};
