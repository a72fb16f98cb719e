import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import {
  ANNOUNCED,
  type ChatLoaded,
  type ChatSetup,
  chatFrame,
  chatLoader,
  chatParts,
  lastStream,
  occurrences,
  renderChat,
  sendPrompt,
  stopChat,
  waitForAlert,
  waitForAnnouncement,
} from './chat.js';
import { answerText, finalState, plainProbe } from './support.js';

/**
 * The failures real connections have, injected by the mock (`;fault=…` in the scenario), each
 * in a ChatStream that plays by itself: what the reader sees, and how Resume or Retry recovers.
 */
const meta = {
  title: 'Faults',
  beforeEach: stopChat,
  render: renderChat,
  decorators: [chatFrame],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const LET_CONST = "What's the difference between let and const in JavaScript?";

/** A story on one scenario; HTTP failures are shown as they are (no automatic retry). */
const faulty = (setup: ChatSetup, play: Story['play']): Story => ({
  parameters: { scenario: `${setup.scenario};speed=realistic`, caption: setup.caption },
  loaders: [chatLoader(setup)],
  play,
});

const storeOf = (loaded: Record<string, unknown>) => (loaded as unknown as ChatLoaded).store;

/**
 * Checks the interrupted answer, presses Resume, and checks that the resumed answer is the
 * uninterrupted fixture's text exactly: nothing lost, nothing repeated.
 */
async function resumeFinishes(
  canvasElement: HTMLElement,
  loaded: Record<string, unknown>,
  fixture: string,
): Promise<void> {
  const store = storeOf(loaded);
  const parts = chatParts(canvasElement);
  const full = answerText(await finalState(fixture));
  const partial = answerText(lastStream(store));
  await expect(partial.length).toBeGreaterThan(0);
  await expect(partial.length).toBeLessThan(full.length);
  await expect(full.startsWith(partial)).toBe(true);
  // What arrived stays on screen.
  await expect(parts.answer()).toHaveTextContent(plainProbe(partial));

  await userEvent.click(parts.section().querySelector('.ms-resume__button--resume') as HTMLElement);
  await waitForAnnouncement(canvasElement, ANNOUNCED.complete);
  await expect(lastStream(store)?.status).toBe('complete');
  await expect(answerText(lastStream(store))).toBe(full);
  // Still one answer, and its end shows once.
  await expect(parts.log().querySelectorAll('.ms-message--assistant')).toHaveLength(1);
  const probe = plainProbe(full);
  await expect(occurrences(parts.answer()?.textContent ?? '', probe)).toBe(1);
  await expect(parts.section().querySelector('[role="alert"]')).toBeNull();
}

/** The connection drops after 9 events (5 text deltas): Resume finishes the answer. */
export const DropThenResume: Story = faulty(
  {
    scenario: 'text-pings;fault=drop-after-events:9;times=1',
    caption: 'The connection drops mid-answer. Resume finishes it.',
  },
  async ({ canvasElement, loaded }) => {
    await sendPrompt(canvasElement, LET_CONST);
    await waitForAlert(canvasElement);
    const parts = chatParts(canvasElement);
    // Said once: the notice says what happened, the controls beside it only act.
    await expect(parts.section().querySelectorAll('[role="alert"]')).toHaveLength(1);
    await expect(parts.section().querySelector('.ms-resume')).toHaveAccessibleName(
      'Recover the answer',
    );
    await expect(parts.section().querySelector('.ms-resume__button--retry')).toBeNull();
    await resumeFinishes(canvasElement, loaded, 'text-pings');
  },
);

/** The proxy closes the body cleanly mid-line (after 1,200 bytes): interrupted, then resumed. */
export const CloseMidLineThenResume: Story = faulty(
  {
    scenario: 'text-pings;fault=close-after-bytes:1200;times=1',
    caption: 'A proxy closes the body cleanly, mid-line. Resume finishes it.',
  },
  async ({ canvasElement, loaded }) => {
    await sendPrompt(canvasElement, LET_CONST);
    await waitForAlert(canvasElement);
    await resumeFinishes(canvasElement, loaded, 'text-pings');
  },
);

/** An `overloaded_error` event mid-answer: the error is said, and Resume finishes the answer. */
export const InStreamError: Story = faulty(
  {
    scenario: 'text-pings;fault=error-after-events:9;times=1',
    caption: 'The API sends an overloaded error mid-answer. Resume finishes it.',
  },
  async ({ canvas, canvasElement, loaded }) => {
    await sendPrompt(canvasElement, LET_CONST);
    await waitForAlert(canvasElement);
    const alert = canvas.getByRole('alert');
    await expect(alert).toHaveAttribute('data-error-type', 'overloaded_error');
    await expect(alert).toHaveTextContent(
      'The service is overloaded right now. Try again in a moment.',
    );
    await expect(alert).toHaveTextContent(/Request id: req_/);
    await resumeFinishes(canvasElement, loaded, 'text-pings');
  },
);

/** The stream goes silent for longer than the store's idle timeout (1.5 s): Resume continues. */
export const StallPastIdleTimeout: Story = faulty(
  {
    scenario: 'text-pings;fault=stall-after-events:9;times=1',
    options: { idleTimeoutMs: 1500 },
    caption: 'The stream goes silent past the 1.5 s idle timeout. Resume finishes it.',
  },
  async ({ canvas, canvasElement, loaded }) => {
    await sendPrompt(canvasElement, LET_CONST);
    await waitForAlert(canvasElement, 15_000);
    const alert = canvas.getByRole('alert');
    await expect(alert).toHaveAttribute('data-error-type', 'idle_timeout');
    await expect(alert).toHaveTextContent(
      'The answer stalled: no data arrived for too long. Resume to continue it.',
    );
    await resumeFinishes(canvasElement, loaded, 'text-pings');
  },
);

/**
 * An HTTP failure before any answer: the alert says `description`; a failure that trying again
 * can fix offers Retry (the fault hits the first request only, so Retry gets the answer), one
 * that cannot (a key, a quota, a permission) offers nothing.
 */
/**
 * A request that failed with an HTTP error, said by the notice, and Retry: once the cause is
 * dealt with (the fault here happens once), it answers. An error that trying again cannot fix
 * by itself (a key, credit, a permission) offers Retry too, for when the user has fixed it.
 */
const httpFailure = (fault: string, description: string): Story =>
  faulty(
    {
      scenario: `spec-basic-text;fault=${fault};times=1`,
      options: { retry: false },
      caption: description,
    },
    async ({ canvasElement, loaded }) => {
      const parts = chatParts(canvasElement);
      await sendPrompt(canvasElement, 'Hello');
      await expect(await waitForAlert(canvasElement)).toHaveTextContent(description);
      // Said once, by the notice: the status region stays quiet for a failure.
      await expect(parts.status()).toHaveTextContent('');
      await expect(lastStream(storeOf(loaded))?.status).toBe('error');
      const retry = parts.section().querySelector('.ms-resume__button--retry');
      await userEvent.click(retry as HTMLElement);
      await waitForAnnouncement(canvasElement, ANNOUNCED.complete);
      await waitFor(() => expect(parts.answer()).toHaveTextContent('Hello!'));
      await expect(parts.section().querySelector('[role="alert"]')).toBeNull();
    },
  );

/** 401 from the gateway: the key was revoked. Retry, for once the key is fixed. */
export const Http401Revoked: Story = httpFailure(
  'http:token-revoked',
  'The API key has been revoked or does not exist. Use a valid key.',
);

/** 402: no credit left. */
export const Http402NoCredit: Story = httpFailure(
  'http:insufficient-quota',
  'The account has no credit left. Add credit or raise the quota, then try again.',
);

/** 403: the key may not use this model. */
export const Http403Permission: Story = httpFailure(
  'http:permission',
  'This key may not use the requested model: it is not enabled for the project, or does not exist.',
);

/**
 * 429 with `retry-after`: nothing arrived, so Retry (not Resume), with the wait counting down
 * beside it; it retries by itself when the wait ends, and "Retry now" does not wait.
 */
export const Http429RateLimited: Story = httpFailure(
  'http:rate-limit;retry-after-ms=30000',
  'Too many requests: the service asked to wait before trying again.',
);

/** 529: overloaded; Retry succeeds. */
export const Http529Overloaded: Story = httpFailure(
  'http:overloaded',
  'The service is overloaded right now. Try again in a moment.',
);

/** No response at all (the connection failed): Retry succeeds. */
export const NetworkError: Story = httpFailure(
  'network-error',
  // Nothing arrived, so Retry is offered: the notice says "try again", not "resume".
  'The network connection failed before the answer started. Check your connection, then try again.',
);
