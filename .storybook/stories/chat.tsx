/**
 * Stories of a whole <ChatStream/> on the mock: the store sends the `x-mock-scenario` header
 * that the global MSW handlers (preview.tsx) answer from a fixture, with its faults and pace.
 * Each story builds its own store in a loader, so a play function can read the conversation
 * as well as the DOM, and stops it when the story goes away.
 */
import type { StreamState } from '@message-stream/core';
import type { Speed } from '@message-stream/mock';
import { SCENARIO_HEADER } from '@message-stream/mock';
import type { Decorator, StoryContext } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { type ChatStore, type ChatStoreOptions, ChatStream, createChatStore } from './kit.js';
import { IN_TEST } from './support.js';

export interface ChatLoaded {
  readonly store: ChatStore;
  /** The scenario header the store sends (without the per-render seed). */
  readonly scenario: string;
  readonly speed: Speed;
}

export interface ChatSetup {
  /** `<fixture>[;fault=…][;times=…]…`: everything but speed and seed. */
  readonly scenario: string;
  /** Pace in the Storybook UI. Default `realistic`. */
  readonly speed?: Speed;
  /** Pace when the story runs as a test. Default: `speed`. */
  readonly testSpeed?: Speed;
  /** More store options: request, idleTimeoutMs, retry, onToolCall, initialMessages, … */
  readonly options?: Partial<ChatStoreOptions>;
  /**
   * The scenario for requests after tool results (the first answer asked for tools): a
   * plain answer, so a tool round trip ends. Default: the same scenario.
   */
  readonly afterTools?: string;
  /** What the story shows, in a sentence, above the chat. */
  readonly caption?: string;
}

/**
 * Every render gets its own seed: the mock counts `times=1` faults per scenario string, so a
 * fresh string makes the fault hit the first request of this render again (and only that one).
 */
let renders = 0;

/** A loader creating the story's store. */
export function chatLoader(setup: ChatSetup | (() => Promise<ChatSetup>)) {
  return async (): Promise<ChatLoaded> => {
    const resolved = typeof setup === 'function' ? await setup() : setup;
    const speed = (IN_TEST ? resolved.testSpeed : undefined) ?? resolved.speed ?? 'realistic';
    const seed = ++renders;
    const header = (scenario: string) => `${scenario};speed=${speed};seed=${seed}`;
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 4096 },
      ...resolved.options,
      // Tool results sent back are answered by the mock's `then` fixture.
      headers: {
        [SCENARIO_HEADER]: header(
          resolved.afterTools === undefined
            ? resolved.scenario
            : `${resolved.scenario};then=${resolved.afterTools}`,
        ),
      },
    });
    return { store, scenario: resolved.scenario, speed };
  };
}

/** Stops whatever the story's store still streams when the story is left or the test ends. */
export const stopChat = ({ loaded }: StoryContext): (() => void) => {
  return () => (loaded as Partial<ChatLoaded>).store?.getState().reset();
};

/** Renders the loaded store in a ChatStream. */
export const renderChat = (_args: unknown, { loaded }: StoryContext) => (
  <ChatStream store={(loaded as ChatLoaded).store} />
);

/**
 * A chat-sized frame (the log scrolls and follows the answer, as in an app), under a line
 * naming the scenario (`parameters.scenario`) and saying what the story shows
 * (`parameters.caption`).
 */
export const chatFrame: Decorator = (Story, { parameters }) => (
  <div
    style={{
      maxWidth: '48rem',
      margin: '0 auto',
      display: 'flex',
      flexDirection: 'column',
      gap: '0.5rem',
    }}
  >
    {parameters.scenario || parameters.caption ? (
      <p style={{ margin: 0 }}>
        {parameters.scenario ? <code>{String(parameters.scenario)}</code> : null}
        {parameters.scenario && parameters.caption ? ': ' : null}
        {parameters.caption ? String(parameters.caption) : null}
      </p>
    ) : null}
    <div style={{ height: '32rem' }}>
      <Story />
    </div>
  </div>
);

// ---- play helpers ---------------------------------------------------------------------------

/** The parts of a rendered ChatStream a play function reads. */
export function chatParts(canvasElement: HTMLElement) {
  const section = () => {
    const element = canvasElement.querySelector<HTMLElement>('section.ms-chat');
    if (!element) throw new Error('No ChatStream rendered.');
    return element;
  };
  return {
    section,
    log: () => section().querySelector<HTMLElement>('[role="log"]') as HTMLElement,
    /** The polite region that announces the end of an answer (not the copy buttons' ones). */
    status: () => section().querySelector<HTMLElement>(':scope > [role="status"]') as HTMLElement,
    /** The last answer's article, if any. */
    answer: () => {
      const all = section().querySelectorAll<HTMLElement>('article.ms-message--assistant');
      return all[all.length - 1] ?? null;
    },
    field: () => section().querySelector<HTMLTextAreaElement>('textarea') as HTMLTextAreaElement,
  };
}

/**
 * What the status region says when an answer completes or is stopped. A failed or
 * interrupted answer is announced by its error notice (role="alert") instead, once.
 */
export const ANNOUNCED = {
  complete: 'Answer complete.',
  aborted: 'Answer stopped.',
} as const;

/** The error notice of the chat, if one is shown. */
const alertOf = (canvasElement: HTMLElement): HTMLElement | null =>
  chatParts(canvasElement).section().querySelector<HTMLElement>('[role="alert"]');

/**
 * Waits until the answer has ended and been announced (the status region, or the error
 * notice for a failure), and its text is all on the page (the answer shows itself finished:
 * a fast answer's last blocks are painted over a few frames after the stream ends), and
 * returns what was said.
 */
export async function waitForEnd(canvasElement: HTMLElement, timeout = 30_000): Promise<string> {
  const { status, log, answer } = chatParts(canvasElement);
  let said = '';
  await waitFor(
    () => {
      expect(log().getAttribute('aria-busy')).toBe('false');
      expect(['idle', 'streaming']).not.toContain(answer()?.dataset.status);
      said = status().textContent || alertOf(canvasElement)?.textContent || '';
      expect(said).not.toBe('');
    },
    { timeout, interval: 50 },
  );
  return said;
}

/** Waits until a failed or interrupted answer's error notice is shown, and returns it. */
export async function waitForAlert(
  canvasElement: HTMLElement,
  timeout = 30_000,
): Promise<HTMLElement> {
  const { log } = chatParts(canvasElement);
  let alert: HTMLElement | null = null;
  await waitFor(
    () => {
      expect(log().getAttribute('aria-busy')).toBe('false');
      alert = alertOf(canvasElement);
      expect(alert).not.toBeNull();
    },
    { timeout, interval: 50 },
  );
  return alert as unknown as HTMLElement;
}

/** The last answer's stream in the store. */
export function lastStream(store: ChatStore): StreamState | null {
  const turns = store.getState().turns;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn?.role === 'assistant') return turn.stream;
  }
  return null;
}

/** Types a prompt into the Message field and presses Enter, as a person sends it. */
export async function sendPrompt(canvasElement: HTMLElement, prompt: string): Promise<void> {
  const field = chatParts(canvasElement).field();
  await userEvent.click(field);
  await userEvent.type(field, prompt);
  await userEvent.keyboard('{Enter}');
}

/** Waits until the status region says `text` (an answer ended that way). */
export async function waitForAnnouncement(
  canvasElement: HTMLElement,
  text: string,
  timeout = 30_000,
): Promise<void> {
  const { status } = chatParts(canvasElement);
  await waitFor(() => expect(status().textContent ?? '').toContain(text), {
    timeout,
    interval: 50,
  });
}

/** How many times `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) count++;
  return count;
}
