import { createMockFetch, SCENARIO_HEADER } from '@message-stream/mock';
import longMarkdown from '@message-stream/mock/fixtures/long-markdown.sse?raw';
import basicText from '@message-stream/mock/fixtures/spec-basic-text.sse?raw';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { withDefaultStyles } from '../browser-styles.js';

const fixtures = { 'long-markdown': longMarkdown, 'spec-basic-text': basicText };
withDefaultStyles();
afterEach(() => cleanup());
const log = () => screen.getByRole('log', { name: 'Conversation' });
const frames = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('a version picker kept in place', () => {
  it('two arrow presses before a frame: the picker ends where it was pressed', async () => {
    // Versions of the question: long, short, long answers.
    const scenarios = ['long-markdown', 'spec-basic-text', 'long-markdown', 'spec-basic-text'];
    const store = createChatStore({
      request: { model: 'claude-opus-5', max_tokens: 1024 },
      fetch: createMockFetch({ fixtures }),
      headers: () => ({ [SCENARIO_HEADER]: scenarios.shift() ?? 'spec-basic-text' }),
      retry: false,
    });
    render(
      <div style={{ height: '600px' }}>
        <ChatStream store={store} />
      </div>,
    );
    await store.getState().send('Earlier question');
    await store.getState().send('Write a guide.');
    const id = () => store.getState().turns[2]?.id as string;
    await store.getState().edit(id(), 'Hello');
    await store.getState().edit(id(), 'Write it again.');
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    const picker = () =>
      within(screen.getAllByRole('article', { name: 'You said' })[1] as HTMLElement).getByRole(
        'group',
      );
    await waitFor(() => expect(picker().getAttribute('aria-label')).toMatch(/3 of 3$/));
    // Scrolled so the picker is mid-screen.
    log().scrollTop +=
      picker().getBoundingClientRect().top - log().getBoundingClientRect().top - 250;
    await frames();
    const before = picker().getBoundingClientRect().top;
    within(picker())
      .getByRole('button', { name: /^Previous/ })
      .focus();
    const press = () =>
      (document.activeElement as HTMLElement).dispatchEvent(
        new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }),
      );
    let framed = 0;
    requestAnimationFrame(() => framed++);
    press();
    // The next task, before any frame (a busy page, a held key).
    await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      channel.port2.postMessage(null);
    });
    press();
    await waitFor(() => expect(picker().getAttribute('aria-label')).toMatch(/1 of 3$/));
    await frames();
    expect(Math.abs(picker().getBoundingClientRect().top - before)).toBeLessThanOrEqual(1);
  });
});
