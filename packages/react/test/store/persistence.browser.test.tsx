import { createMockFetch } from '@message-stream/mock';
import { describe, expect, it } from 'vitest';
import { createChatStore } from '../../src/store/create-chat-store.js';

const request = { model: 'claude-opus-5', max_tokens: 256 };

describe('persistence on real IndexedDB (Chromium)', () => {
  it('a re-created store reads back every branch, written to IndexedDB by default', async () => {
    expect(typeof indexedDB).toBe('object');
    const name = `browser-${crypto.randomUUID()}`;
    const fetch = createMockFetch({ defaultFixture: 'spec-basic-text' });
    const before = createChatStore({ request, fetch, batch: false, persist: { name } });
    await before.restored;
    await before.getState().send('Hello');
    await before.getState().regenerate();
    await before.flush();
    before.dispose();

    const after = createChatStore({ request, batch: false, persist: { name } });
    await after.restored;
    const answer = after.getState().turns[1]?.id as string;
    expect(after.getState().turns.map((turn) => turn.role)).toEqual(['user', 'assistant']);
    expect(after.getState().branchesOf(answer)).toEqual({ index: 1, count: 2 });
    expect(after.getState().status).toBe('complete');
    // The records are in the page's IndexedDB, in the kit's database.
    const databases = await indexedDB.databases();
    expect(databases.map((db) => db.name)).toContain('message-stream');
  });
});
