import { createMockFetch, type MockRequestInfo, SCENARIO_HEADER } from '@message-stream/mock';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatStream, createChatStore } from '../../src/index.js';
import { fixture, mapStorage } from '../store/support.js';

const request = { model: 'claude-opus-5', max_tokens: 1024 };
const fixtures = { 'spec-basic-text': fixture('spec-basic-text') };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a rate limit retried by itself', () => {
  it('retries by itself once, not again each time the automatic retry is itself rate limited', async () => {
    const requests: MockRequestInfo[] = [];
    const store = createChatStore({
      request,
      fetch: createMockFetch({ fixtures, onRequest: (info) => requests.push(info) }),
      headers: {
        [SCENARIO_HEADER]: 'spec-basic-text;fault=http:rate-limit;times=6;retry-after-ms=50',
      },
      batch: false,
      retry: false,
    });
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Hi'));
    // The user asked once; the server keeps answering 429. The retry's own 429 is a new
    // error, and it must not be waited out and retried again with nobody asking.
    for (let i = 0; i < 12; i++) await act(() => sleep(250));
    expect(requests).toHaveLength(2);
    // What is left is the user's to decide: Retry, with no countdown.
    expect(screen.queryByText(/^Retrying in/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    // With no countdown, the notice says how long the service asked to wait.
    expect(screen.getByRole('alert').textContent).toContain(
      'Too many requests: the service asked to wait 1 s before trying again.',
    );
  });

  it('is not retried by itself when a stored conversation is opened later', async () => {
    const requests: MockRequestInfo[] = [];
    const { storage } = mapStorage();
    const first = createChatStore({
      request,
      fetch: createMockFetch({ fixtures, onRequest: (info) => requests.push(info) }),
      headers: {
        [SCENARIO_HEADER]: 'spec-basic-text;fault=http:rate-limit;times=1;retry-after-ms=100',
      },
      batch: false,
      retry: false,
      persist: { name: 'attack-429', storage },
    });
    await first.restored;
    await first.getState().send('Hi');
    expect(first.getState().status).toBe('error');
    await first.flush();
    first.dispose();
    expect(requests).toHaveLength(1);

    // Days later: the page opens the conversation. Nothing is clicked.
    const later: MockRequestInfo[] = [];
    const reopened = createChatStore({
      request,
      fetch: createMockFetch({ fixtures, onRequest: (info) => later.push(info) }),
      headers: { [SCENARIO_HEADER]: 'spec-basic-text' },
      batch: false,
      retry: false,
      persist: { name: 'attack-429', storage },
    });
    await reopened.restored;
    render(<ChatStream store={reopened} />);
    await waitFor(() => expect(reopened.getState().turns).toHaveLength(2));
    await act(() => sleep(1500));
    expect(later).toHaveLength(0);
    expect(screen.queryByText(/^Retrying in/)).toBeNull();
  });

  it('is not retried by itself when an earlier version of the question is shown again', async () => {
    const requests: MockRequestInfo[] = [];
    const store = createChatStore({
      request,
      fetch: createMockFetch({ fixtures, onRequest: (info) => requests.push(info) }),
      headers: {
        [SCENARIO_HEADER]: 'spec-basic-text;fault=http:rate-limit;times=1;retry-after-ms=1500',
      },
      batch: false,
      retry: false,
    });
    render(<ChatStream store={store} />);
    await act(() => store.getState().send('Hi'));
    expect(screen.getByText(/^Retrying in \d s$/)).toBeDefined();
    const question = store.getState().turns[0]?.id as string;
    // During the countdown the user edits the question instead: a new version, answered.
    await act(() => store.getState().edit(question, 'Hello'));
    await waitFor(() => expect(store.getState().status).toBe('complete'));
    expect(requests).toHaveLength(2);
    await act(() => sleep(1700));
    // Later, the user looks at the first version of the question again. Nothing is clicked.
    act(() => store.getState().selectBranch(question, 0));
    for (let i = 0; i < 4; i++) await act(() => sleep(250));
    expect(requests).toHaveLength(2);
  });
});
