/**
 * A story per recorded fixture: a ChatStream on the mock, the scenario header naming the
 * fixture, animated at a realistic pace, with a play function that sends the fixture's own
 * prompt and checks that what the chat shows is what the fixture streams.
 */
import { accumulate, type StreamState } from '@message-stream/core';
import {
  type FixtureName,
  fixtureRequest,
  getFixture,
  loadFixture,
  type Speed,
} from '@message-stream/mock';
import type { StoryContext, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import {
  ANNOUNCED,
  type ChatLoaded,
  chatFrame,
  chatLoader,
  chatParts,
  lastStream,
  renderChat,
  sendPrompt,
  stopChat,
  waitForEnd,
} from './chat.js';
import { answerText, blocksOf, blockText, deltaCount, plainProbe, watch } from './support.js';

/** Deltas above which a fixture is played fast under test (long-markdown, large-tool-input). */
const LONG = 300;

export interface FixtureLoaded extends ChatLoaded {
  readonly expected: StreamState;
  readonly deltas: number;
  readonly prompt: string;
}

/** The text the fixture's request ends with: what a person would have typed (first line). */
export function promptOf(name: FixtureName): string {
  const messages = getFixture(name).request.messages;
  const last = [...messages].reverse().find((message) => message.role === 'user');
  const content = last?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((block) =>
              (block as { type: string }).type === 'text' ? (block as { text: string }).text : '',
            )
            .join(' ')
        : '';
  const line = text.split('\n').find((l) => l.trim() !== '') ?? name;
  return line.length > 80 ? `${line.slice(0, 79).trimEnd()}…` : line;
}

/** userEvent.type reads `{` and `[` as key names: double them to type them. */
const typed = (text: string) => text.replace(/[{[]/g, (c) => c + c);

/** What the chat says when an answer ends as `state` did: the status, or the error notice. */
const ended = (state: StreamState): string =>
  state.status === 'complete'
    ? ANNOUNCED.complete
    : state.status === 'aborted'
      ? ANNOUNCED.aborted
      : (state.error?.description ?? '?');

export type ExtraPlay = (context: StoryContext, loaded: FixtureLoaded) => Promise<void>;

/**
 * The story for one fixture. `during` runs while the answer streams (set up watchers), and its
 * returned function after it ended (assert on what they saw).
 */
export function fixtureStory(
  name: FixtureName,
  during?: (context: StoryContext, loaded: FixtureLoaded) => () => Promise<void>,
  /** The pace under test, for a story that checks what shows between two deltas. */
  testSpeed?: Speed,
): StoryObj {
  const info = getFixture(name);
  return {
    name,
    parameters: {
      docs: { description: { story: info.description } },
      fixture: name,
      scenario: `${name};speed=realistic`,
      caption: info.description,
    },
    loaders: [
      async () => {
        const text = await loadFixture(name);
        const { messages: _messages, ...request } = fixtureRequest(name);
        const deltas = deltaCount(text);
        const chat = await chatLoader({
          scenario: name,
          testSpeed: testSpeed ?? (deltas > LONG ? 'fast' : 'realistic'),
          // One fixture, as recorded: a paused turn is shown paused, not continued.
          options: { request, continuePausedTurns: false },
        })();
        return { ...chat, expected: await accumulate(text), deltas, prompt: promptOf(name) };
      },
    ],
    beforeEach: stopChat,
    decorators: [chatFrame],
    render: renderChat,
    play: async (context) => {
      const loaded = context.loaded as FixtureLoaded;
      const { canvasElement } = context;
      const parts = chatParts(canvasElement);
      const lengths = watch(parts.log(), () => parts.answer()?.textContent?.length ?? 0);
      const after = during?.(context, loaded);

      await sendPrompt(canvasElement, typed(loaded.prompt));
      await expect(parts.log().querySelector('.ms-message--user')).toHaveTextContent(loaded.prompt);
      const said = await waitForEnd(canvasElement, loaded.deltas > LONG ? 120_000 : 30_000);
      lengths.stop();

      // The chat ended as the fixture does, with the fixture's text, and says so once.
      const stream = lastStream(loaded.store);
      const expected = loaded.expected;
      await expect(stream?.status).toBe(expected.status);
      await expect(stream?.message?.stop_reason ?? null).toBe(
        expected.message?.stop_reason ?? null,
      );
      await expect(answerText(stream)).toBe(answerText(expected));
      await expect(said).toContain(ended(expected));

      // Every text block shows on screen.
      const shown = (parts.answer()?.textContent ?? '').replace(/\s+/g, ' ');
      for (const block of blocksOf(expected)) {
        if (block.block.type !== 'text' || blockText(block).trim() === '') continue;
        await expect(shown).toContain(plainProbe(blockText(block)));
      }
      // Every tool call has its card.
      const calls = blocksOf(expected).filter((b) =>
        ['tool_use', 'mcp_tool_use'].includes(b.block.type),
      ).length;
      await expect(parts.answer()?.querySelectorAll('.ms-tool').length ?? 0).toBe(calls);
      if (expected.error) {
        await expect(parts.section().querySelector('[role="alert"]')).toHaveAttribute(
          'data-error-type',
          expected.error.type,
        );
      }

      // Animated: the answer grew in steps, not in one go.
      if (loaded.speed !== 'fast' && loaded.deltas >= 6) {
        const final = lengths.values.at(-1) ?? 0;
        await expect(lengths.values.some((length) => length > 0 && length < final)).toBe(true);
      }
      await after?.();
    },
  };
}
