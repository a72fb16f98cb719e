import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canResume,
  continuationRequest,
  continuationStrategy,
  defaultInstruction,
} from '../src/continuation.js';
import {
  type BlockState,
  createStreamError,
  createStreamState,
  endStream,
  MAX_DIAGNOSTICS,
  type MessageRequest,
  reduceStream,
  type StreamEvent,
  type StreamState,
  validateMessages,
} from '../src/index.js';
import { joinAtSeam, joinedContinuationBlock, mergeContinuation, sumUsage } from '../src/merge.js';
import { type ResumeStrategy, resumeStrategyFor } from '../src/resume-strategy.js';
import {
  blockStart,
  blockStop,
  delta,
  json,
  messageDelta,
  messageStart,
  run,
  stop,
  text,
} from './support/events.js';

// ---------------------------------------------------------------------------------------
// Event helpers

const start = (
  id = 'msg_1',
  usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 },
  model = 'claude-sonnet-4-5',
): StreamEvent => messageStart({ id, usage, model });

/** The stream cut off after `events`: the connection dropped. */
const cut = (events: StreamEvent[]) => endStream(run(events), { type: 'network' });
const finished = (events: StreamEvent[]) => endStream(run(events));
const blocks = (state: StreamState): readonly BlockState[] => state.message?.content ?? [];
/** A streaming answer `id` with one text block, holding `value` when it is not empty. */
const textAnswer = (id: string, value: string): StreamState =>
  run([start(id), blockStart(0, { type: 'text', text: '' }), ...(value ? [text(0, value)] : [])]);
const fullText = (state: StreamState) =>
  blocks(state)
    .filter((b) => b.block.type === 'text')
    .map((b) => b.block.text as string)
    .join('');

const THINKING = { type: 'thinking', thinking: 'Let me think.', signature: 'sig-1' };
const thinkingEvents = (index: number, thinking = 'Let me think.', signature = 'sig-1') => [
  blockStart(index, { type: 'thinking', thinking: '', signature: '' }),
  delta(index, { type: 'thinking_delta', thinking }),
  delta(index, { type: 'signature_delta', signature }),
  blockStop(index),
];

/** The user's turn with the request to continue joined onto it: roles keep alternating. */
const askedToContinue = (question: string, instruction: string) => ({
  role: 'user' as const,
  content: [
    { type: 'text' as const, text: question },
    { type: 'text' as const, text: instruction },
  ],
});

const baseRequest = (model: string, extra: Partial<MessageRequest> = {}): MessageRequest => ({
  model,
  max_tokens: 1024,
  system: 'Be brief.',
  tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
  metadata: { user_id: 'u1' },
  messages: [{ role: 'user', content: 'Tell me a story.' }],
  stream: true,
  ...extra,
});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

// ---------------------------------------------------------------------------------------

describe('resumeStrategyFor', () => {
  it.each([
    ['claude-3-opus-20240229', 'prefill'],
    ['claude-3-5-sonnet-20241022', 'prefill'],
    ['claude-3-7-sonnet-latest', 'prefill'],
    ['claude-sonnet-4-20250514', 'prefill'],
    ['claude-opus-4-1', 'prefill'],
    ['claude-sonnet-4-5', 'prefill'],
    ['claude-haiku-4-5-20251001', 'prefill'],
    ['claude-opus-4-5-20251101', 'prefill'],
    ['claude-opus-4-6', 'user-message'],
    ['claude-sonnet-4-6-20260101', 'user-message'],
    ['claude-opus-5', 'user-message'],
    ['claude-sonnet-5-1', 'user-message'],
    ['anthropic/claude-haiku-4-5', 'prefill'],
    ['gpt-4o', 'user-message'],
    ['my-model', 'user-message'],
    ['', 'user-message'],
    // Beyond the brief's list: cloud ids, dotted gateway ids, old models.
    ['us.anthropic.claude-3-5-sonnet-20240620-v1:0', 'prefill'],
    ['claude-3-5-sonnet-v2@20241022', 'prefill'],
    ['anthropic/claude-sonnet-4.5', 'prefill'],
    ['anthropic/claude-opus-4.6', 'user-message'],
    ['claude-2.1', 'prefill'],
    ['claude-instant-1.2', 'prefill'],
    ['CLAUDE-OPUS-4-6', 'user-message'],
    ['claude-20250101', 'user-message'],
    ['claude', 'user-message'],
  ])('%s → %s', (model, strategy) => {
    expect(resumeStrategyFor(model)).toBe(strategy);
  });
});

describe('canResume', () => {
  const started = [start(), blockStart(0, { type: 'text', text: '' }), text(0, 'Hi')];

  it('is true for an interrupted answer with text', () => {
    expect(canResume(cut(started))).toBe(true);
  });

  it('is true for an aborted answer', () => {
    expect(canResume(endStream(run(started), { type: 'abort' }))).toBe(true);
  });

  it('is true for an in-stream retryable error, false for a non-retryable one', () => {
    const overloaded = run([
      ...started,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    const invalid = run([
      ...started,
      { type: 'error', error: { type: 'invalid_request_error', message: 'Bad' } },
    ]);
    expect(overloaded.status).toBe('error');
    expect(canResume(overloaded)).toBe(true);
    expect(canResume(invalid)).toBe(false);
  });

  it('is false for an error state without an error', () => {
    expect(canResume({ ...cut(started), status: 'error', error: null })).toBe(false);
  });

  it('is false for complete, streaming and idle states', () => {
    expect(
      canResume(
        finished([...started, blockStop(0), messageDelta({ stop_reason: 'end_turn' }), stop]),
      ),
    ).toBe(false);
    expect(canResume(run(started))).toBe(false);
    expect(canResume(createStreamState())).toBe(false);
  });

  it('is false once message_stop arrived, even if an error followed', () => {
    const state = run([
      ...started,
      blockStop(0),
      stop,
      { type: 'error', error: { type: 'overloaded_error', message: 'late' } },
    ]);
    expect(state.status).toBe('error');
    expect(canResume(state)).toBe(false);
  });

  it('is true with nothing at all, or nothing recoverable (the resume is a plain retry)', () => {
    expect(canResume(cut([]))).toBe(true);
    expect(canResume(cut([start()]))).toBe(true);
    expect(
      canResume(cut([start(), blockStart(0, { type: 'tool_use', id: 't', name: 'x', input: {} })])),
    ).toBe(true);
  });
});

describe('continuationRequest', () => {
  const midText = cut([
    start(),
    blockStart(0, { type: 'text', text: '' }),
    text(0, 'Once upon'),
    text(0, ' a time'),
  ]);

  it('prefill: the partial answer becomes the assistant turn', () => {
    const request = baseRequest('claude-sonnet-4-5', { stream: false });
    expect(continuationRequest(request, midText)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'Be brief.',
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      metadata: { user_id: 'u1' },
      stream: true,
      messages: [
        { role: 'user', content: 'Tell me a story.' },
        { role: 'assistant', content: [{ type: 'text', text: 'Once upon a time' }] },
      ],
    });
  });

  it('user-message: a user turn quotes the partial answer in full', () => {
    const request = baseRequest('claude-opus-4-6');
    expect(continuationRequest(request, midText)).toEqual({
      model: 'claude-opus-4-6',
      max_tokens: 1024,
      system: 'Be brief.',
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      metadata: { user_id: 'u1' },
      stream: true,
      messages: [
        askedToContinue(
          'Tell me a story.',
          'Your previous response was interrupted and ended with [Once upon a time]. Continue from where you left off.',
        ),
      ],
    });
  });

  it('prefill: trailing whitespace and newlines are trimmed from the final text', () => {
    const state = cut([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'First paragraph.\n\n'),
      text(0, 'Second '),
    ]);
    const request = baseRequest('claude-3-7-sonnet-latest');
    expect(continuationRequest(request, state).messages).toEqual([
      { role: 'user', content: 'Tell me a story.' },
      { role: 'assistant', content: [{ type: 'text', text: 'First paragraph.\n\nSecond' }] },
    ]);
    const newline = cut([start(), blockStart(0, { type: 'text', text: '' }), text(0, 'Line.\n')]);
    expect(continuationRequest(request, newline).messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Line.' }],
    });
  });

  it('user-message: the quoted partial answer keeps its whitespace', () => {
    const state = cut([start(), blockStart(0, { type: 'text', text: '' }), text(0, 'Hello ')]);
    expect(continuationRequest(baseRequest('claude-opus-5'), state).messages).toEqual([
      askedToContinue('Tell me a story.', defaultInstruction('Hello ')),
    ]);
  });

  it('drops an incomplete tool_use (and anything after the last text block)', () => {
    const state = cut([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Let me check.'),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }),
      json(1, '{"city": "Par'),
    ]);
    expect(blocks(state)[1]?.status).toBe('incomplete');
    expect(continuationRequest(baseRequest('claude-sonnet-4-5'), state).messages).toEqual([
      { role: 'user', content: 'Tell me a story.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }] },
    ]);
  });

  it('drops a complete tool_use after the last text block (it has no result)', () => {
    const state = cut([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Let me check.'),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }),
      json(1, '{"city": "Paris"}'),
      blockStop(1),
    ]);
    expect(continuationRequest(baseRequest('claude-sonnet-4-5'), state).messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Let me check.' }],
    });
  });

  it('drops an incomplete thinking block: with nothing else it is a plain retry', () => {
    const state = cut([
      start(),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Hmm, half a tho' }),
    ]);
    const request = baseRequest('claude-sonnet-4-5', {
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
    expect(continuationRequest(request, state)).toEqual(request);
  });

  it('drops an incomplete thinking block before recovered text', () => {
    // A thinking block that never got its stop, then text (a broken upstream).
    const state = cut([
      start(),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Hmm' }),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'Answer'),
    ]);
    expect(continuationRequest(baseRequest('claude-sonnet-4-5'), state).messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Answer' }],
    });
  });

  it('prefill keeps a complete thinking block (thinking enabled)', () => {
    const state = cut([
      start(),
      ...thinkingEvents(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'The answer is '),
    ]);
    const request = baseRequest('claude-sonnet-4-5', {
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
    expect(continuationRequest(request, state)).toEqual({
      ...request,
      messages: [
        { role: 'user', content: 'Tell me a story.' },
        { role: 'assistant', content: [THINKING, { type: 'text', text: 'The answer is' }] },
      ],
    });
  });

  it('falls back to user-message when thinking is enabled but no thinking was recovered', () => {
    const request = baseRequest('claude-sonnet-4-5', {
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
    const expected = {
      ...request,
      messages: [askedToContinue('Tell me a story.', defaultInstruction('Once upon a time'))],
    };
    expect(continuationRequest(request, midText)).toEqual(expected);
    // Even when prefill is forced: the API would reject the prefill.
    expect(continuationRequest(request, midText, { strategy: 'prefill' })).toEqual(expected);
    // Thinking explicitly disabled: prefill as usual.
    const disabled = { ...request, thinking: { type: 'disabled' } };
    expect(continuationRequest(disabled, midText).messages[1]?.role).toBe('assistant');
  });

  it('user-message: the request passes validateMessages, after a question or a tool result', () => {
    const toolTurn = baseRequest('claude-opus-5', {
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }],
        },
      ],
    });
    for (const request of [baseRequest('claude-opus-5'), toolTurn]) {
      const next = continuationRequest(request, midText, { strategy: 'user-message' });
      expect(validateMessages(next.messages)).toEqual([]);
      expect(next.messages).toHaveLength(request.messages.length);
    }
  });

  it('a forced strategy wins over the model', () => {
    expect(
      continuationRequest(baseRequest('claude-sonnet-4-5'), midText, { strategy: 'user-message' })
        .messages,
    ).toEqual([askedToContinue('Tell me a story.', defaultInstruction('Once upon a time'))]);
    expect(
      continuationRequest(baseRequest('claude-opus-4-6'), midText, { strategy: 'prefill' })
        .messages,
    ).toEqual([
      { role: 'user', content: 'Tell me a story.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Once upon a time' }] },
    ]);
  });

  it('uses a custom instruction', () => {
    const request = baseRequest('claude-opus-4-6');
    const result = continuationRequest(request, midText, {
      instruction: (partial) => `Continue: <partial>${partial}</partial>`,
    });
    expect(result.messages).toEqual([
      askedToContinue('Tell me a story.', 'Continue: <partial>Once upon a time</partial>'),
    ]);
  });

  it('picks the strategy from the streamed model when the request names an alias', () => {
    const state = cut([
      start('msg_1', {}, 'claude-haiku-4-5-20251001'),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Hi'),
    ]);
    expect(continuationRequest(baseRequest('house-default'), state).messages[1]?.role).toBe(
      'assistant',
    );
    expect(continuationRequest(baseRequest('claude-opus-4-6'), state).messages).toEqual([
      askedToContinue('Tell me a story.', defaultInstruction('Hi')),
    ]);
  });

  it('does not mutate the request or the state', () => {
    const request = deepFreeze(
      baseRequest('claude-sonnet-4-5', {
        stream: false,
        messages: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: [{ type: 'text', text: 'Prefix' }] },
        ],
      }),
    );
    const snapshot = structuredClone(request);
    const state = deepFreeze(midText);
    for (const strategy of ['prefill', 'user-message'] as const) {
      const result = continuationRequest(request, state, { strategy });
      expect(result).not.toBe(request);
    }
    expect(request).toEqual(snapshot);
  });

  it('nothing recovered → the original request, streaming', () => {
    const request = baseRequest('claude-sonnet-4-5', { stream: undefined });
    const expected = { ...request, stream: true };
    expect(continuationRequest(request, cut([]))).toEqual(expected);
    expect(continuationRequest(request, cut([start()]))).toEqual(expected);
    // An empty or whitespace-only text block recovers nothing either.
    expect(
      continuationRequest(
        request,
        cut([start(), blockStart(0, { type: 'text', text: '' }), text(0, '\n\n')]),
      ),
    ).toEqual(expected);
    expect(continuationRequest(baseRequest('claude-opus-4-6'), cut([start()]))).toEqual(
      baseRequest('claude-opus-4-6'),
    );
  });

  it('merges into the request’s own prefill instead of adding a second assistant turn', () => {
    const state = cut([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      text(0, ' 42, because '),
    ]);
    const stringPrefill = baseRequest('claude-sonnet-4-5', {
      messages: [
        { role: 'user', content: 'Answer?' },
        { role: 'assistant', content: 'The answer is' },
      ],
    });
    expect(continuationRequest(stringPrefill, state).messages).toEqual([
      { role: 'user', content: 'Answer?' },
      { role: 'assistant', content: [{ type: 'text', text: 'The answer is 42, because' }] },
    ]);
    const blockPrefill = {
      ...stringPrefill,
      messages: [
        { role: 'user' as const, content: 'Answer?' },
        { role: 'assistant' as const, content: [{ type: 'text', text: 'The answer is' }] },
      ],
    };
    expect(continuationRequest(blockPrefill, state).messages).toEqual([
      { role: 'user', content: 'Answer?' },
      { role: 'assistant', content: [{ type: 'text', text: 'The answer is 42, because' }] },
    ]);
    // user-message: the prefill is folded into the quoted partial answer.
    expect(
      continuationRequest(stringPrefill, state, { strategy: 'user-message' }).messages,
    ).toEqual([askedToContinue('Answer?', defaultInstruction('The answer is 42, because '))]);
  });

  it('sends blocks in request shape: no null citations, kept citations, server tools kept', () => {
    const citation = { type: 'web_search_result_location', cited_text: 'x', url: 'https://a' };
    const state = cut([
      start(),
      blockStart(0, { type: 'text', text: '', citations: null }),
      text(0, 'Searching.'),
      blockStop(0),
      blockStart(1, { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} }),
      json(1, '{"query":"a"}'),
      blockStop(1),
      blockStart(2, {
        type: 'web_search_tool_result',
        tool_use_id: 'srv_1',
        content: [{ type: 'web_search_result', title: 'A', url: 'https://a' }],
      }),
      blockStop(2),
      blockStart(3, { type: 'text', text: '' }),
      text(3, ''),
      blockStop(3),
      blockStart(4, { type: 'text', text: '', citations: [] }),
      delta(4, { type: 'citations_delta', citation }),
      text(4, 'A says x'),
    ]);
    expect(continuationRequest(baseRequest('claude-sonnet-4-5'), state).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Searching.' },
        { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'a' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srv_1',
          content: [{ type: 'web_search_result', title: 'A', url: 'https://a' }],
        },
        { type: 'text', text: 'A says x', citations: [citation] },
      ],
    });
  });
});

// ---------------------------------------------------------------------------------------

describe('joinAtSeam', () => {
  it.each([
    // exact continuations: nothing removed
    ['Hello', ' world', 'Hello world'],
    ['Hel', 'lo world', 'Hello world'],
    ['I like the', ' theme', 'I like the theme'],
    ['It was 10', '0 years', 'It was 100 years'],
    ['Hello ', 'world', 'Hello world'],
    // prefill trim: the continuation's leading whitespace replaces the trailing one
    ['Hello ', ' world', 'Hello world'],
    ['Para.\n\n', '\n\nNext', 'Para.\n\nNext'],
    // repeats at the seam
    ['The quick brown fox', 'brown fox jumps', 'The quick brown fox jumps'],
    ['The quick brown fox', ' brown fox jumps', 'The quick brown fox jumps'],
    ['The quick brown fox ', 'brown fox jumps', 'The quick brown fox jumps'],
    ['I am', 'am here', 'I am here'],
    ['over the la', 'the lazy dog', 'over the lazy dog'],
    ['Once upon a time', 'Once upon a time there', 'Once upon a time there'],
    // not repeats: a partial word alone, punctuation alone, a mid-word suffix
    ['over the la', 'lazy dog', 'over the lalazy dog'],
    ['Wait.', '. Then', 'Wait.. Then'],
    ['cathedral', 'ral', 'cathedralral'],
    ['Hello', '', 'Hello'],
  ])('%j + %j → %j', (head, tail, expected) => {
    expect(joinAtSeam(head, tail)).toBe(expected);
  });

  it('holds back a streaming continuation that may still be the start of a repeat', () => {
    expect(joinAtSeam('The quick brown fox', 'bro', true)).toBe('The quick brown fox');
    expect(joinAtSeam('The quick brown fox', 'brown fox jum', true)).toBe(
      'The quick brown fox jum',
    );
    expect(joinAtSeam('The quick brown fox', 'bro', false)).toBe('The quick brown foxbro');
    expect(joinAtSeam('The quick brown fox', ' jumps', true)).toBe('The quick brown fox jumps');
  });

  it('tells which continuation block a merged text block was joined from', () => {
    const interrupted = textAnswer('msg_a', 'Hi');
    const continuation = run([
      start('msg_b'),
      blockStart(0, { type: 'text', text: '' }),
      text(0, ' there'),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'More.'),
    ]);
    const merged = mergeContinuation(interrupted, continuation).message?.content ?? [];
    expect(merged.map((entry) => (entry.block as { text?: string }).text)).toEqual([
      'Hi there',
      'More.',
    ]);
    expect(joinedContinuationBlock(merged[0] as BlockState)).toBe(continuation.message?.content[0]);
    // Renumbered or not, a block taken as it came was joined from nothing.
    expect(joinedContinuationBlock(merged[1] as BlockState)).toBeUndefined();
    expect(joinedContinuationBlock(continuation.message?.content[0] as BlockState)).toBeUndefined();
  });

  // mergeContinuation keeps the seam once no longer tail can change it, and only compares a
  // later tail's start with it: each update must still join as a fresh joinAtSeam would.
  const words = ['the', 'fox', 'brown', 'jumps', 'a', 'fo', 'x', ' ', '. ', '\n', 'é', '🎉'];
  const phrase = fc.array(fc.constantFrom(...words), { maxLength: 24 }).map((w) => w.join(' '));
  /** An interrupted text, a continuation restating up to 40 of its last characters, its cuts. */
  const seamCase = fc
    .record({
      head: phrase.map((words) => `So ${words}`),
      restated: fc.nat(40),
      rest: phrase,
      cuts: fc.array(fc.nat(12), { minLength: 1, maxLength: 30 }),
    })
    .map(({ head, restated, rest, cuts }) => ({
      head,
      rest,
      tail: head.slice(head.length - Math.min(restated, head.length)) + rest,
      cuts,
    }));
  it('joins a continuation streamed in any pieces as joinAtSeam joins each version whole', () => {
    fc.assert(
      fc.property(seamCase, fc.boolean(), ({ head, rest, tail, cuts }, restart) => {
        const interrupted = textAnswer('msg_a', head);
        let continuation = textAnswer('msg_b', '');
        const joined = () => {
          const merged = mergeContinuation(interrupted, continuation, {
            strategy: 'user-message',
          });
          return (merged.message?.content.at(-1)?.block as { text?: string } | undefined)?.text;
        };
        // A second message_start (a spliced retry) starts the text again: a seam decided
        // for the first text must not be taken for the second.
        const versions = restart ? [`${rest}!`, tail] : [tail];
        for (const version of versions) {
          let at = 0;
          let sent = '';
          for (const cut of [...cuts, version.length]) {
            const piece = version.slice(at, at + cut + 1);
            at += piece.length;
            if (piece === '') continue;
            sent += piece;
            continuation = reduceStream(continuation, text(0, piece));
            expect(joined()).toBe(joinAtSeam(head, sent, true, true));
          }
          if (version !== versions.at(-1)) {
            continuation = run(
              [start('msg_c'), blockStart(0, { type: 'text', text: '' })],
              continuation,
            );
          }
        }
        continuation = reduceStream(continuation, blockStop(0));
        expect(joined()).toBe(joinAtSeam(head, tail, false, true));
      }),
      { numRuns: 300 },
    );
  });

  /** The first block's text of a state's message ('' when none). */
  const firstText = (state: StreamState): string =>
    (state.message?.content[0]?.block as { text?: string } | undefined)?.text ?? '';

  /** A record of appends like the chat store's: `next` was built as `base` plus `appended`. */
  const appendJournal = () => {
    const records: Array<[next: string, base: string, appended: string]> = [];
    return {
      record: (next: string, base: string, appended: string) => {
        records.push([next, base, appended]);
      },
      appendedSince: (next: string, base: string) =>
        records.find(([n, b]) => n === next && b === base)?.[2],
    };
  };

  // Given what each update appended, a merge grows the joined text by it instead of reading
  // the continuation's text again: the same text as a merge that reads it, for both seams.
  it('joins as it would without appendedSince, given each update’s append', () => {
    fc.assert(
      fc.property(
        seamCase,
        fc.constantFrom('user-message', 'prefill') as fc.Arbitrary<ResumeStrategy>,
        ({ head, tail, cuts }, strategy) => {
          const interrupted = textAnswer('msg_a', head);
          let continuation = textAnswer('msg_b', '');
          const journal = appendJournal();
          const joined = (appendedSince?: (next: string, base: string) => string | undefined) =>
            firstText(mergeContinuation(interrupted, continuation, { strategy, appendedSince }));
          let at = 0;
          let before = '';
          for (const cut of [...cuts, tail.length]) {
            const piece = tail.slice(at, at + cut + 1);
            at += piece.length;
            if (piece === '') continue;
            continuation = reduceStream(continuation, text(0, piece));
            const sent = firstText(continuation);
            if (before !== '') journal.record(sent, before, piece);
            before = sent;
            expect(joined(journal.appendedSince)).toBe(
              joinAtSeam(head, sent, true, strategy === 'user-message'),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the recorded append as the continuation’s new text, reading neither version', () => {
    const interrupted = textAnswer('msg_a', 'The quick brown fox');
    let continuation = textAnswer('msg_b', ' jumps over');
    const first = firstText(continuation);
    const textOfMerge = (appendedSince: (next: string, base: string) => string | undefined) =>
      firstText(
        mergeContinuation(interrupted, continuation, { strategy: 'prefill', appendedSince }),
      );
    const asked: Array<[string, string]> = [];
    expect(textOfMerge(() => undefined)).toBe('The quick brown fox jumps over');
    continuation = reduceStream(continuation, text(0, ' the dog'));
    const grown = firstText(continuation);
    // A record that says otherwise than the texts is believed: proof that neither is read.
    expect(
      textOfMerge((next, base) => {
        asked.push([next, base]);
        return ' the cat';
      }),
    ).toBe('The quick brown fox jumps over the cat');
    expect(asked).toEqual([[grown, first]]);
  });
});

describe('sumUsage', () => {
  it('sums numbers per field, nested objects too; nulls do not count; others: latest', () => {
    expect(
      sumUsage(
        {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: null,
          server_tool_use: { web_search_requests: 1 },
          service_tier: 'standard',
        },
        {
          input_tokens: 20,
          output_tokens: 7,
          cache_read_input_tokens: 3,
          server_tool_use: { web_search_requests: 2, web_fetch_requests: 1 },
          service_tier: 'priority',
          cache_creation: { ephemeral_5m_input_tokens: 4 },
        },
      ),
    ).toEqual({
      input_tokens: 30,
      output_tokens: 12,
      cache_read_input_tokens: 3,
      server_tool_use: { web_search_requests: 3, web_fetch_requests: 1 },
      service_tier: 'priority',
      cache_creation: { ephemeral_5m_input_tokens: 4 },
    });
  });
});

describe('mergeContinuation', () => {
  const interruptedEvents = [
    start('msg_a', {
      input_tokens: 10,
      output_tokens: 1,
      server_tool_use: { web_search_requests: 1 },
    }),
    ...thinkingEvents(0),
    blockStart(1, { type: 'text', text: '' }),
    text(1, 'The sky is '),
    text(1, 'blue because'),
  ];
  const continuationEvents = [
    start('msg_b', {
      input_tokens: 30,
      output_tokens: 1,
      server_tool_use: { web_search_requests: 2 },
    }),
    blockStart(0, { type: 'text', text: '' }),
    text(0, ' of Rayleigh'),
    text(0, ' scattering.'),
    blockStop(0),
    messageDelta(
      { stop_reason: 'end_turn', stop_sequence: null, extra_field: 1 },
      { output_tokens: 9 },
    ),
    stop,
  ];

  it('keeps the diagnostics within MAX_DIAGNOSTICS and counts what either request dropped', () => {
    const noise = (n: number): StreamEvent[] =>
      Array.from({ length: n }, (_, i) => ({
        type: 'unknown_event',
        event: 'x',
        data: { type: `x${i}` },
      }));
    const interrupted = cut([...interruptedEvents, ...noise(1000)]);
    const continuation = run([...noise(10), ...continuationEvents]);
    expect(interrupted.diagnosticsDropped).toBe(1000 - MAX_DIAGNOSTICS);
    const merged = mergeContinuation(interrupted, continuation);
    expect(merged.diagnostics).toHaveLength(MAX_DIAGNOSTICS);
    expect(merged.diagnostics.length + (merged.diagnosticsDropped ?? 0)).toBe(1010);
  });

  it('joins the text, keeps the recovered blocks, takes the end from the continuation', () => {
    const interrupted = cut(interruptedEvents);
    const continuation = finished(continuationEvents);
    const merged = mergeContinuation(interrupted, continuation);
    expect(merged.status).toBe('complete');
    expect(merged.stopReceived).toBe(true);
    expect(merged.error).toBeNull();
    expect(merged.message?.id).toBe('msg_a');
    expect(merged.message?.stop_reason).toBe('end_turn');
    expect(merged.message?.extra_field).toBe(1);
    expect(blocks(merged).map((b) => [b.index, b.status, b.block])).toEqual([
      [0, 'complete', THINKING],
      [1, 'complete', { type: 'text', text: 'The sky is blue because of Rayleigh scattering.' }],
    ]);
    // the thinking block is the very same object
    expect(blocks(merged)[0]).toBe(blocks(interrupted)[0]);
  });

  it('sums usage and lists the attempts', () => {
    const interrupted = cut(interruptedEvents);
    const continuation = finished(continuationEvents);
    const merged = mergeContinuation(interrupted, continuation);
    expect(merged.message?.usage).toEqual({
      input_tokens: 40,
      output_tokens: 10,
      server_tool_use: { web_search_requests: 3 },
    });
    expect(merged.attempts).toEqual([
      {
        messageId: 'msg_a',
        status: 'interrupted',
        usage: interrupted.message?.usage,
        error: interrupted.error,
      },
      { messageId: 'msg_b', status: 'complete', usage: continuation.message?.usage, error: null },
    ]);
  });

  it('drops the interrupted answer’s unrecoverable blocks and keeps identity of the rest', () => {
    const interrupted = cut([
      start('msg_a'),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Intro.'),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'Let me look'),
      blockStop(1),
      blockStart(2, { type: 'tool_use', id: 't', name: 'get_weather', input: {} }),
      json(2, '{"ci'),
    ]);
    const continuation = finished([
      start('msg_b'),
      blockStart(0, { type: 'text', text: '' }),
      text(0, ' it up.'),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 't2', name: 'get_weather', input: {} }),
      json(1, '{"city":"Paris"}'),
      blockStop(1),
      messageDelta({ stop_reason: 'tool_use' }),
      stop,
    ]);
    const merged = mergeContinuation(interrupted, continuation);
    expect(blocks(merged)).toHaveLength(3);
    expect(blocks(merged)[0]).toBe(blocks(interrupted)[0]);
    expect(blocks(merged)[1]?.block).toEqual({ type: 'text', text: 'Let me look it up.' });
    expect(blocks(merged)[2]).toMatchObject({
      index: 2,
      status: 'complete',
      block: { type: 'tool_use', id: 't2', input: { city: 'Paris' } },
    });
    expect(merged.message?.stop_reason).toBe('tool_use');
  });

  it('keeps block identity across merges of successive continuation states', () => {
    const interrupted = cut([
      start('msg_a'),
      blockStart(0, { type: 'text', text: '' }),
      text(0, 'Intro.'),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'Hello'),
    ]);
    const c1 = run([
      start('msg_b'),
      blockStart(0, { type: 'text', text: '' }),
      text(0, ' world.'),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      text(1, 'Next'),
    ]);
    const c2 = reduceStream(c1, text(1, ' part'));
    const m1 = mergeContinuation(interrupted, c1);
    const m2 = mergeContinuation(interrupted, c2);
    expect(blocks(m1).map((b) => b.index)).toEqual([0, 1, 2]);
    expect(blocks(m2)[0]).toBe(blocks(interrupted)[0]);
    expect(blocks(m2)[1]).toBe(blocks(m1)[1]); // unchanged joined block
    expect(blocks(m2)[2]).not.toBe(blocks(m1)[2]); // the block that changed
    expect(blocks(m2)[2]?.block).toEqual({ type: 'text', text: 'Next part' });
    expect(mergeContinuation(interrupted, c2).message?.content[2]).toBe(blocks(m2)[2]);
  });

  it('puts the continuation’s leading thinking before the joined text block', () => {
    const interrupted = cut(interruptedEvents);
    const thinkingOnly = run([start('msg_b'), ...thinkingEvents(0, 'Again.', 'sig-2')]);
    // A user-message continuation, which may restate the end of the partial answer.
    const userMessage = { strategy: 'user-message' } as const;
    const duringThinking = mergeContinuation(interrupted, thinkingOnly, userMessage);
    expect(blocks(duringThinking).map((b) => [b.index, b.block.type])).toEqual([
      [0, 'thinking'],
      [1, 'thinking'],
      [2, 'text'],
    ]);
    expect(blocks(duringThinking)[2]?.block.text).toBe('The sky is blue because');
    const withText = run(
      [blockStart(1, { type: 'text', text: '' }), text(1, 'blue because of light.')],
      thinkingOnly,
    );
    const merged = mergeContinuation(interrupted, withText, userMessage);
    expect(blocks(merged).map((b) => [b.index, b.status, b.block])).toEqual([
      [0, 'complete', THINKING],
      [1, 'complete', { type: 'thinking', thinking: 'Again.', signature: 'sig-2' }],
      [2, 'streaming', { type: 'text', text: 'The sky is blue because of light.' }],
    ]);
  });

  it('does not join when the continuation starts with something other than text', () => {
    const interrupted = cut(interruptedEvents);
    const continuation = finished([
      start('msg_b'),
      blockStart(0, { type: 'tool_use', id: 't', name: 'get_weather', input: {} }),
      json(0, '{}'),
      blockStop(0),
      messageDelta({ stop_reason: 'tool_use' }),
      stop,
    ]);
    const merged = mergeContinuation(interrupted, continuation);
    expect(blocks(merged).map((b) => [b.index, b.block.type])).toEqual([
      [0, 'thinking'],
      [1, 'text'],
      [2, 'tool_use'],
    ]);
    expect(blocks(merged)[1]).toBe(blocks(interrupted)[1]);
  });

  it('joins citations of the two halves of the text', () => {
    const c1 = { type: 'char_location', cited_text: 'a' };
    const c2 = { type: 'char_location', cited_text: 'b' };
    const interrupted = cut([
      start('msg_a'),
      blockStart(0, { type: 'text', text: '', citations: [] }),
      delta(0, { type: 'citations_delta', citation: c1 }),
      text(0, 'A'),
    ]);
    const continuation = finished([
      start('msg_b'),
      blockStart(0, { type: 'text', text: '', citations: [] }),
      delta(0, { type: 'citations_delta', citation: c2 }),
      text(0, ' and B'),
      blockStop(0),
      stop,
    ]);
    expect(blocks(mergeContinuation(interrupted, continuation))[0]?.block).toEqual({
      type: 'text',
      text: 'A and B',
      citations: [c1, c2],
    });
  });

  it('continuation without a message: the interrupted answer with the continuation’s status', () => {
    const interrupted = cut(interruptedEvents);
    const failed = endStream(createStreamState(), {
      type: 'error',
      error: createStreamError({ type: 'overloaded_error', message: 'Overloaded', status: 529 }),
    });
    const merged = mergeContinuation(interrupted, failed);
    expect(merged.message).toBe(interrupted.message);
    expect(merged.status).toBe('error');
    expect(merged.error).toBe(failed.error);
    expect(merged.attempts?.map((a) => a.status)).toEqual(['interrupted', 'error']);
    expect(canResume(merged)).toBe(true);
  });

  it('interrupted without a message: the continuation as it is', () => {
    const interrupted = cut([]);
    const continuation = finished(continuationEvents);
    const merged = mergeContinuation(interrupted, continuation);
    expect(merged.message).toBe(continuation.message);
    expect(merged.status).toBe('complete');
    expect(merged.attempts?.map((a) => [a.messageId, a.status])).toEqual([
      ['', 'interrupted'],
      ['msg_b', 'complete'],
    ]);
  });

  it('concatenates diagnostics and superseded messages', () => {
    const interrupted = cut([
      ...interruptedEvents,
      { type: 'unknown_event', event: 'x', data: {} },
    ]);
    const continuation = finished([
      ...continuationEvents.slice(0, 2),
      { type: 'invalid_event', event: null, data: '{', reason: 'bad' },
      ...continuationEvents.slice(2),
    ]);
    const merged = mergeContinuation(interrupted, continuation);
    expect(merged.diagnostics.map((d) => d.code)).toEqual(['unknown_event', 'invalid_event']);
    expect(merged.superseded).toEqual([]);
  });

  it('never throws, even on malformed states', () => {
    const bad = [null, undefined, {}, { message: 5 }, { message: { content: 'x' } }];
    for (const a of bad) {
      for (const b of bad) {
        expect(() =>
          mergeContinuation(a as unknown as StreamState, b as unknown as StreamState),
        ).not.toThrow();
      }
    }
  });
});

// ---------------------------------------------------------------------------------------
// End to end: cut a stream anywhere, resume, merge

const DELTAS = [
  'The',
  ' quick brown',
  ' fox ',
  'jumps over',
  ' the la',
  'zy dog.\n\n',
  'Then it ',
  'slept.',
];
const FULL = DELTAS.join('');

const originalStream = (
  id: string,
  deltas: readonly string[],
  thinking: boolean,
): StreamEvent[] => {
  const textIndex = thinking ? 1 : 0;
  return [
    start(id, { input_tokens: 10, output_tokens: 1 }),
    ...(thinking ? thinkingEvents(0) : []),
    blockStart(textIndex, { type: 'text', text: '' }),
    ...deltas.map((d) => text(textIndex, d)),
    blockStop(textIndex),
    messageDelta({ stop_reason: 'end_turn', stop_sequence: null }, { output_tokens: 40 }),
    stop,
  ];
};

/** A continuation answer: optional leading thinking, then the text in two deltas. */
const continuationStream = (id: string, body: string, thinking: boolean): StreamEvent[] => {
  let half = Math.floor(body.length / 2);
  while (half < body.length && /\s/.test(body[half - 1] ?? '') && /\s/.test(body[half] ?? ''))
    half++;
  const textIndex = thinking ? 1 : 0;
  return [
    start(id, { input_tokens: 25, output_tokens: 1 }),
    ...(thinking ? thinkingEvents(0, 'Continuing.', 'sig-c') : []),
    blockStart(textIndex, { type: 'text', text: '' }),
    text(textIndex, body.slice(0, half)),
    text(textIndex, body.slice(half)),
    blockStop(textIndex),
    messageDelta({ stop_reason: 'stop_sequence', stop_sequence: '###' }, { output_tokens: 30 }),
    stop,
  ];
};

/** The last words of `partial` (two, or one at a word end), as a model repeats them. */
function repeatedTail(partial: string, full: string): string | null {
  const starts = [...partial.trimEnd().matchAll(/\S+/g)].map((m) => m.index);
  const midWord = /\w$/.test(partial) && /^\w/.test(full.slice(partial.length));
  if (starts.length < (midWord ? 2 : 1)) return null;
  return partial.slice(starts[starts.length - Math.min(2, starts.length)]);
}

type Style = 'exact' | 'repeat' | 'space';

function continuationBody(style: Style, partial: string, full: string): string {
  const rest = full.slice(partial.length);
  if (partial.trim() === '') return full;
  if (style === 'repeat') return (repeatedTail(partial, full) ?? '') + rest;
  if (style === 'space') return partial.slice(partial.trimEnd().length) + rest;
  return rest;
}

const partialTextOf = (state: StreamState) => {
  const t = fullText(state);
  return t.trim() === '' ? '' : t;
};

describe('resume end to end', () => {
  const cases: Array<[string, boolean]> = [
    ['claude-sonnet-4-5', false],
    ['claude-sonnet-4-5', true],
    ['claude-opus-4-6', false],
    ['claude-opus-4-6', true],
  ];

  it.each(cases)(
    '%s (thinking: %s): a cut after every event resumes to the whole text',
    (model, thinking) => {
      const events = originalStream('msg_a', DELTAS, thinking);
      expect(fullText(finished(events))).toBe(FULL);
      expect(canResume(finished(events))).toBe(false);
      const request = baseRequest(model, {
        stream: false,
        ...(thinking ? { thinking: { type: 'enabled', budget_tokens: 1024 } } : {}),
      });
      const prefill = resumeStrategyFor(model) === 'prefill';
      // every cut that leaves the answer unfinished: after event k, for k before message_stop
      for (let k = 0; k < events.length - 1; k++) {
        const interrupted = cut(events.slice(0, k + 1));
        expect(canResume(interrupted)).toBe(true);
        const partial = partialTextOf(interrupted);
        const next = continuationRequest(request, interrupted);
        if (partial === '') {
          expect(next).toEqual({ ...request, stream: true });
        } else if (prefill) {
          expect(next).toEqual({
            ...request,
            stream: true,
            messages: [
              ...request.messages,
              {
                role: 'assistant',
                content: [
                  ...(thinking ? [THINKING] : []),
                  { type: 'text', text: partial.trimEnd() },
                ],
              },
            ],
          });
        } else {
          expect(next).toEqual({
            ...request,
            stream: true,
            messages: [askedToContinue('Tell me a story.', defaultInstruction(partial))],
          });
        }

        // A prefill is continued after it, never restated: 'repeat' is a user-message habit.
        const styles = prefill
          ? (['exact', 'space'] as const)
          : (['exact', 'repeat', 'space'] as const);
        for (const style of styles) {
          const body = continuationBody(style, partial, FULL);
          // a fresh start re-thinks; so does a user-message continuation
          const rethinks = thinking && (partial === '' || style === 'repeat');
          const continuation = finished(continuationStream('msg_b', body, rethinks));
          const merged = mergeContinuation(interrupted, continuation, {
            strategy: continuationStrategy(request, interrupted),
          });
          const where = `cut after event ${k}, ${style}`;
          expect(fullText(merged), where).toBe(FULL);
          expect(merged.status, where).toBe('complete');
          expect(merged.message?.stop_reason, where).toBe('stop_sequence');
          expect(merged.message?.stop_sequence, where).toBe('###');
          expect(merged.message?.id, where).toBe('msg_a');
          expect(blocks(merged).map((b) => b.index)).toEqual(blocks(merged).map((_, i) => i));
          expect(
            blocks(merged).every((b) => b.status === 'complete'),
            where,
          ).toBe(true);
          expect(merged.message?.usage, where).toEqual({
            input_tokens: 10 + 25,
            output_tokens: (interrupted.message?.usage.output_tokens ?? 0) + 30,
          });
          expect(
            merged.attempts?.map((a) => [a.messageId, a.status]),
            where,
          ).toEqual([
            [interrupted.message?.id ?? '', 'interrupted'],
            ['msg_b', 'complete'],
          ]);
          if (partial !== '' && thinking) {
            // the recovered thinking block is the very object the interrupted state had
            expect(blocks(merged)[0], where).toBe(blocks(interrupted)[0]);
          }
        }
      }
    },
  );

  it('a double interruption (a → b interrupted → c) merges to the whole text, 3 attempts', () => {
    const request = baseRequest('claude-sonnet-4-5');
    const a = cut(originalStream('msg_a', DELTAS, false).slice(0, 4)); // "The quick brown"
    expect(fullText(a)).toBe('The quick brown');
    const r1 = continuationRequest(request, a);
    expect(r1.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'The quick brown' }],
    });
    const rest = FULL.slice('The quick brown'.length);
    const b = cut(continuationStream('msg_b', rest, false).slice(0, 4)); // first half of rest
    const ab = mergeContinuation(a, b);
    expect(ab.status).toBe('interrupted');
    expect(canResume(ab)).toBe(true);
    const sofar = fullText(ab);
    expect(FULL.startsWith(sofar)).toBe(true);
    const r2 = continuationRequest(request, ab);
    expect(r2.messages).toEqual([
      ...request.messages,
      { role: 'assistant', content: [{ type: 'text', text: sofar.trimEnd() }] },
    ]);
    const c = finished(continuationStream('msg_c', FULL.slice(sofar.length), false));
    const abc = mergeContinuation(ab, c);
    expect(fullText(abc)).toBe(FULL);
    expect(abc.status).toBe('complete');
    expect(abc.attempts?.map((x) => [x.messageId, x.status])).toEqual([
      ['msg_a', 'interrupted'],
      ['msg_b', 'interrupted'],
      ['msg_c', 'complete'],
    ]);
    expect(abc.message?.usage).toEqual({ input_tokens: 10 + 25 + 25, output_tokens: 1 + 1 + 30 });
    expect(abc.message?.usage).toEqual(
      abc.attempts?.reduce((sum, x) => sumUsage(sum, x.usage), {}),
    );
  });

  it('property: random texts, random cuts, twice interrupted, resume to the whole text', () => {
    // Distinct words, none a prefix of another or made of a repeated part, so an exact
    // continuation never looks like a repeat at the seam.
    const WORDS = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
      'hotel',
      'india',
      'juliet',
      'kilo',
      'lima',
    ];
    const SEPARATORS = [' ', ' ', ', ', '.\n\n', '\n'];
    const textArb = fc
      .tuple(
        fc.shuffledSubarray(WORDS, { minLength: 2 }),
        fc.array(fc.constantFrom(...SEPARATORS), {
          minLength: WORDS.length,
          maxLength: WORDS.length,
        }),
      )
      .map(([words, seps]) =>
        words.map((w, i) => (i === 0 ? w : (seps[i] as string) + w)).join(''),
      );
    const arb = textArb.chain((full) =>
      fc.record({
        full: fc.constant(full),
        // Never inside a run of whitespace: a run split at the cut and continued verbatim
        // ("\n" | "\n") is shortened by the seam rule (see the module documentation).
        splits: fc.uniqueArray(
          fc
            .integer({ min: 1, max: full.length - 1 })
            .filter((i) => !(/\s/.test(full[i - 1] as string) && /\s/.test(full[i] as string))),
          { maxLength: 6 },
        ),
        cut1: fc.nat(),
        cut2: fc.nat(),
        style1: fc.constantFrom<Style>('exact', 'repeat', 'space'),
        style2: fc.constantFrom<Style>('exact', 'repeat', 'space'),
        model: fc.constantFrom('claude-sonnet-4-5', 'claude-opus-4-6'),
      }),
    );
    fc.assert(
      fc.property(arb, ({ full, splits, cut1, cut2, style1, style2, model }) => {
        const points = [0, ...[...splits].sort((x, y) => x - y), full.length];
        const deltas = points.slice(1).map((p, i) => full.slice(points[i], p));
        const request = baseRequest(model);
        const events = originalStream('msg_a', deltas, false);
        const a = cut(events.slice(0, 1 + (cut1 % (events.length - 1))));
        const pa = partialTextOf(a);
        const r1 = continuationRequest(request, a);
        if (pa === '') expect(r1).toEqual(request);
        // A prefill is continued after it, never restated: 'repeat' is a user-message habit.
        const prefill = resumeStrategyFor(model) === 'prefill';
        const styleOf = (style: Style): Style => (prefill && style === 'repeat' ? 'exact' : style);
        const bEvents = continuationStream(
          'msg_b',
          continuationBody(styleOf(style1), pa, full),
          false,
        );
        const b = cut(bEvents.slice(0, 1 + (cut2 % (bEvents.length - 1))));
        const ab = mergeContinuation(a, b, { strategy: continuationStrategy(request, a) });
        const pab = partialTextOf(ab);
        expect(full.startsWith(pab)).toBe(true);
        continuationRequest(request, ab);
        const c = finished(
          continuationStream('msg_c', continuationBody(styleOf(style2), pab, full), false),
        );
        const abc = mergeContinuation(ab, c, { strategy: continuationStrategy(request, ab) });
        expect(fullText(abc)).toBe(full);
        expect(abc.status).toBe('complete');
        expect(abc.attempts).toHaveLength(3);
        expect(abc.message?.usage).toEqual(
          abc.attempts?.reduce((sum, x) => sumUsage(sum, x.usage), {}),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('sumUsage: keys from the wire are data', () => {
  it('sums a __proto__ key as a field and leaves prototypes alone', () => {
    const a = JSON.parse('{"output_tokens":1}');
    const b = JSON.parse('{"output_tokens":2,"__proto__":{"server_tool_use":{"x":1}}}');
    const sum = sumUsage(a, b) as Record<string, unknown>;
    expect(sum.output_tokens).toBe(3);
    expect(Object.getPrototypeOf(sum)).toBe(Object.prototype);
    expect(sum.server_tool_use).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(sum, '__proto__')?.value).toEqual({
      server_tool_use: { x: 1 },
    });
  });
});

describe('the seam by strategy', () => {
  const textAnswer = (id: string, model: string, t: string, done: boolean) => {
    const events = [
      start(id, undefined, model),
      blockStart(0, { type: 'text', text: '' }),
      text(0, t),
    ];
    return done
      ? finished([...events, blockStop(0), messageDelta({ stop_reason: 'end_turn' }), stop])
      : cut(events);
  };
  const merged = (
    head: string,
    tail: string,
    model: string,
    options?: { strategy: 'prefill' | 'user-message' },
  ) =>
    fullText(
      mergeContinuation(
        textAnswer('msg_a', model, head, false),
        textAnswer('msg_b', model, tail, true),
        options,
      ),
    );

  it('a prefill continuation keeps a word the model wrote twice on purpose', () => {
    expect(merged('He said that', ' that was fine.', 'claude-sonnet-4-5')).toBe(
      'He said that that was fine.',
    );
    expect(
      merged('He said that', ' that was fine.', 'claude-opus-4-6', { strategy: 'prefill' }),
    ).toBe('He said that that was fine.');
  });

  it('a prefill continuation keeps a repeated Ruby end line', () => {
    expect(merged('  end\nend', '\nend\n', 'claude-sonnet-4-5')).toBe('  end\nend\nend\n');
  });

  it('a user-message continuation still drops the restated words', () => {
    expect(merged('The sky is blue because', 'blue because of light.', 'claude-opus-4-6')).toBe(
      'The sky is blue because of light.',
    );
  });

  it('a user-message continuation removes an emoji-only overlap instead of doubling it', () => {
    expect(merged('Well done 🎉', '🎉 Next step.', 'claude-opus-4-6')).toBe(
      'Well done 🎉 Next step.',
    );
  });

  it('continuationStrategy says which strategy continuationRequest used', () => {
    const interrupted = textAnswer('msg_a', 'claude-sonnet-4-5', 'Partial', false);
    const request = {
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [{ role: 'user' as const, content: 'Hi' }],
    };
    expect(continuationStrategy(request, interrupted)).toBe('prefill');
    expect(continuationStrategy({ ...request, model: 'claude-opus-4-6' }, interrupted)).toBe(
      'user-message',
    );
    expect(continuationStrategy(request, cut([start()]))).toBe('retry');
  });
});
