import { readFileSync } from 'node:fs';
import type { StreamState } from '@message-stream/core';

/** A fixture's text straight from disk: the oracle the loaders and replays are checked against. */
export const fixtureFile = (name: string): string =>
  readFileSync(new URL(`../../fixtures/${name}.sse`, import.meta.url), 'utf8');

export const catalogFile = (): Array<{
  name: string;
  file: string;
  description: string;
  request: Record<string, unknown>;
}> => JSON.parse(readFileSync(new URL('../../fixtures/catalog.json', import.meta.url), 'utf8'));

/** Every chunk of a stream, or the error it ended with. */
export async function readChunks(
  stream: ReadableStream<Uint8Array>,
): Promise<{ chunks: Uint8Array[]; error?: unknown }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks };
      chunks.push(value);
    }
  } catch (error) {
    return { chunks, error };
  }
}

export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export const decodeAll = (chunks: readonly Uint8Array[]): string =>
  new TextDecoder().decode(concat(chunks));

/** The body of a fixture: its text after the header comments. */
export function bodyOf(text: string): string {
  const match = /^(?::[^\r\n]*(?:\r\n|\r|\n))+(?:\r\n|\r|\n)/.exec(text);
  return match ? text.slice(match[0].length) : text;
}

/** All text of a state's text blocks, joined. */
export const textOfState = (state: StreamState): string =>
  (state.message?.content ?? [])
    .map((entry) => (entry.block.type === 'text' ? (entry.block as { text: string }).text : ''))
    .join('');
