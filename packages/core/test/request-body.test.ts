import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageRequest } from '../src/protocol.js';
import { prepareMessagesJson, requestBody } from '../src/request-body.js';

const message = fc.record({
  role: fc.constantFrom('user', 'assistant'),
  content: fc.oneof(
    fc.string(),
    fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }), { maxLength: 3 }),
  ),
});

describe('requestBody', () => {
  it('is the string JSON.stringify gives for the request with stream: true', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(message, fc.boolean()), { maxLength: 8 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
        fc.boolean(),
        (messages, extra, streamFirst) => {
          const list = messages.map(([m, frozen]) => (frozen ? Object.freeze({ ...m }) : m));
          const base = { model: 'claude-opus-5', max_tokens: 64, messages: list, ...extra };
          const request = (streamFirst ? { stream: false, ...base } : base) as MessageRequest;
          expect(requestBody(request)).toBe(JSON.stringify({ ...request, stream: true }));
        },
      ),
    );
  });

  it('leaves out what JSON leaves out, and writes holes and undefined entries as null', () => {
    const messages = [undefined, { role: 'user', content: 'hi' }] as unknown as unknown[];
    messages.length = 3;
    const request = {
      model: 'm',
      max_tokens: 1,
      messages,
      metadata: undefined,
      system: () => 'no',
    } as unknown as MessageRequest;
    expect(requestBody(request)).toBe(JSON.stringify({ ...request, stream: true }));
    expect(JSON.parse(requestBody(request)).messages).toEqual([
      null,
      { role: 'user', content: 'hi' },
      null,
    ]);
    // A first property left out leaves no stray comma behind it.
    const leading = { skipped: undefined, messages: [], model: 'm' } as unknown as MessageRequest;
    expect(requestBody(leading)).toBe('{"messages":[],"model":"m","stream":true}');
  });

  it('reads a frozen message once, however often it is sent; an unfrozen one every time', () => {
    let frozenReads = 0;
    let plainReads = 0;
    const frozen = Object.freeze({
      role: 'user',
      get content() {
        frozenReads++;
        return 'first question';
      },
    });
    const plain = {
      role: 'assistant',
      get content() {
        plainReads++;
        return 'an answer';
      },
    };
    const request = { model: 'm', max_tokens: 1, messages: [frozen, plain] } as MessageRequest;
    const bodies = [requestBody(request), requestBody(request), requestBody(request)];
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] as string).messages[0]).toEqual({
      role: 'user',
      content: 'first question',
    });
    expect(frozenReads).toBe(1);
    expect(plainReads).toBe(3);
  });

  it('serializes frozen messages ahead with prepareMessagesJson, and skips the rest', () => {
    const reads = { frozen: 0, plain: 0 };
    const counted = (key: keyof typeof reads, content: string) => ({
      role: 'user',
      get content() {
        reads[key]++;
        return content;
      },
    });
    const frozen = Object.freeze(counted('frozen', 'ahead'));
    const plain = counted('plain', 'later');
    prepareMessagesJson([frozen, plain, null, 'text']);
    expect(reads).toEqual({ frozen: 1, plain: 0 });
    const body = requestBody({
      model: 'm',
      max_tokens: 1,
      messages: [frozen, plain],
    } as MessageRequest);
    expect(reads).toEqual({ frozen: 1, plain: 1 });
    expect(JSON.parse(body).messages).toEqual([
      { role: 'user', content: 'ahead' },
      { role: 'user', content: 'later' },
    ]);
  });

  it('throws what JSON.stringify throws', () => {
    const cyclic: Record<string, unknown> = { role: 'user' };
    cyclic.content = cyclic;
    const request = { model: 'm', max_tokens: 1, messages: [cyclic] } as unknown as MessageRequest;
    expect(() => requestBody(request)).toThrow(TypeError);
  });
});
