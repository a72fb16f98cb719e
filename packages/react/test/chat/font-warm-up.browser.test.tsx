import { createMockFetch, SCENARIO_HEADER } from '@message-stream/mock';
import basicText from '@message-stream/mock/fixtures/spec-basic-text.sse?raw';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { faceOf } from '../../src/chat/face-specimen.js';
import { ChatStream, createChatStore } from '../../src/index.js';
import { withDefaultStyles } from '../browser-styles.js';

// Real fonts and styles: these run in Chromium only.

withDefaultStyles();
afterEach(cleanup);

const RICH = [
  '# A title with `code`',
  '',
  '## A section, *emphasis*, **strong** and `code`',
  '',
  '### A subsection with `code`',
  '',
  'Text with *emphasis*, **strong**, ***both*** and `inline code`.',
  '',
  '| Name | Value |',
  '| --- | --- |',
  '| `key` | plain |',
  '',
  '```ts',
  'const answer = 42; // a comment',
  '```',
].join('\n');

/** The faces of every element that shows text of its own. */
function facesShownIn(root: Element): Set<string> {
  const faces = new Set<string>();
  for (const element of root.querySelectorAll('*')) {
    const ownText = [...element.childNodes].some(
      (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
    );
    if (ownText && element.getClientRects().length > 0) {
      faces.add(faceOf(getComputedStyle(element)));
    }
  }
  return faces;
}

describe('answer faces looked up before the first answer', () => {
  it('holds every face a rich answer shows, hidden and without the kit classes, until unmount', async () => {
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 1024 },
      fetch: createMockFetch({ fixtures: { 'spec-basic-text': basicText } }),
      headers: { [SCENARIO_HEADER]: 'spec-basic-text' },
      retry: false,
    });
    const { unmount } = render(
      <div style={{ height: '800px' }}>
        <ChatStream store={store} />
      </div>,
    );
    const holder = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-ms-faces]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(holder.getAttribute('aria-hidden')).toBe('true');
    expect(getComputedStyle(holder).visibility).toBe('hidden');
    expect(holder.querySelector('[class]')).toBeNull();
    const held = new Set([...holder.children].map((span) => faceOf(getComputedStyle(span))));

    store.getState().setMessages([
      { role: 'user', content: 'Show me everything' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: RICH },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }],
      },
      { role: 'assistant', content: 'It is sunny.' },
    ]);
    await store.getState().send('And a streamed answer?');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    await screen.findByText('A title with');
    const log = screen.getByRole('log', { name: 'Conversation' });
    const answers = [...log.querySelectorAll('.ms-message--assistant')];
    expect(answers.length).toBeGreaterThanOrEqual(3);

    const shown = new Set<string>();
    for (const answer of answers) for (const face of facesShownIn(answer)) shown.add(face);
    expect(shown.size).toBeGreaterThan(8);
    expect([...shown].filter((face) => !held.has(face))).toEqual([]);

    unmount();
    expect(holder.isConnected).toBe(false);
  });
});
