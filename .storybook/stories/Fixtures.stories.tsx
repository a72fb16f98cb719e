import { fixtureNames, fixtures } from '@message-stream/mock';
import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import * as self from './Fixtures.stories.js';
import { fixtureStory } from './fixture-story.js';
import { SCROLLABLE_REGION_A11Y, watch } from './support.js';

/**
 * One story per recorded fixture of @message-stream/mock, in catalog order: a ChatStream whose
 * store sends `x-mock-scenario: <fixture>;speed=realistic`. Each plays by itself (it types the
 * fixture's prompt and presses Enter) and checks the chat against the fixture.
 */
const meta = {
  title: 'Fixtures',
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const toggle = (canvasElement: HTMLElement) =>
  canvasElement.querySelector<HTMLButtonElement>('button.ms-thinking__toggle');

/** Thinking streams open, collapses when the answer starts, and opens again by keyboard. */
const thinkingCollapses = ({ canvasElement }: StoryContext) => {
  const expanded = watch(
    canvasElement,
    () => toggle(canvasElement)?.getAttribute('aria-expanded') ?? 'none',
  );
  return async () => {
    expanded.stop();
    await expect(expanded.values).toContain('true');
    const button = toggle(canvasElement) as HTMLButtonElement;
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toHaveTextContent(/^Thought for \d+ s$/);
    button.focus();
    await userEvent.keyboard('{Enter}');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard(' ');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  };
};

/** The tool row's summary fills in while its input JSON streams, then the input is ready. */
const toolCardFills = ({ canvasElement }: StoryContext) => {
  const code = () => canvasElement.querySelector('.ms-tool__summary')?.textContent ?? '';
  const badge = () => canvasElement.querySelector('.ms-tool__badge')?.textContent ?? '';
  const inputs = watch(canvasElement, code);
  const badges = watch(canvasElement, badge);
  return async () => {
    inputs.stop();
    badges.stop();
    await expect(badges.values).toContain('Writing input…');
    await expect(badges.values.at(-1)).toBe('Not run');
    const partial = inputs.values.filter((text) => text !== '');
    const final = 'location: San Francisco, CA';
    await expect(partial.at(-1)).toBe(final);
    // Filled in while streaming: a shorter summary was shown before the whole one. (How many
    // depends on how the fragments fall into frames: at most one update per frame.)
    const before = partial.slice(0, -1);
    await expect(before.length).toBeGreaterThan(0);
    await expect(before.every((text) => text.length < final.length)).toBe(true);
  };
};

export const SpecBasicText: Story = fixtureStory('spec-basic-text');
// Slow: at a realistic pace the input's few fragments can all land in one frame of a loaded
// machine, and the card then never shows itself writing (it failed CI so once).
export const SpecToolUse: Story = fixtureStory('spec-tool-use', toolCardFills, 'slow');
export const SpecThinking: Story = fixtureStory('spec-thinking', thinkingCollapses);
export const SpecWebSearch: Story = fixtureStory('spec-web-search');
export const GatewayText: Story = fixtureStory('gateway-text');
export const GatewayToolUse: Story = fixtureStory('gateway-tool-use');
export const ReferenceExample: Story = fixtureStory('reference-example');
export const TextPings: Story = fixtureStory('text-pings');
// Its reasoning is three deltas: at the realistic pace it is open for some 60 ms, which a loaded
// machine can paint in one frame with the answer's start (CI saw it never open). Slow: ~400 ms.
export const RedactedThinking: Story = fixtureStory('redacted-thinking', thinkingCollapses, 'slow');
export const ParallelToolCalls: Story = fixtureStory('parallel-tool-calls');
export const ToolNoInput: Story = fixtureStory('tool-no-input');
export const McpToolUse: Story = fixtureStory('mcp-tool-use');
export const MaxTokens: Story = fixtureStory('max-tokens');
export const StopSequence: Story = fixtureStory('stop-sequence');
export const Refusal: Story = fixtureStory('refusal');
export const PauseTurn: Story = fixtureStory('pause-turn');
export const UnknownEvents: Story = fixtureStory('unknown-events');
export const NoEventLines: Story = fixtureStory('no-event-lines');
export const SecondMessageStart: Story = fixtureStory('second-message-start');
export const FallbackBlock: Story = fixtureStory('fallback-block');
export const InStreamError: Story = fixtureStory('in-stream-error');
export const TruncatedMidTool: Story = fixtureStory('truncated-mid-tool');
export const InvalidData: Story = fixtureStory('invalid-data');
export const LongMarkdown: Story = fixtureStory('long-markdown');
const largeToolInput = fixtureStory('large-tool-input');
/** 300 KB of input JSON: its box scrolls (see SCROLLABLE_REGION_A11Y). Fast under test. */
export const LargeToolInput: Story = {
  ...largeToolInput,
  parameters: { ...largeToolInput.parameters, a11y: SCROLLABLE_REGION_A11Y },
};

/** The catalog: every fixture, what it exercises, and (checked) that it has a story above. */
export const Catalog: Story = {
  render: () => (
    <table>
      <caption>Fixtures of @message-stream/mock</caption>
      <thead>
        <tr>
          <th scope="col">Fixture</th>
          <th scope="col">What it exercises</th>
        </tr>
      </thead>
      <tbody>
        {fixtures.map((fixture) => (
          <tr key={fixture.name}>
            <td>
              <code>{fixture.name}</code>
            </td>
            <td>{fixture.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  play: async ({ canvas }) => {
    const covered = Object.values(self)
      .map((story) => (story as Story).parameters?.fixture as string | undefined)
      .filter((name) => name !== undefined);
    await expect([...covered].sort()).toEqual([...fixtureNames].sort());
    await waitFor(() => expect(canvas.getAllByRole('row')).toHaveLength(fixtureNames.length + 1));
  },
};
