import {
  accumulate,
  canResume,
  continuationRequest,
  type MessageRequest,
  mergeContinuation,
  type ResumeStrategy,
  type StreamState,
  streamMessage,
  toMessage,
} from '@message-stream/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  continuationText,
  detectContinuation,
  fixtureNames,
  fixtureRequest,
  replay,
} from '../src/index.js';
import { createReplayServer, type ReplayServer } from '../src/node.js';
import { splitSegments } from '../src/sse.js';
import { bodyOf, fixtureFile, textOfState } from './support/helpers.js';

const STRATEGIES: readonly ResumeStrategy[] = ['prefill', 'user-message'];

/** Interrupts a fixture after `bytes` bytes of its body (a drop, as a client sees it). */
const interruptAt = (text: string, bytes: number) =>
  accumulate(replay(text, { dropAfter: { bytes }, dropMode: 'close' }));

/** Resumes an interrupted state against the mock's continuation, as a client would. */
async function resume(
  name: string,
  text: string,
  interrupted: StreamState,
  strategy: ResumeStrategy,
): Promise<{ merged: StreamState; request: MessageRequest }> {
  const request = continuationRequest(fixtureRequest(name), interrupted, { strategy });
  const continuation = detectContinuation(request);
  const rest =
    continuation === null ? text : continuationText(text, continuation.partialText, { seed: 1 });
  return { merged: mergeContinuation(interrupted, await accumulate(rest)), request };
}

/** Fixtures whose uninterrupted answer completes, and that have text to resume from. */
const RESUMABLE = fixtureNames.filter(
  (name) => !['in-stream-error', 'truncated-mid-tool', 'large-tool-input'].includes(name),
);

describe('continuationText: the rest of a fixture after a partial answer', () => {
  it.each(RESUMABLE)(
    '%s: cut at every event boundary and mid-event, merged = the uninterrupted answer (both strategies)',
    async (name) => {
      const text = fixtureFile(name);
      const full = await accumulate(text);
      const body = new TextEncoder().encode(bodyOf(text));
      // Every event boundary, and a point inside each event (mid-line, maybe mid-character).
      const cuts = new Set<number>();
      let offset = 0;
      for (const segment of splitSegments(bodyOf(text))) {
        const size = new TextEncoder().encode(segment.text).length;
        cuts.add(offset + Math.floor(size / 2));
        offset += size;
        cuts.add(offset);
      }
      const step = Math.max(1, Math.floor(cuts.size / 60)); // long-markdown: a sample of 60
      const sample = [...cuts].filter((_, i) => i % step === 0 && _ < body.length);
      let resumed = 0;
      for (const cut of sample) {
        const interrupted = await interruptAt(text, cut);
        if (!canResume(interrupted)) continue;
        for (const strategy of STRATEGIES) {
          const { merged, request } = await resume(name, text, interrupted, strategy);
          const label = `${name} cut at byte ${cut}, ${strategy}`;
          expect(merged.status, label).toBe(full.status);
          expect(textOfState(merged), label).toBe(textOfState(full));
          expect(toMessage(merged)?.content, label).toEqual(toMessage(full)?.content);
          expect(toMessage(merged)?.stop_reason, label).toBe(toMessage(full)?.stop_reason);
          if (detectContinuation(request)) resumed++;
        }
      }
      if (textOfState(full).trim() !== '') expect(resumed).toBeGreaterThan(0);
    },
    60_000,
  );

  it('answers with a fresh message whose first text block continues exactly where the partial ended', () => {
    const text = fixtureFile('text-pings');
    const rest = continuationText(text, 'Both declare block-scoped variables, b');
    const events = splitSegments(rest).filter((segment) => segment.isEvent);
    expect(events[0]?.json?.type).toBe('message_start');
    const message = events[0]?.json?.message as { id: string; content: unknown[] } | undefined;
    expect(message?.id).not.toBe('msg_018yUGQ9AVl5Qu6g3QQ6Onih');
    expect(message?.content).toEqual([]);
    expect(events[1]?.json).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(events[2]?.json).toMatchObject({ delta: { type: 'text_delta', text: 'ut' } });
    expect(events.at(-1)?.json).toEqual({ type: 'message_stop' });
  });

  it('moves a cut after whitespace back to the start of that whitespace', () => {
    const text = fixtureFile('text-pings');
    const rest = continuationText(
      text,
      'Both declare block-scoped variables, but **`const`** bindings cannot be reassigned after initialization while **`let`** bindings can.\n',
    );
    const firstDelta = splitSegments(rest).find(
      (segment) => segment.type === 'content_block_delta',
    );
    expect(firstDelta?.json).toMatchObject({ delta: { text: '\n\n' } });
  });

  it('continues a cut at the end of a block with that block, empty, then the later blocks', async () => {
    const text = fixtureFile('spec-tool-use');
    const full = await accumulate(text);
    const preamble = (full.message?.content[0]?.block as { text?: string } | undefined)?.text;
    expect(preamble).toMatch(/\S/);
    const rest = await accumulate(continuationText(text, preamble ?? ''));
    expect(rest.message?.content.map((entry) => entry.block.type)).toEqual(['text', 'tool_use']);
    expect(rest.message?.content[0]?.block).toEqual({ type: 'text', text: '' });
    expect(rest.message?.content[1]?.block).toEqual(full.message?.content[1]?.block);
  });
});

describe('resume end to end through the replay server', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await createReplayServer();
  });
  afterAll(() => server.close());

  it.each([
    ['prefill', 'drop-after-events:1200'],
    ['user-message', 'drop-after-events:1200'],
    ['prefill', 'drop-after-bytes:150001'],
    ['user-message', 'close-after-bytes:98765'],
  ] as const)(
    '%s after %s: two requests, and the merged answer is the uninterrupted fixture',
    async (strategy, fault) => {
      const before = server.requests.length;
      const original = fixtureRequest('long-markdown');
      const options = {
        endpoint: server.endpoint,
        headers: { 'x-mock-scenario': `long-markdown;fault=${fault};chunking=1-300` },
      };
      const interrupted = await streamMessage(original, options);
      expect(interrupted.status).toBe('interrupted');
      expect(canResume(interrupted)).toBe(true);
      const request = continuationRequest(original, interrupted, { strategy });
      const continuation = await streamMessage(request, options);
      expect(continuation.status).toBe('complete');
      const merged = mergeContinuation(interrupted, continuation);
      const full = await accumulate(fixtureFile('long-markdown'));
      expect(merged.status).toBe('complete');
      expect(textOfState(merged)).toBe(textOfState(full));
      expect(textOfState(interrupted).length).toBeGreaterThan(1000);
      expect(textOfState(interrupted).length).toBeLessThan(textOfState(full).length);
      expect(server.requests.length - before).toBe(2);
      const sent = server.requests.at(-1)?.body as MessageRequest;
      const last = sent.messages.at(-1);
      if (strategy === 'prefill') expect(last?.role).toBe('assistant');
      else {
        // The request to continue ends the user's own turn: roles still alternate.
        expect(sent.messages.map((m) => m.role)).toEqual(original.messages.map((m) => m.role));
        const ask = Array.isArray(last?.content) ? last.content.at(-1) : undefined;
        expect(ask?.type === 'text' ? ask.text : '').toMatch(
          /^Your previous response was interrupted/,
        );
      }
    },
    30_000,
  );

  it('resumes a thinking answer with the user-message strategy (mock: model)', async () => {
    const original = { ...fixtureRequest('spec-thinking'), model: 'mock:spec-thinking' };
    const options = {
      endpoint: server.endpoint,
      headers: { 'x-mock-scenario': 'spec-thinking;fault=drop-after-events:10' },
    };
    const interrupted = await streamMessage(original, options);
    expect(interrupted.status).toBe('interrupted');
    const request = continuationRequest(original, interrupted);
    expect(request.messages.at(-1)?.role).toBe('user');
    const merged = mergeContinuation(interrupted, await streamMessage(request, options));
    const full = await accumulate(fixtureFile('spec-thinking'));
    expect(merged.status).toBe('complete');
    expect(toMessage(merged)?.content).toEqual(toMessage(full)?.content);
  });
});
