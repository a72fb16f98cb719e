import { describe, expect, it } from 'vitest';
import { type MessageProblemCode, validateMessages } from '../src/index.js';

const codes = (messages: unknown): MessageProblemCode[] =>
  validateMessages(messages).map((problem) => problem.code);

const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'get_weather', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: '18 °C' });

describe('validateMessages', () => {
  it('accepts a valid conversation with a tool round trip, thinking and a prefill', () => {
    expect(
      validateMessages([
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two calls.', signature: 'sig' },
            toolUse('a'),
            toolUse('b'),
          ],
        },
        {
          role: 'user',
          content: [toolResult('a'), toolResult('b'), { type: 'text', text: 'Thanks' }],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Both are' }] },
      ]),
    ).toEqual([]);
  });

  it('refuses what is not a list, an empty list and malformed messages', () => {
    expect(codes(null)).toEqual(['not_a_list']);
    expect(codes([])).toEqual(['no_messages']);
    expect(codes([{ role: 'system', content: 'x' }])).toEqual(['bad_message']);
    expect(codes([{ role: 'user' }])).toEqual(['bad_message']);
  });

  it('requires the user first and alternating roles', () => {
    expect(codes([{ role: 'assistant', content: 'Hi' }])).toEqual(['first_not_user']);
    const problems = validateMessages([
      { role: 'user', content: 'One' },
      { role: 'user', content: 'Two' },
    ]);
    expect(problems).toEqual([
      {
        code: 'roles_not_alternating',
        message: 1,
        detail: 'Messages 0 and 1 are both from the user.',
      },
    ]);
  });

  it('finds a tool_use without its tool_result in the next message, and a stray tool_result', () => {
    expect(
      codes([
        { role: 'user', content: 'Two cities' },
        { role: 'assistant', content: [toolUse('a'), toolUse('b')] },
        { role: 'user', content: [toolResult('a')] },
      ]),
    ).toEqual(['unanswered_tool_use']);
    expect(
      codes([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'user', content: [toolResult('x')] },
      ]),
    ).toEqual(['orphan_tool_result']);
    expect(
      codes([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [toolUse('a')] },
      ]),
    ).toEqual(['unanswered_tool_use']);
  });

  it('finds empty messages and empty or whitespace-only text blocks', () => {
    expect(codes([{ role: 'user', content: [] }])).toEqual(['empty_content']);
    expect(codes([{ role: 'user', content: '' }])).toEqual(['empty_text']);
    const problems = validateMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'text', text: ' \n' },
        ],
      },
    ]);
    expect(problems).toMatchObject([{ code: 'empty_text', message: 0, block: 1 }]);
  });

  it('refuses a final assistant prefill ending in whitespace, but not an earlier answer', () => {
    expect(
      codes([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello ' },
      ]),
    ).toEqual(['trailing_whitespace_prefill']);
    expect(
      codes([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello ' },
        { role: 'user', content: 'Go on' },
      ]),
    ).toEqual([]);
  });

  it('accepts thinking only whole: with its signature, redacted with its data', () => {
    const withThought = (block: unknown) => [
      { role: 'user', content: 'Think' },
      { role: 'assistant', content: [block, { type: 'text', text: 'Done.' }] },
      { role: 'user', content: 'And?' },
    ];
    expect(codes(withThought({ type: 'thinking', thinking: 'Half a tho' }))).toEqual([
      'thinking_without_signature',
    ]);
    expect(codes(withThought({ type: 'thinking', thinking: 'x', signature: '' }))).toEqual([
      'thinking_without_signature',
    ]);
    expect(codes(withThought({ type: 'redacted_thinking' }))).toEqual([
      'thinking_without_signature',
    ]);
    expect(codes(withThought({ type: 'redacted_thinking', data: 'abc' }))).toEqual([]);
    expect(
      codes([{ role: 'user', content: [{ type: 'thinking', thinking: 'x', signature: 's' }] }]),
    ).toEqual(['thinking_in_user']);
  });

  it('never throws on hostile input', () => {
    const hostile = [
      { role: 'user', content: [null, 1, 'text', { type: 'text', text: 5 }] },
      { role: 'assistant', content: [{ type: 'tool_use' }] },
      Object.create(null),
    ];
    expect(() => validateMessages(hostile)).not.toThrow();
    expect(codes(hostile)).toContain('bad_message');
  });
});
