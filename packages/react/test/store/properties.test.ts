/**
 * Random conversations against the mock: send / stop / resume / retry / edit / regenerate /
 * selectBranch / approve / deny / addToolResult / reload, in any order and overlapping
 * (each action gets a moment, not its end, before the next). Every request the store sends
 * must pass the Messages-contract checker, and no turn may be lost, reloads included. Half
 * the runs keep the conversation in IndexedDB (the default, one record per turn, written
 * as a diff: fake-indexeddb here), half in a string storage (the whole tree per write).
 */
import 'fake-indexeddb/auto';
import { validateMessages } from '@message-stream/core';
import { createMockFetch, fixtureNames } from '@message-stream/mock';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChatStore, createChatStore } from '../../src/index.js';
import { clientToolCalls } from '../../src/store/conversation.js';
import { activePath } from '../../src/store/tree.js';
import type { AssistantTurn } from '../../src/store/types.js';
import { fixture, mapStorage } from './support.js';

const SCENARIOS = [
  'spec-basic-text',
  'spec-tool-use',
  'parallel-tool-calls',
  'spec-thinking',
  'max-tokens',
  'pause-turn',
  'tool-no-input',
  'text-pings;fault=drop-after-events:6;times=1',
  'spec-thinking;fault=drop-after-events:9;times=1',
  'spec-thinking;fault=drop-after-events:4;times=1',
  'spec-tool-use;fault=drop-after-events:8;times=1',
  'parallel-tool-calls;fault=error-after-events:5;times=1',
  'text-pings;fault=stall-after-events:4;times=1',
  'spec-basic-text;fault=http:overloaded;times=1',
] as const;

type Command =
  | { kind: 'send'; scenario: number; wait: boolean }
  | { kind: 'stop' | 'resume' | 'retry' | 'continue' | 'reload' }
  | {
      kind: 'edit' | 'regenerate' | 'select' | 'approve' | 'deny' | 'result';
      pick: number;
      n: number;
    };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      scenario: fc.nat(SCENARIOS.length - 1),
      // Mostly to its end; sometimes only a moment, so the next action overlaps it.
      wait: fc.boolean(),
    }),
  },
  fc.constantFrom<Command>(
    { kind: 'stop' },
    { kind: 'resume' },
    { kind: 'retry' },
    { kind: 'continue' },
    { kind: 'reload' },
  ),
  fc.record({
    kind: fc.constantFrom(
      'edit' as const,
      'regenerate' as const,
      'select' as const,
      'approve' as const,
      'deny' as const,
      'result' as const,
    ),
    pick: fc.nat(50),
    n: fc.nat(3),
  }),
);

/** The shipped fixtures, read from disk (the mock fetches them by URL in a browser). */
const FIXTURES = Object.fromEntries(fixtureNames.map((name) => [name, fixture(name)]));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pendingCalls(store: ChatStore, status: 'awaiting-approval' | null): string[] {
  const last = store.getState().turns.at(-1);
  if (last?.role !== 'assistant') return [];
  return clientToolCalls(last)
    .map((call) => call.id)
    .filter((id) =>
      status === null
        ? last.toolResults[id] === undefined
        : last.toolResults[id]?.status === status,
    );
}

let runs = 0;

describe('conversation properties (fast-check, fixed seed)', () => {
  it('every request passes validateMessages, and no turn is lost', async () => {
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        // Claude 4.5 resumes by prefill, later models by a user message: both are checked.
        fc.constantFrom('claude-sonnet-4-5', 'claude-opus-5'),
        fc.array(command, { minLength: 3, maxLength: 14 }),
        fc.constantFrom('indexeddb' as const, 'string' as const),
        async (model, commands, kept) => {
          const problems: string[] = [];
          const mock = createMockFetch({ seed: 7, fixtures: FIXTURES });
          const fetch: typeof globalThis.fetch = async (input, init) => {
            const body = JSON.parse(String(init?.body ?? '{}')) as { messages?: unknown };
            for (const problem of validateMessages(body.messages)) {
              problems.push(
                `${problem.code}: ${problem.detail} in ${JSON.stringify(body.messages)}`,
              );
            }
            return mock(input, init);
          };
          const { storage } = mapStorage();
          const base = {
            request: { model, max_tokens: 512 },
            fetch,
            batch: false as const,
            persist: {
              name: `property-${runs++}`,
              storage: kept === 'indexeddb' ? ('indexeddb' as const) : storage,
            },
            tools: {
              get_weather: {
                run: (input: unknown) =>
                  `Sunny in ${String((input as { location?: string })?.location)}`,
                needsApproval: (input: unknown) => JSON.stringify(input ?? '').length % 2 === 0,
              },
            },
          };
          let store = createChatStore(base);
          const running: Promise<unknown>[] = [];
          const known = new Set<string>();
          const remember = () => {
            for (const id of Object.keys(store.getState().tree.nodes)) known.add(id);
          };
          /** Lets an action run to its end (bounded: a stalled stream waits for stop). */
          const act = (promise: Promise<unknown>, wait = true) => {
            running.push(promise);
            return Promise.race([promise, sleep(wait ? 250 : 2)]);
          };

          for (const step of commands) {
            const state = store.getState();
            const turns = state.turns;
            switch (step.kind) {
              case 'send':
                store.setOptions({
                  ...base,
                  headers: { 'x-mock-scenario': SCENARIOS[step.scenario] as string },
                });
                await act(state.send(`Question ${known.size}`), step.wait);
                break;
              case 'stop':
                state.stop();
                break;
              case 'resume':
                await act(state.resume());
                break;
              case 'retry':
                await act(state.retry());
                break;
              case 'continue':
                await act(state.continueAnswer());
                break;
              case 'edit': {
                const users = turns.filter(
                  (t) => t.role === 'user' && typeof t.content === 'string',
                );
                const target = users[step.pick % Math.max(users.length, 1)];
                if (target) await act(state.edit(target.id, `Edited ${step.n}`));
                break;
              }
              case 'regenerate': {
                const answers = turns.filter((t): t is AssistantTurn => t.role === 'assistant');
                const target = answers[step.pick % Math.max(answers.length, 1)];
                if (target) await act(state.regenerate(target.id));
                break;
              }
              case 'select': {
                const target = turns[step.pick % Math.max(turns.length, 1)];
                if (target) state.selectBranch(target.id, step.n);
                break;
              }
              case 'approve':
              case 'deny': {
                const calls = pendingCalls(store, 'awaiting-approval');
                const id = calls[step.pick % Math.max(calls.length, 1)];
                if (id) {
                  await act(
                    step.kind === 'approve'
                      ? state.approveToolCall(id)
                      : state.denyToolCall(id, 'No.'),
                  );
                }
                break;
              }
              case 'result': {
                const calls = pendingCalls(store, null);
                const id = calls[step.pick % Math.max(calls.length, 1)];
                if (id)
                  await act(state.addToolResult(id, `result ${step.n}`, { isError: step.n === 0 }));
                break;
              }
              case 'reload': {
                remember();
                await store.flush();
                const written = store.getState().tree;
                store.dispose();
                store = createChatStore(base);
                await store.restored;
                // Every branch is back, and the same one is shown.
                const read = store.getState().tree;
                expect(Object.keys(read.nodes).sort()).toEqual(Object.keys(written.nodes).sort());
                expect(read.selected).toEqual(written.selected);
                break;
              }
            }
            remember();
            const now = store.getState();
            // No turn lost; the shown path is the tree's.
            for (const id of known) expect(now.tree.nodes[id], `turn ${id}`).toBeDefined();
            expect(now.turns).toEqual(activePath(now.tree));
          }
          store.getState().stop();
          await Promise.allSettled(running);
          for (const turn of Object.values(store.getState().tree.nodes)) {
            if (turn.role !== 'assistant') continue;
            reached.add(turn.stream.status);
            for (const result of Object.values(turn.toolResults))
              reached.add(`tool:${result.status}`);
          }
          expect(problems).toEqual([]);
        },
      ),
      { seed: 20261201, numRuns: 40, endOnFailure: true },
    );
    // The runs got somewhere: answers finished, broke off, stopped; tools ran and waited.
    expect([...reached].sort()).toEqual(
      expect.arrayContaining([
        'aborted',
        'complete',
        'interrupted',
        'tool:awaiting-approval',
        'tool:complete',
        'tool:error',
      ]),
    );
  }, 30_000);
});
