import { createMockHandlers } from '@message-stream/mock';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
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
  waitForAnnouncement,
} from './chat.js';
import { ChatStream } from './kit.js';
import { answerText, finalState, sleep, watch } from './support.js';

/** The drop-in chat: log, composer with Stop, resume controls, errors and usage. */
const meta = {
  title: 'Chat/ChatStream',
  component: ChatStream,
  decorators: [chatFrame],
} satisfies Meta<typeof ChatStream>;
export default meta;
type Story = StoryObj<typeof meta>;

const storeOf = (loaded: Record<string, unknown>) => (loaded as unknown as ChatLoaded).store;

/** Nothing sent yet: a welcome line, and a composer that has focus and waits for text. */
export const Empty: Story = {
  parameters: { caption: 'A new conversation.' },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('region', { name: 'Conversation' })).toBeVisible();
    await expect(chatParts(canvasElement).log().querySelectorAll('article')).toHaveLength(0);
    await expect(canvas.getByRole('heading', { name: 'How can I help?' })).toBeVisible();
    await expect(canvas.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    await expect(canvas.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
  },
};

/** Suggestion chips in the empty state: a click sends the prompt. */
export const WithSuggestions: Story = {
  parameters: { caption: 'An empty conversation with suggestions; one is picked.' },
  loaders: [chatLoader({ scenario: 'spec-basic-text', testSpeed: 'fast' })],
  beforeEach: stopChat,
  render: (_args, { loaded }) => (
    <ChatStream
      store={storeOf(loaded)}
      welcome="What shall we try?"
      welcomeDescription="Pick one to start."
      suggestions={['Say hello', 'Explain streaming']}
    />
  ),
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Say hello' }));
    await waitForAnnouncement(canvasElement, ANNOUNCED.complete);
    await expect(chatParts(canvasElement).answer()).toHaveTextContent('Hello!');
    await expect(canvas.queryByRole('heading', { name: 'What shall we try?' })).toBeNull();
  },
};

/** An answer cut off by `max_tokens`: the notice says so, and Continue asks for more in place. */
export const MaxTokensContinue: Story = {
  parameters: {
    scenario: 'max-tokens',
    caption: 'The answer reached the length limit; Continue continues the same answer.',
  },
  loaders: [chatLoader({ scenario: 'max-tokens', testSpeed: 'fast' })],
  beforeEach: stopChat,
  render: renderChat,
  play: async ({ canvas, canvasElement, loaded }) => {
    await sendPrompt(canvasElement, 'Tell me about the French Revolution');
    await waitForAnnouncement(canvasElement, ANNOUNCED.complete);
    await expect(canvas.getByText('The answer reached the length limit.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Continue' }));
    await expect(canvas.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    await waitFor(() => expect(lastStream(storeOf(loaded))?.attempts?.length).toBe(2), {
      timeout: 15_000,
    });
    await expect(
      chatParts(canvasElement).log().querySelectorAll('.ms-message--assistant'),
    ).toHaveLength(1);
  },
};

const HISTORY = [
  { role: 'user' as const, content: 'How do I stream a Messages response in the browser?' },
  {
    role: 'assistant' as const,
    content:
      'Send the request with `stream: true` and read the body as **server-sent events**:\n\n1. `message_start` opens the message\n2. `content_block_delta` events add text\n3. `message_stop` ends it\n\n```ts\nconst state = await streamMessage(request);\n```',
  },
  { role: 'user' as const, content: 'And if the connection drops?' },
  {
    role: 'assistant' as const,
    content: 'Keep what arrived and **resume**: the kit sends a continuation and merges it.',
  },
];

/** A conversation given as history (`initialMessages`): nothing is fetched. */
export const Conversation: Story = {
  parameters: { caption: 'Two questions and their answers, restored from history.' },
  loaders: [chatLoader({ scenario: 'spec-basic-text', options: { initialMessages: HISTORY } })],
  beforeEach: stopChat,
  render: renderChat,
  play: async ({ canvas }) => {
    await expect(canvas.getAllByRole('article', { name: 'You said' })).toHaveLength(2);
    const answers = canvas.getAllByRole('article', { name: 'Assistant' });
    await expect(answers).toHaveLength(2);
    await expect(canvas.getByText('server-sent events').tagName).toBe('STRONG');
    await expect(canvas.getByText('const state = await streamMessage(request);')).toBeVisible();
  },
};

/** The same conversation in the dark theme. */
export const ConversationDark: Story = {
  ...Conversation,
  globals: { theme: 'dark' },
};

/** A long answer at a realistic pace: Stop ends it and keeps what arrived, ready to resume. */
export const StopKeepsPartialAnswer: Story = {
  parameters: {
    scenario: 'long-markdown;speed=realistic',
    caption: 'A long answer, stopped by the reader after a few lines.',
  },
  loaders: [chatLoader({ scenario: 'long-markdown' })],
  beforeEach: stopChat,
  render: renderChat,
  play: async ({ canvas, canvasElement, loaded }) => {
    const parts = chatParts(canvasElement);
    await sendPrompt(canvasElement, 'Write a thorough guide to building a streaming chat UI');
    await waitFor(() => expect(parts.log()).toHaveAttribute('aria-busy', 'true'));
    await waitFor(() => expect(parts.answer()?.textContent?.length ?? 0).toBeGreaterThan(200), {
      timeout: 15_000,
    });
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await waitForAnnouncement(canvasElement, ANNOUNCED.aborted);

    const store = storeOf(loaded);
    const kept = answerText(lastStream(store));
    const full = answerText(await finalState('long-markdown'));
    await expect(lastStream(store)?.status).toBe('aborted');
    await expect(kept.length).toBeGreaterThan(100);
    await expect(kept.length).toBeLessThan(full.length);
    await expect(full.startsWith(kept)).toBe(true);
    // Nothing more arrives, and what arrived stays on screen.
    const shown = parts.answer()?.textContent ?? '';
    await sleep(400);
    await expect(parts.answer()?.textContent).toBe(shown);
    // A lasting "Stopped" mark, and Resume to continue from what arrived.
    await expect(parts.answer()?.querySelector('.ms-stop--aborted')).toHaveTextContent('Stopped');
    await expect(canvas.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  },
};

/** The reader scrolls up while the answer streams: the log lets go, "Jump to latest" brings it back. */
export const ScrollUpThenJumpToLatest: Story = {
  parameters: {
    scenario: 'long-markdown;speed=realistic',
    caption: 'The log follows the answer until the reader scrolls up.',
  },
  loaders: [chatLoader({ scenario: 'long-markdown' })],
  beforeEach: stopChat,
  render: renderChat,
  play: async ({ canvas, canvasElement }) => {
    const parts = chatParts(canvasElement);
    const log = parts.log();
    await sendPrompt(canvasElement, 'Write a thorough guide to building a streaming chat UI');
    // Following: the log keeps its newest line in view while it grows past its height.
    await waitFor(() => expect(log.scrollHeight).toBeGreaterThan(log.clientHeight + 200), {
      timeout: 20_000,
    });
    await expect(log.scrollHeight - log.clientHeight - log.scrollTop).toBeLessThan(30);
    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    const jump = await canvas.findByRole('button', { name: 'Jump to latest' });
    await sleep(300);
    await expect(log.scrollTop).toBeLessThan(50);
    await userEvent.click(jump);
    await waitFor(() =>
      expect(canvas.queryByRole('button', { name: 'Jump to latest' })).toBeNull(),
    );
    await waitFor(() =>
      expect(log.scrollHeight - log.clientHeight - log.scrollTop).toBeLessThan(30),
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await waitForAnnouncement(canvasElement, ANNOUNCED.aborted);
  },
};

/** What the mock answers after the weather tool's result: a short text answer. */
const WEATHER_ANSWER = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_01WeatherAnswer","type":"message","role":"assistant","content":[],"model":"claude-opus-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":512,"output_tokens":1}}}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  '',
  ...[
    'It is ',
    '**18 °C**',
    ' in San Francisco',
    ', with a light wind',
    ' and a clear sky.',
  ].flatMap((text) => [
    'event: content_block_delta',
    `data: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}`,
    '',
  ]),
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":0}',
  '',
  'event: message_delta',
  'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":18}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
  '',
].join('\n');

/**
 * A client tool round trip: the model asks for get_weather (`spec-tool-use`), the app runs it
 * (`onToolCall`, 800 ms), the card shows Running… then the result, and the answer continues.
 */
export const ToolRoundTrip: Story = {
  parameters: {
    scenario: 'spec-tool-use;speed=realistic',
    caption: 'The app runs the tool the model asked for; the answer continues with its result.',
    // This story's own fixture for the answer after the tool result, before the global handlers.
    msw: createMockHandlers({ fixtures: { 'weather-answer': WEATHER_ANSWER } }),
  },
  loaders: [
    chatLoader({
      scenario: 'spec-tool-use',
      afterTools: 'weather-answer',
      // Slow under test: it checks that the card showed itself writing its input, whose few
      // fragments can all land in one frame at a realistic pace on a loaded machine.
      testSpeed: 'slow',
      options: {
        onToolCall: async () => {
          await sleep(800);
          return '18 °C, light wind, clear sky';
        },
      },
    }),
  ],
  beforeEach: stopChat,
  render: renderChat,
  play: async ({ canvasElement, loaded }) => {
    const parts = chatParts(canvasElement);
    const badge = () => parts.section().querySelector('.ms-tool__badge')?.textContent ?? '';
    const badges = watch(parts.log(), badge);
    await sendPrompt(canvasElement, 'What is the weather like in San Francisco?');
    await waitFor(
      () =>
        expect(parts.log()).toHaveTextContent(
          'It is 18 °C in San Francisco, with a light wind and a clear sky.',
        ),
      { timeout: 15_000 },
    );
    await waitForAnnouncement(canvasElement, ANNOUNCED.complete);
    badges.stop();
    await expect(badges.values).toEqual(
      expect.arrayContaining(['Writing input…', 'Running…', 'Done']),
    );
    // The call is a compact row; opening it shows the result.
    await userEvent.click(within(parts.section()).getByRole('button', { name: /get_weather/ }));
    await expect(parts.section().querySelector('.ms-tool__result-body')).toHaveTextContent(
      '18 °C, light wind, clear sky',
    );
    // The tool results travel as a user turn, but the log does not show it as one.
    await expect(parts.log().querySelectorAll('.ms-message--user')).toHaveLength(1);
    await expect(parts.log().querySelectorAll('.ms-message--assistant')).toHaveLength(2);
    const turns = storeOf(loaded)
      .getState()
      .turns.map((turn) => turn.role);
    await expect(turns).toEqual(['user', 'assistant', 'user', 'assistant']);
    // The call and the text after its result are one answer: one action row, whose usage is
    // both requests' tokens added up (472 + 512 in).
    await expect(
      parts.log().querySelectorAll('.ms-message--assistant .ms-message__footer'),
    ).toHaveLength(1);
    await expect(parts.section().querySelector('.ms-usage')).toHaveTextContent('984 in');
  },
};

/** `textMode="plain"`: answers shown exactly as written, for content that is not markdown. */
export const PlainTextMode: Story = {
  parameters: { caption: 'The same history, as plain text.' },
  loaders: [chatLoader({ scenario: 'spec-basic-text', options: { initialMessages: HISTORY } })],
  beforeEach: stopChat,
  render: (_args, { loaded }) => (
    <ChatStream store={storeOf(loaded)} textMode="plain" label="Plain conversation" />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Plain conversation' })).toBeVisible();
    await expect(canvas.getByText(/Keep what arrived and \*\*resume\*\*/)).toBeVisible();
  },
};
