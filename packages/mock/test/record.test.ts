import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accumulate, streamMessage } from '@message-stream/core';
import { describe, expect, it } from 'vitest';
import {
  createMockFetch,
  fixtureRequest,
  parseFixtureHeader,
  type RecordEnd,
  type RecordedFixture,
  recordingFetch,
  recordStream,
  replay,
  teeToFixture,
  toFixtureText,
} from '../src/index.js';
import { writeFixture } from '../src/node.js';
import { bodyOf, concat, fixtureFile, readChunks } from './support/helpers.js';

const sse = (stream: ReadableStream<Uint8Array>) =>
  new Response(stream, { headers: { 'content-type': 'text/event-stream' } });

describe('recorder', () => {
  it('round-trips: record a replay, replay the recording, same final state', async () => {
    for (const name of ['spec-web-search', 'text-pings', 'no-event-lines', 'long-markdown']) {
      const text = fixtureFile(name);
      const live = sse(replay(text, { chunking: { minBytes: 1, maxBytes: 7 }, seed: 5 }));
      const { response, fixture } = teeToFixture(live, {
        name: `${name}-recorded`,
        description: 'A recording\nof a replay.',
        request: fixtureRequest(name),
      });
      const seenByApp = await accumulate(response.body as ReadableStream<Uint8Array>);
      const recorded = await fixture;
      expect(recorded.end).toBe('end');
      expect(recorded.status).toBe(200);
      expect(recorded.request).toEqual(fixtureRequest(name));
      const header = parseFixtureHeader(recorded.text);
      expect(header.name).toBe(`${name}-recorded`);
      expect(header.description).toBe('A recording of a replay.');
      expect(header.body).toBe(bodyOf(text));
      expect(seenByApp).toEqual(await accumulate(text));
      expect(await accumulate(replay(recorded.text))).toEqual(await accumulate(text));
    }
  });

  it('records a dropped stream as the truncated body it was', async () => {
    const text = fixtureFile('text-pings');
    const { response, fixture } = teeToFixture(sse(replay(text, { dropAfter: { bytes: 1234 } })), {
      name: 'prod-drop',
    });
    const seen = await accumulate(response.body as ReadableStream<Uint8Array>);
    const recorded = await fixture;
    expect(seen.status).toBe('interrupted');
    expect(recorded.end).toBe('error');
    expect(
      new TextEncoder().encode(parseFixtureHeader(recorded.text).body).length,
    ).toBeLessThanOrEqual(1234);
    const replayed = await accumulate(replay(recorded.text));
    expect(replayed.status).toBe('interrupted');
    expect(replayed.message).toEqual(seen.message);
  });

  it('recordStream passes every chunk through unchanged and tells the sink, and forwards cancel', async () => {
    const text = fixtureFile('spec-tool-use');
    const written: Uint8Array[] = [];
    const ends: RecordEnd[] = [];
    const { chunks } = await readChunks(
      recordStream(replay(text, { chunking: { minBytes: 1, maxBytes: 9 } }), {
        write: (chunk) => written.push(chunk),
        close: (end) => ends.push(end),
      }),
    );
    expect(written).toEqual(chunks);
    expect(new TextDecoder().decode(concat(chunks))).toBe(bodyOf(text));
    expect(ends).toEqual([{ type: 'end' }]);

    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array([58, 10])),
      cancel: (reason) => {
        cancelled = reason;
      },
    });
    const closed: RecordEnd[] = [];
    const reader = recordStream(source, { close: (end) => closed.push(end) }).getReader();
    await reader.read();
    await reader.cancel('done here');
    expect(cancelled).toBe('done here');
    expect(closed).toEqual([{ type: 'cancel', reason: 'done here' }]);
  });

  it('recordingFetch captures a streamed answer with its request; the capture replays the same', async () => {
    const captured: RecordedFixture[] = [];
    const fetch = recordingFetch((fixture) => captured.push(fixture), {
      fetch: createMockFetch(),
      name: (_request, n) => `bug-${n}`,
    });
    const request = { ...fixtureRequest('mcp-tool-use'), model: 'mock:mcp-tool-use' };
    const state = await streamMessage(request, { fetch, endpoint: '/v1/messages' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(captured).toHaveLength(1);
    expect(captured[0]?.name).toBe('bug-1');
    expect(captured[0]?.request).toEqual({ ...request, stream: true });
    const replayed = await streamMessage(
      { ...request, model: 'mock:bug-1' },
      { fetch: createMockFetch({ fixtures: { 'bug-1': captured[0]?.text ?? '' } }) },
    );
    expect(replayed).toEqual(state);
  });

  it('writeFixture writes the text (creating directories) and toFixtureText builds the header', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-fixtures-'));
    try {
      const text = toFixtureText('event: ping\ndata: {"type":"ping"}\n\n', {
        name: 'tiny',
        description: 'One ping.',
      });
      expect(text).toBe(
        ': name: tiny\n: description: One ping.\n\nevent: ping\ndata: {"type":"ping"}\n\n',
      );
      const path = await writeFixture(join(dir, 'nested', 'tiny.sse'), text);
      expect(readFileSync(path, 'utf8')).toBe(text);
      const again = await writeFixture(new URL(`file://${join(dir, 'again.sse')}`), { text });
      expect(readFileSync(again, 'utf8')).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
