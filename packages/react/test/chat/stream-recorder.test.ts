import { createMockFetch, SCENARIO_HEADER } from '@message-stream/mock';
import { describe, expect, it } from 'vitest';
import { createStreamRecorder } from '../../src/chat/stream-recorder.js';
import { fixture } from '../store/support.js';

const body = fixture('spec-basic-text');
const messageId = /"id"\s*:\s*"(msg_[^"]+)"/.exec(body)?.[1] ?? '';

const post = (fetch: typeof globalThis.fetch, scenario = 'spec-basic-text') =>
  fetch('/v1/messages', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SCENARIO_HEADER]: scenario },
    body: JSON.stringify({ model: 'm', max_tokens: 10, stream: true, messages: [] }),
  });

describe('createStreamRecorder', () => {
  it('passes the body through unchanged and keeps the same bytes under the message id', async () => {
    const recorder = createStreamRecorder({
      fetch: createMockFetch({ fixtures: { 'spec-basic-text': body } }),
    });
    const read = await (await post(recorder.fetch)).text();
    expect(messageId).not.toBe('');
    expect(recorder.get(messageId)?.text).toBe(read);
    expect(read).toContain('event: message_stop');
  });

  it('leaves a response that is not an event stream alone', async () => {
    const recorder = createStreamRecorder({
      fetch: async () =>
        new Response('{"type":"error"}', {
          status: 429,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const response = await post(recorder.fetch);
    expect(response.status).toBe(429);
    expect(await response.text()).toBe('{"type":"error"}');
  });

  it('keeps only the newest streams past its limit', async () => {
    let n = 0;
    const recorder = createStreamRecorder({
      limit: 1,
      fetch: async () =>
        new Response(body.replace(messageId, `msg_${++n}`), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    });
    await (await post(recorder.fetch)).text();
    await (await post(recorder.fetch)).text();
    expect(recorder.get('msg_1')).toBeUndefined();
    expect(recorder.get('msg_2')?.text).toContain('msg_2');
  });
});
