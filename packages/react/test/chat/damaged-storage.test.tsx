import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { mapStorage, scriptedFetch, sse, textAnswer } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function record(answerStream: Record<string, unknown>, fileNames: unknown) {
  return JSON.stringify({
    state: {
      tree: {
        nodes: {
          u1: {
            id: 'u1',
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              { type: 'text', text: 'What is this?' },
            ],
            fileNames,
          },
          a1: {
            id: 'a1',
            role: 'assistant',
            request,
            stream: {
              status: 'complete',
              message: {
                id: 'msg_1',
                type: 'message',
                role: 'assistant',
                model: 'claude-opus-5',
                stop_reason: 'end_turn',
                stop_sequence: null,
                usage: { input_tokens: 10, output_tokens: 5 },
                content: [
                  { index: 0, status: 'complete', block: { type: 'text', text: 'A pixel.' } },
                ],
              },
              superseded: [],
              stopReceived: true,
              error: null,
              diagnostics: [],
              ...answerStream,
            },
            toolResults: {},
            startedAt: 1,
            finishedAt: 2,
          },
        },
        parents: { u1: '', a1: 'u1' },
        children: { '': ['u1'], u1: ['a1'] },
        selected: { '': 0, u1: 0 },
      },
    },
    version: 1,
  });
}

async function open(value: string) {
  const { storage } = mapStorage(new Map([['damaged', value]]));
  const { fetch, requests } = scriptedFetch(() => sse(textAnswer('ok')));
  const store = createChatStore({
    request,
    fetch,
    batch: false,
    persist: { name: 'damaged', storage },
  });
  await store.restored;
  return { store, requests };
}

describe('damaged stored records, shown and edited', () => {
  it.each([
    ['attempts not a list', { attempts: 'oops' }],
    ['attempts holding null', { attempts: [null] }],
  ])('a stored answer whose %s still shows, without throwing', async (_, stream) => {
    const { store } = await open(record(stream, ['pixel.png']));
    expect(store.getState().turns).toHaveLength(2);
    expect(() => render(<ChatStream store={store} />)).not.toThrow();
    expect(screen.getByText('A pixel.')).toBeDefined();
  });

  it.each([
    ['numbers', [42]],
    ['an object', [{ name: 'x' }]],
    ['a string, not a list', 'pixel.png'],
    ['a huge name', ['x'.repeat(2_000_000)]],
  ])(
    'file names stored as %s: shown or replaced, and an edit of the text keeps the file',
    async (_, names) => {
      const { store, requests } = await open(record({}, names));
      render(<ChatStream store={store} />);
      expect(screen.getByText('A pixel.')).toBeDefined();
      await act(() => store.getState().edit('u1', 'And now?'));
      await waitFor(() => expect(store.getState().status).toBe('complete'));
      const edited = store.getState().turns[0] as { content: unknown; fileNames?: unknown };
      expect(Array.isArray(edited.content)).toBe(true);
      expect(requests).toHaveLength(1);
      // Whatever was stored, the kept names are strings or null (what the type says).
      for (const name of (edited.fileNames as unknown[] | undefined) ?? []) {
        expect(name === null || typeof name === 'string').toBe(true);
      }
    },
  );
});
