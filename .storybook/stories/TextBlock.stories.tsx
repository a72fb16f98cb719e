import type { BlockState, Citation } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { TextBlockView } from './kit.js';
import { Replay } from './replay.js';
import {
  blockOfType,
  blocksOf,
  blockText,
  finalState,
  plainProbe,
  statesOf,
  watch,
} from './support.js';

const meta = {
  title: 'Components/TextBlockView',
  component: TextBlockView,
} satisfies Meta<typeof TextBlockView>;
export default meta;
type Story = StoryObj<typeof meta>;

const MARKDOWN = [
  '## Streaming UI',
  '',
  'Answers arrive **token by token**, with *emphasis*, ~~mistakes~~ and `inline code`.',
  '',
  '1. Decode the event stream',
  '2. Reduce each event',
  '   - text deltas',
  '   - tool input',
  '',
  '| Event | Meaning |',
  '| --- | --- |',
  '| `message_start` | A new message |',
  '| `content_block_delta` | More content |',
  '',
  '```ts',
  'const state = await accumulate(body);',
  '```',
  '',
  'Read the [streaming guide](https://docs.anthropic.com/en/docs/build-with-claude/streaming),',
  'write to [support](mailto:support@example.com), but never [click this](javascript:alert(1)).',
  '',
  '> Quoted: nothing is parsed twice.',
  '',
  '- [x] Render markdown safely',
  '- [ ] Ship it',
].join('\n');

/** GitHub-flavoured markdown: headings, lists, a table, code, links, a quote, task boxes. */
export const Markdown: Story = {
  args: { text: MARKDOWN },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 2, name: 'Streaming UI' })).toBeVisible();
    await expect(canvas.getByText('token by token').tagName).toBe('STRONG');
    await expect(canvas.getByText('Reduce each event')).toBeVisible();
    const table = canvas.getByRole('table');
    await expect(within(table).getByRole('columnheader', { name: 'Event' })).toBeVisible();
    await expect(within(table).getAllByRole('row')).toHaveLength(3);
    await expect(canvas.getByText('const state = await accumulate(body);')).toBeVisible();
    const guide = canvas.getByRole('link', { name: 'streaming guide' });
    await expect(guide).toHaveAttribute('target', '_blank');
    await expect(guide).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(canvas.getByRole('link', { name: 'support' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    );
    // A javascript: URL never becomes a link: its text stays, as text.
    await expect(canvas.queryByRole('link', { name: 'click this' })).toBeNull();
    await expect(canvas.getByText('click this')).toBeVisible();
    await expect(canvas.getByRole('checkbox', { name: 'Done' })).toBeChecked();
    await expect(canvas.getByRole('checkbox', { name: 'Not done' })).not.toBeChecked();
  },
};

/** Streaming, the text ends inside a code fence: the fence is closed for display. */
export const StreamingOpenFence: Story = {
  args: {
    text: 'Here is the code:\n\n```ts\nconst answer = 42;\nconsole.log(ans',
    streaming: true,
  },
  play: async ({ canvasElement }) => {
    const code = canvasElement.querySelector('pre code');
    await expect(code).toHaveTextContent('console.log(ans');
    await expect(canvasElement.textContent).not.toContain('```');
    await expect(canvasElement.querySelector('.ms-text')).toHaveAttribute('aria-busy', 'true');
  },
};

/** Streaming, the text ends in an opening `**`: the marker waits for its text. */
export const StreamingDanglingBold: Story = {
  args: { text: 'The short answer is **', streaming: true },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-markdown')).toHaveTextContent(
      'The short answer is',
    );
    await expect(canvasElement.textContent).not.toContain('*');
  },
};

/** Streaming, the text ends inside a link: its label shows, as text, until the URL is whole. */
export const StreamingHalfLink: Story = {
  args: {
    text: 'See [the streaming guide](https://docs.anthropic.com/en/docs/bui',
    streaming: true,
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('See the streaming guide')).toBeVisible();
    await expect(canvas.queryByRole('link')).toBeNull();
    await expect(canvasElement.textContent).not.toMatch(/[[\]()]/);
  },
};

/** The same link once it is whole. */
export const CompletedLink: Story = {
  args: {
    text: 'See [the streaming guide](https://docs.anthropic.com/en/docs/build-with-claude/streaming).',
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('link', { name: 'the streaming guide' })).toBeVisible();
  },
};

/** `mode="plain"`: the text exactly as written; markdown and HTML stay characters. */
export const Plain: Story = {
  args: {
    mode: 'plain',
    text: 'Not markdown: **stars**, # hash, <b>tags</b> and [brackets](https://example.com).',
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(
      canvas.getByText(
        'Not markdown: **stars**, # hash, <b>tags</b> and [brackets](https://example.com).',
      ),
    ).toBeVisible();
    await expect(canvasElement.querySelector('b, strong, a, h1')).toBeNull();
  },
};

/** A text block citing web search results: the sources are listed under it. */
export const WithCitations: Story = {
  args: { text: '' },
  loaders: [
    async () => {
      const state = await finalState('spec-web-search');
      const block = blocksOf(state).find(
        (b) =>
          b.block.type === 'text' &&
          Array.isArray((b.block as { citations?: unknown }).citations) &&
          ((b.block as { citations: unknown[] }).citations.length ?? 0) > 0,
      );
      if (!block) throw new Error('spec-web-search has no cited text');
      return { block };
    },
  ],
  render: (_args, { loaded }) => (
    <TextBlockView
      text={blockText(loaded.block)}
      citations={(loaded.block.block as { citations: Citation[] }).citations}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Sources')).toBeVisible();
    await expect(
      canvas.getByRole('link', { name: 'New York, NY Weather Forecast | AccuWeather' }),
    ).toHaveAttribute(
      'href',
      'https://www.accuweather.com/en/us/new-york/10021/weather-forecast/349727',
    );
  },
};

/** A markdown answer streaming in, state by state (the `text-pings` fixture, replayed). */
export const StreamingReplay: Story = {
  args: { text: '' },
  loaders: [
    async () => {
      const states = await statesOf('text-pings');
      const steps = states
        .map((state) => blocksOf(state).find((b) => b.block.type === 'text'))
        .filter((b) => b !== undefined);
      return { steps };
    },
  ],
  render: (_args, { loaded }) => (
    <Replay steps={loaded.steps as BlockState[]} intervalMs={60}>
      {(block) => (
        <TextBlockView text={blockText(block)} streaming={block.status === 'streaming'} />
      )}
    </Replay>
  ),
  play: async ({ canvasElement, loaded }) => {
    const final = loaded.steps.at(-1);
    const seen = watch(canvasElement, () => canvasElement.textContent?.length ?? 0);
    await waitFor(() => expect(canvasElement.querySelector('[aria-busy]')).toBeNull(), {
      timeout: 10_000,
    });
    seen.stop();
    await expect(canvasElement.textContent).toContain(plainProbe(blockText(final)));
    const last = seen.values.at(-1) ?? 0;
    await expect(seen.values.some((length) => length > 0 && length < last)).toBe(true);
  },
};

/** A long answer (the `long-markdown` fixture, about 40 KB): every kind of block, finished. */
export const LongAnswer: Story = {
  args: { text: '' },
  loaders: [
    async () => {
      const state = await finalState('long-markdown');
      return { text: blockText(blockOfType(state, 'text')) };
    },
  ],
  render: (_args, { loaded }) => <TextBlockView text={loaded.text} />,
  play: async ({ canvas, loaded }) => {
    await expect(
      canvas.getByRole('heading', {
        level: 1,
        name: 'Building a Streaming Chat UI for Language Model Responses',
      }),
    ).toBeVisible();
    await expect(canvas.getAllByRole('table').length).toBeGreaterThan(0);
    await expect(canvas.getByText(plainProbe(loaded.text), { exact: false })).toBeVisible();
  },
};

/** Math, opted in: inline `$…$` and a display `$$…$$` block, typeset by KaTeX. */
export const WithMath: Story = {
  args: {
    math: true,
    text: 'The roots of $ax^2 + bx + c = 0$ are\n\n$$\nx = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\n$$\n\nfor $a \\neq 0$.',
  },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('.katex')).toHaveLength(3), {
      timeout: 10_000,
    });
    await expect(canvasElement.querySelector('.katex-display')).toBeVisible();
  },
};

/** Math still streaming: the open `$$` block is text until it closes. */
export const MathStreamingOpen: Story = {
  args: { math: true, streaming: true, text: 'The area is\n\n$$\n\\pi r^' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ms-markdown')).toHaveTextContent('$$');
    await expect(canvasElement.querySelector('.katex-display')).toBeNull();
  },
};

/** Code blocks in an answer: highlighted, with Copy and Download. */
export const CodeBlocks: Story = {
  args: {
    codeDownload: true,
    text: 'In Python:\n\n```python\ndef greet(name: str) -> str:\n    return f"Hello, {name}!"\n```\n\nAnd in a shell:\n\n```bash\npnpm add @message-stream/react\n```',
  },
  play: async ({ canvas, canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelectorAll('.ms-code--highlighted')).toHaveLength(2),
      { timeout: 10_000 },
    );
    await expect(canvas.getByRole('button', { name: 'Download code.py' })).toBeVisible();
  },
};
