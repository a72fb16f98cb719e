/** The rules the other packages call instead of restating: one definition each, in core. */
import { describe, expect, it } from 'vitest';
import {
  canResume,
  createStreamError,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_TOOL_ROUNDTRIPS,
  emptyMessage,
  endStream,
  isPlainObject,
  sendableContent,
  splitSseLines,
} from '../src/index.js';
import {
  blockStart,
  blockStop,
  delta,
  json,
  messageStart,
  run,
  stop,
  text,
} from './support/events.js';

describe('sendableContent', () => {
  const answer = run([
    messageStart(),
    blockStart(0, { type: 'thinking', thinking: '' }),
    delta(0, { type: 'thinking_delta', thinking: 'Let me see.' }),
    delta(0, { type: 'signature_delta', signature: 'sig' }),
    blockStop(0),
    blockStart(1, { type: 'text', text: '', citations: null }),
    text(1, 'Checking. '),
    blockStop(1),
    blockStart(2, { type: 'text', text: '' }),
    text(2, '  \n'),
    blockStop(2),
    blockStart(3, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }),
    json(3, '{"city":"Paris"}'),
    blockStop(3),
  ]);

  it('keeps signed thinking and text, drops whitespace-only text and null citations', () => {
    expect(sendableContent(answer)).toEqual([
      { type: 'thinking', thinking: 'Let me see.', signature: 'sig' },
      { type: 'text', text: 'Checking. ' },
    ]);
  });

  it('keeps a client tool_use only when the caller says it was answered', () => {
    const content = sendableContent(answer, { isAnswered: (id) => id === 'toolu_1' });
    expect(content.at(-1)).toEqual({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'get_weather',
      input: { city: 'Paris' },
    });
  });

  it('never sends thinking without a signature, nor a block cut off mid-way, but keeps cut text', () => {
    const cut = endStream(
      run([
        messageStart(),
        blockStart(0, { type: 'thinking', thinking: '' }),
        delta(0, { type: 'thinking_delta', thinking: 'unsigned' }),
        blockStop(0),
        blockStart(1, { type: 'text', text: '' }),
        text(1, 'Half a sent'),
        blockStop(1),
        blockStart(2, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
        json(2, '{"query":"wea'),
      ]),
    );
    expect(cut.message?.content[2]?.status).toBe('incomplete');
    expect(sendableContent(cut)).toEqual([{ type: 'text', text: 'Half a sent' }]);
  });

  it('is empty before any message', () => {
    expect(sendableContent(run([]))).toEqual([]);
  });
});

describe('canResume', () => {
  const interrupted = endStream(run([messageStart(), blockStart(0, { type: 'text', text: '' })]));

  it('is true for an interrupted answer and false once message_stop arrived', () => {
    expect(canResume(interrupted)).toBe(true);
    // An answer that is whole needs no resume, whatever the status says.
    expect(canResume({ ...interrupted, stopReceived: true })).toBe(false);
  });

  it('follows the error: retryable yes, not retryable no', () => {
    const failed = (retryable: boolean) =>
      endStream(run([messageStart()]), {
        type: 'error',
        error: createStreamError({ type: 'api_error', message: 'x', retryable }),
      });
    expect(canResume(failed(true))).toBe(true);
    expect(canResume(failed(false))).toBe(false);
    expect(canResume(endStream(run([messageStart(), stop])))).toBe(false);
  });
});

describe('emptyMessage', () => {
  it('gives every field its empty value, and takes overrides but never content', () => {
    expect(emptyMessage()).toEqual({
      id: '',
      type: 'message',
      role: 'assistant',
      model: '',
      stop_reason: null,
      stop_sequence: null,
      usage: {},
      content: [],
    });
    const finished = emptyMessage({ stop_reason: 'end_turn', content: ['x'] } as never);
    expect(finished.stop_reason).toBe('end_turn');
    expect(finished.content).toEqual([]);
  });
});

describe('isPlainObject', () => {
  it('accepts objects only', () => {
    expect([{}, Object.create(null), [], null, 'x', 1].map(isPlainObject)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('defaults and line ends', () => {
  it('names the defaults the packages share', () => {
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(60_000);
    expect(DEFAULT_MAX_TOOL_ROUNDTRIPS).toBe(8);
  });

  it('splits SSE text at CRLF, CR and LF alike', () => {
    expect(splitSseLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
  });
});
