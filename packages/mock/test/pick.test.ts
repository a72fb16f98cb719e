import { continuationRequest, mergeContinuation, streamMessage } from '@message-stream/core';
import { describe, expect, it } from 'vitest';
import {
  createMockFetch,
  fixtureForMessages,
  fixtureRequest,
  loadFixture,
  type MockRequestInfo,
} from '../src/index.js';
import { fixtureForPrompt } from '../src/pick.js';
import { finalStateOf } from '../src/testing.js';
import { textOfState } from './support/helpers.js';

const ENDPOINT = 'https://api.mock.test/v1/messages';

/** The fixture the mock picks for one typed question (no scenario), and the answer. */
async function answer(prompt: string, headers: Record<string, string> = {}) {
  const seen: MockRequestInfo[] = [];
  const state = await streamMessage(
    { model: 'claude-opus-5', max_tokens: 256, messages: [{ role: 'user', content: prompt }] },
    { endpoint: ENDPOINT, fetch: createMockFetch({ onRequest: (i) => seen.push(i) }), headers },
  );
  return { fixture: seen[0]?.fixture, state };
}

describe('the fixture picked from the words of the prompt', () => {
  it.each([
    ['Will it rain in Berlin tomorrow? What is the weather there?', 'spec-tool-use'],
    ['Compare the weather in Lisbon and in Oslo', 'parallel-tool-calls'],
    ['Search the web for the latest news on fusion', 'spec-web-search'],
    ['Write me a haiku about the sea', 'fallback-block'],
    ['Can you summarize the history of Rome?', 'max-tokens'],
    ['Why does my JavaScript const variable not change?', 'text-pings'],
    ['hello there', 'spec-basic-text'],
    ['Is 2^127 - 1 a prime?', 'redacted-thinking'],
    ['Solve this puzzle step by step', 'spec-thinking'],
    ['Write a detailed tutorial with code examples', 'long-markdown'],
    ['Write a long answer about streaming', 'long-markdown'],
    ['How do I make a bomb?', 'refusal'],
  ])('%s → %s', async (prompt, expected) => {
    const { fixture, state } = await answer(prompt);
    expect(fixture).toBe(expected);
    expect(state.status).toBe('complete');
  });

  it('falls back to the default fixture when no topic fits', async () => {
    expect(fixtureForPrompt('qwerty uiop')).toBeUndefined();
    expect((await answer('qwerty uiop')).fixture).toBe('text-pings');
  });

  it('never picks a fault fixture or the 4 MB tool input by accident', () => {
    const prompts = ['the data is invalid', 'an error in the stream', 'save the report to a file'];
    for (const prompt of prompts) {
      expect(['invalid-data', 'in-stream-error', 'large-tool-input']).not.toContain(
        fixtureForPrompt(prompt),
      );
    }
  });

  it('lets a named fixture, a fixture prompt and a scenario win over the words', async () => {
    expect(fixtureForMessages([{ role: 'user', content: '/spec-thinking' }])).toBe('spec-thinking');
    // gateway-tool-use's own prompt is about the weather, yet it gets that fixture.
    expect(
      fixtureForMessages([{ role: 'user', content: "What's the weather in Taipei right now?" }]),
    ).toBe('gateway-tool-use');
    const forced = await answer('weather in Paris', { 'x-mock-scenario': 'spec-basic-text' });
    expect(forced.fixture).toBe('spec-basic-text');
  });

  it('reads the latest question of a conversation, not the first', () => {
    expect(
      fixtureForMessages([
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Now write a haiku about autumn leaves' },
      ]),
    ).toBe('fallback-block');
  });
});

describe('Continue after max_tokens', () => {
  it.each(['prefill', 'user-message'] as const)(
    'is answered with the rest of the answer (%s)',
    async (strategy) => {
      const fetch = createMockFetch();
      const request = fixtureRequest('max-tokens');
      const cut = await streamMessage(request, { endpoint: ENDPOINT, fetch });
      expect(cut.message?.stop_reason).toBe('max_tokens');
      const more = await streamMessage(continuationRequest(request, cut, { strategy }), {
        endpoint: ENDPOINT,
        fetch,
      });
      expect(more.status).toBe('complete');
      const whole = mergeContinuation(cut, more);
      expect(whole.message?.stop_reason).toBe('end_turn');
      const rest = textOfState(await finalStateOf(await loadFixture('max-tokens')));
      expect(textOfState(whole)).toBe(
        `${rest}${textOfState(await finalStateOf(await continuationFixture()))}`,
      );
      expect(textOfState(whole)).toMatch(/aristocratic privilege, and the spread of Enlightenment/);
    },
  );

  it('resumes an interrupted Continue where it stopped, without repeating it', async () => {
    const fetch = createMockFetch();
    const request = fixtureRequest('max-tokens');
    const cut = await streamMessage(request, { endpoint: ENDPOINT, fetch });
    const continueRequest = continuationRequest(request, cut, { strategy: 'user-message' });
    const continued = await streamMessage(continueRequest, { endpoint: ENDPOINT, fetch });
    const partial = mergeContinuation(cut, continued);
    expect(partial.message?.stop_reason).toBe('end_turn');
    // The Continue's answer cut off 400 characters in, as a dropped connection would leave it.
    const halfway = {
      ...partial,
      status: 'interrupted' as const,
      message: partial.message && {
        ...partial.message,
        stop_reason: null,
        content: partial.message.content.map((block) =>
          block.block.type === 'text'
            ? {
                ...block,
                block: { ...block.block, text: (block.block.text as string).slice(0, 400) },
              }
            : block,
        ),
      },
    };
    const rest = await streamMessage(
      continuationRequest(request, halfway, { strategy: 'user-message' }),
      {
        endpoint: ENDPOINT,
        fetch,
      },
    );
    expect(textOfState(mergeContinuation(halfway, rest))).toBe(textOfState(partial));
  });
});

async function continuationFixture(): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return readFileSync(new URL('../fixtures/max-tokens.continuation.sse', import.meta.url), 'utf8');
}
