import { accumulate, type MessageRequest, streamMessage, toMessage } from '@message-stream/core';
import { describe, expect, it } from 'vitest';
import { createMockFetch, loadFixture, type MockRequestInfo, parseScenario } from '../src/index.js';
import { blocksOf } from '../src/testing.js';
import { textOfState as textOf } from './support/helpers.js';

const ENDPOINT = 'https://api.mock.test/v1/messages';

/** Asks the mock with a scenario and records what it decided. */
async function ask(scenario: string, request: MessageRequest) {
  const seen: MockRequestInfo[] = [];
  const state = await streamMessage(request, {
    endpoint: ENDPOINT,
    fetch: createMockFetch({ onRequest: (info) => seen.push(info) }),
    headers: { 'x-mock-scenario': scenario },
    retry: false,
  });
  return { state, info: seen[0] };
}

const toolUse = {
  type: 'tool_use',
  id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
  name: 'get_weather',
  input: { location: 'San Francisco, CA' },
};

/** The request sending `result` back for the weather call: a tool_result block's other fields. */
const answeringToolUse = (result: Record<string, unknown>): MessageRequest => ({
  model: 'claude-opus-5',
  max_tokens: 64,
  messages: [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: [toolUse] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUse.id, ...result } as never],
    },
  ],
});

describe('follow-up requests', () => {
  it('reads then= in a scenario', () => {
    expect(parseScenario('spec-tool-use;then=spec-basic-text')).toEqual({
      fixture: 'spec-tool-use',
      followUp: 'spec-basic-text',
    });
  });

  it('answers tool results with the then fixture, without the fault, instead of the same tool call', async () => {
    const { state, info } = await ask(
      'spec-tool-use;fault=drop-after-events:3;then=spec-basic-text',
      answeringToolUse({ content: '18 °C' }),
    );
    expect(info).toMatchObject({ fixture: 'spec-basic-text', faulted: false });
    expect(state.status).toBe('complete');
    expect(toMessage(state)?.content).toEqual(
      toMessage(await accumulate(await loadFixture('spec-basic-text')))?.content,
    );
  });

  it('answers tool results without a then fixture from the tool and its result', async () => {
    const { state, info } = await ask('spec-tool-use', {
      model: 'claude-opus-5',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'What is the weather like in San Francisco?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }, toolUse] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18 °C, sunny' }],
        },
      ],
    });
    expect(info).toMatchObject({ fixture: 'follow-up', faulted: false });
    expect(state.status).toBe('complete');
    expect(state.message?.stop_reason).toBe('end_turn');
    const text = textOf(state);
    expect(text).toContain('**get_weather** returned for San Francisco, CA');
    expect(text).toContain('> 18 °C, sunny');
    expect(text).not.toMatch(/const|let/);
    // Streamed as a model does: several deltas, not one.
    expect(blocksOf(state)[0]?.status).toBe('complete');
  });

  it('says which tool failed and how, for an error result', async () => {
    const { state } = await ask(
      'spec-tool-use',
      answeringToolUse({
        is_error: true,
        content: [{ type: 'text', text: 'Service unavailable' }],
      }),
    );
    const text = textOf(state);
    expect(text).toContain('**get_weather** failed for San Francisco, CA');
    expect(text).toContain('> Service unavailable');
  });

  it('answers a call the user declined as their choice, with their reason, not as a failure', async () => {
    const declined = (content: string) =>
      ask('spec-tool-use', answeringToolUse({ is_error: true, content }));
    const withReason = textOf(
      (await declined('The user denied this tool call. Their reason: I already know')).state,
    );
    expect(withReason).toContain(
      'I did not run **get_weather** for San Francisco, CA: you chose not to ("I already know").',
    );
    expect(withReason).toContain('Tell me if you would like me to try it another way');
    expect(withReason).not.toContain('failed');
    const skipped = textOf((await declined('The user sent a new message instead.')).state);
    expect(skipped).toContain(
      'I did not run **get_weather** for San Francisco, CA: you chose not to.',
    );
    expect(skipped).not.toContain('failed');
  });

  it('continues a paused turn sent back from what its server tool found', async () => {
    const { state, info } = await ask('pause-turn', {
      model: 'claude-opus-5',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Search the web' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me search.' },
            {
              type: 'server_tool_use',
              id: 'srvtoolu_1',
              name: 'web_search',
              input: { query: 'Node.js 24 release notes' },
            },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: [
                {
                  type: 'web_search_result',
                  title: 'Node.js 24.0.0 (Current)',
                  url: 'https://nodejs.org/en/blog/release/v24.0.0',
                },
              ],
            },
          ],
        },
      ],
    });
    expect(info?.fixture).toBe('follow-up');
    expect(state.status).toBe('complete');
    const text = textOf(state);
    expect(text).toContain('The search for Node.js 24 release notes found these sources');
    expect(text).toContain(
      '[Node.js 24.0.0 (Current)](https://nodejs.org/en/blog/release/v24.0.0)',
    );
  });

  it('still answers a new question with the scenario fixture', async () => {
    const { info } = await ask('spec-tool-use;then=spec-basic-text', {
      model: 'claude-opus-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    expect(info?.fixture).toBe('spec-tool-use');
  });
});
