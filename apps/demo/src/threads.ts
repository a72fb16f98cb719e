/**
 * The demo's conversations: a thread store kept in this browser's IndexedDB (mock mode), so a reload
 * brings back every thread, its branches, attachments, pending approvals and an answer cut
 * off mid-stream (shown as interrupted, ready to resume). Made once, outside React: a
 * StrictMode double render would otherwise start two stores writing the same records.
 */
import type { PersistErrorInfo, StreamRecorder, ToolCall } from '@message-stream/react';
import { createThreadStore, type ThreadStore } from '@message-stream/react/threads';

/** Faults the mock can inject, by label: each one exercises a part of the kit. */
export const FAULTS = {
  none: '',
  // Early in the stream, so even a one-line answer (8 events, 1.1 KB) meets its fault.
  'Drop the connection after 5 events': 'drop-after-events:5',
  'Drop mid-line after 700 bytes': 'drop-after-bytes:700',
  'Overloaded error mid-stream': 'error-after-events:5',
  'Stall past the idle timeout': 'stall-after-events:4',
  'Network error before any response': 'network-error',
  '401 revoked key (gateway shape)': 'http:401',
  '402 no credit': 'http:402',
  '403 model not enabled': 'http:403',
  '429 rate limited (retry-after)': 'http:429',
  '529 overloaded': 'http:529',
} as const;

export type FaultLabel = keyof typeof FAULTS;

/** A number of its own per thread, in steps of 10,000 messages, for the mock's seed. */
const threadSeed = (threadId: string): number =>
  ([...threadId].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 100_000, 7) + 1) *
  10_000;
export type Speed = 'fast' | 'realistic' | 'slow';

export interface Scenario {
  fixture: string;
  fault: FaultLabel;
  speed: Speed;
}

/**
 * Where the demo keeps its conversations (IndexedDB records under this name), in mock mode.
 * Live mode keeps nothing: its page has no thread list to delete a saved conversation from,
 * and a recorded answer resumed against the real API would make no sense.
 */
export const PERSIST_NAME = 'message-stream-demo';

const TOOL_WEATHER: Record<string, string> = {
  get_weather: '18 °C, light wind, clear sky',
};

/** The mock's scenario header (the mock itself is loaded only in mock mode, by main.tsx). */
const SCENARIO_HEADER = 'x-mock-scenario';

/** The last failed save, for the page to show; the conversation in memory is kept either way. */
export interface SaveProblems {
  current(): string | null;
  subscribe(listener: () => void): () => void;
}

function saveProblems(): SaveProblems & { report(error: unknown, info: PersistErrorInfo): void } {
  let problem: string | null = null;
  const listeners = new Set<() => void>();
  return {
    current: () => problem,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    report(error, info) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      problem = `Could not ${info.operation === 'read' ? 'read back' : 'save'} the conversations in this browser (${reason}). They are kept on this page until it is closed.`;
      for (const listener of listeners) listener();
    },
  };
}

export interface DemoThreads {
  readonly threads: ThreadStore;
  readonly problems: SaveProblems;
}

/**
 * The thread store of the page, restored from IndexedDB, with one thread to start in when
 * nothing was saved. `scenario()` is read on every request (the picker may change between).
 */
export async function createDemoThreads({
  live,
  recorder,
  scenario,
}: {
  live: boolean;
  recorder: StreamRecorder;
  scenario: () => Scenario;
}): Promise<DemoThreads> {
  const problems = saveProblems();
  const threads: ThreadStore = createThreadStore({
    persist: live ? false : { name: PERSIST_NAME },
    onPersistError: problems.report,
    // Per thread: the seed counts the messages of the thread the request is for, which is
    // not the one shown when an answer streams on in a thread switched away from.
    chat: (threadId) => ({
      request: { model: live ? 'claude-sonnet-4-5' : 'claude-opus-5', max_tokens: 4096 },
      idleTimeoutMs: 8_000,
      retry: { retries: 0 },
      fetch: recorder.fetch,
      headers: (): Record<string, string> => {
        if (live) return {};
        const { fixture, fault, speed } = scenario();
        // `times=1`: the fault hits the first request of each message only (the seed names
        // the thread and counts its messages: the mock counts requests by scenario), so
        // Resume and Retry get a clean stream and the next message, in any thread, fails
        // again. Tool results and paused turns sent back get the mock's follow-up fixture.
        const turns = threads.getState().chatOf(threadId)?.getState().turns ?? [];
        const seed = turns.filter((turn) => turn.role === 'user').length + threadSeed(threadId);
        const faulty = FAULTS[fault] ? `;fault=${FAULTS[fault]};times=1` : '';
        return { [SCENARIO_HEADER]: `${fixture};speed=${speed};seed=${seed}${faulty}` };
      },
      // The weather tool asks before it runs: its card shows Approve / Deny with the input.
      tools: {
        get_weather: {
          run: async () => {
            await new Promise((resolve) => setTimeout(resolve, 600));
            return TOOL_WEATHER.get_weather;
          },
          needsApproval: true,
        },
      },
      onToolCall: async (call: ToolCall) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        return TOOL_WEATHER[call.name] ?? `No handler for ${call.name}; this is a demo result.`;
      },
    }),
  });
  // A thread started before the saved list is read would hide it: read first.
  await threads.restored;
  // The page always shows a saved conversation: deleting the last one starts a new one (a
  // chat outside the list would be neither saved nor listed).
  const ensureOne = () => {
    if (threads.getState().activeId === null) threads.getState().newThread();
  };
  ensureOne();
  threads.subscribe(ensureOne);
  return { threads, problems };
}
