import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { UsageBadge } from './kit.js';
import { finalState } from './support.js';

const meta = {
  title: 'Components/UsageBadge',
  component: UsageBadge,
} satisfies Meta<typeof UsageBadge>;
export default meta;
type Story = StoryObj<typeof meta>;

const badge = (canvasElement: HTMLElement) => canvasElement.querySelector('.ms-usage');

/** Input and output: always shown, short on screen, in words for screen readers. */
export const InputOutput: Story = {
  args: { usage: { input_tokens: 1234, output_tokens: 567 }, locale: 'en-US' },
  play: async ({ canvasElement }) => {
    const shown = [...(badge(canvasElement)?.querySelectorAll('[aria-hidden="true"]') ?? [])]
      .map((node) => node.textContent)
      .join('');
    await expect(shown).toBe('1,234 in · 567 out');
    await expect(badge(canvasElement)).toHaveTextContent('1,234 input tokens');
    await expect(badge(canvasElement)).toHaveTextContent('567 output tokens');
  },
};

/** With cache reads and writes (shown only when non-zero). */
export const WithCache: Story = {
  args: {
    usage: {
      input_tokens: 12,
      output_tokens: 340,
      cache_read_input_tokens: 20480,
      cache_creation_input_tokens: 0,
    },
    locale: 'en-US',
  },
  play: async ({ canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent('20,480 cached');
    await expect(badge(canvasElement)).not.toHaveTextContent('cache write');
  },
};

/** The final usage of the `gateway-text` fixture (nested cache_creation), in German. */
export const FromFixtureGermanLocale: Story = {
  args: { usage: null, locale: 'de-DE' },
  loaders: [async () => ({ usage: (await finalState('gateway-text')).message?.usage })],
  render: (args, { loaded }) => <UsageBadge usage={loaded.usage} locale={args.locale} />,
  play: async ({ canvasElement }) => {
    await expect(badge(canvasElement)).toHaveTextContent(/input tokens/);
  },
};

/** No usage: nothing renders. */
export const NoUsage: Story = {
  args: { usage: null },
  play: async ({ canvasElement }) => {
    await expect(badge(canvasElement)).toBeNull();
  },
};
