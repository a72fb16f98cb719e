// @vitest-environment node
import { accumulate } from '@message-stream/core';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fixture } from '../store/support.js';

describe('server rendering', () => {
  it('imports and renders without a window or document', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    const { ChatStream, createChatStore, ContentBlockView } = await import('../../src/index.js');
    // The server renders a store's initial state (what the client hydrates from).
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 64 },
      initialMessages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi **there**.' },
      ],
    });
    const html = renderToString(<ChatStream store={store} />);
    expect(html).toContain('role="log"');
    expect(html).toContain('<strong>there</strong>');

    const state = await accumulate(fixture('spec-thinking'));
    const block = state.message?.content[0];
    if (!block) throw new Error('spec-thinking has no first block');
    expect(renderToString(<ContentBlockView block={block} />)).toContain('aria-expanded');
  });
});
