import { createStreamError, createStreamState, type StreamState } from '@message-stream/core';
import maxTokens from '@message-stream/mock/fixtures/max-tokens.sse?raw';
import refusal from '@message-stream/mock/fixtures/refusal.sse?raw';
import basicText from '@message-stream/mock/fixtures/spec-basic-text.sse?raw';
import stopSequence from '@message-stream/mock/fixtures/stop-sequence.sse?raw';
import truncated from '@message-stream/mock/fixtures/truncated-mid-tool.sse?raw';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { partialUsage, stopReasonInfo, streamFigures } from '../../src/components/answer-info.js';
import { EmptyState } from '../../src/components/empty-state.js';
import { MessageActions } from '../../src/components/message-actions.js';
import { recoveryFor } from '../../src/components/recovery.js';
import { ResumeControl } from '../../src/components/resume-control.js';
import { StopReasonNotice } from '../../src/components/stop-reason-notice.js';
import { StreamDetails } from '../../src/components/stream-details.js';
import { UsageBadge } from '../../src/components/usage-badge.js';
import { axeViolations, finalState } from './support.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const noop = () => {};

/** A request that failed before anything arrived, as the transport reports it. */
const failedBeforeAnything = (
  error = createStreamError({ type: 'overloaded_error', message: '' }),
) => ({ ...createStreamState(), status: 'error', error }) as StreamState;

const rateLimited = (retryAfterMs?: number) =>
  failedBeforeAnything(
    createStreamError({ type: 'rate_limit_error', message: '', status: 429, retryAfterMs }),
  );

/** The partial answer of a stream cut off mid-answer: the same state with status interrupted. */
const interrupted = async (): Promise<StreamState> => {
  const state = await finalState(truncated);
  expect(state.status).toBe('interrupted');
  return state;
};

describe('StopReasonNotice', () => {
  it('says the length limit was reached and offers Continue (max_tokens)', async () => {
    const user = userEvent.setup();
    const onContinue = vi.fn();
    render(<StopReasonNotice stream={await finalState(maxTokens)} onContinue={onContinue} />);
    expect(screen.getByText('The answer reached the length limit.')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledTimes(1);
  });

  it('shows the length notice without a button when no Continue is wired', async () => {
    render(<StopReasonNotice stream={await finalState(maxTokens)} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('The answer reached the length limit.')).toBeDefined();
  });

  it('says the model declined (refusal) as a note', async () => {
    render(<StopReasonNotice stream={await finalState(refusal)} />);
    expect(screen.getByRole('note').textContent).toMatch(/declined/);
  });

  it('names the stop sequence that ended the answer', async () => {
    const state = await finalState(stopSequence);
    render(<StopReasonNotice stream={state} />);
    expect(stopReasonInfo(state)?.kind).toBe('note');
    expect(screen.getByText(/Stopped at the stop sequence/).textContent).toContain('Human:');
  });

  it('gives the context-window stop a quiet note', async () => {
    const base = await finalState(basicText);
    const message = base.message;
    if (!message) throw new Error('no message');
    const full: StreamState = {
      ...base,
      message: { ...message, stop_reason: 'model_context_window_exceeded' },
    };
    expect(stopReasonInfo(full)).toMatchObject({ kind: 'note' });
  });

  it('says nothing for an answer that ended normally', async () => {
    const { container } = render(<StopReasonNotice stream={await finalState(basicText)} />);
    expect(container.innerHTML).toBe('');
  });

  it('marks a stopped answer "Stopped" and an interrupted one "Interrupted"', async () => {
    const stopped = { ...(await finalState(basicText)), status: 'aborted', stopReceived: false };
    const { rerender } = render(<StopReasonNotice stream={stopped as StreamState} />);
    expect(screen.getByText('Stopped')).toBeDefined();
    rerender(<StopReasonNotice stream={await interrupted()} />);
    expect(screen.getByText('Interrupted')).toBeDefined();
  });
});

describe('recoveryFor and ResumeControl with a stream', () => {
  it('offers Resume only when part of the answer arrived', async () => {
    const state = await interrupted();
    expect(recoveryFor(state)).toBe('resume');
    render(<ResumeControl stream={state} onResume={noop} onRetry={noop} />);
    expect(screen.getByRole('button', { name: 'Resume' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('offers Retry, not Resume, when a request failed before anything arrived', () => {
    const state = rateLimited();
    expect(recoveryFor(state)).toBe('retry');
    render(<ResumeControl stream={state} onResume={noop} onRetry={noop} />);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('offers nothing for a whole answer, and Retry for an error trying again cannot fix by itself', async () => {
    const whole = await finalState(basicText);
    expect(recoveryFor(whole)).toBeNull();
    const { container } = render(<ResumeControl stream={whole} onResume={noop} onRetry={noop} />);
    expect(container.innerHTML).toBe('');
    // A revoked key: the user may fix it, then Retry (never by itself: no retry-after).
    const fatal = failedBeforeAnything(
      createStreamError({ type: 'authentication_error', message: '', status: 401 }),
    );
    expect(recoveryFor(fatal)).toBe('retry');
  });

  it('counts down a retry-after and retries once when it ends', () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    const state = rateLimited(3000);
    render(<ResumeControl stream={state} onResume={noop} onRetry={onRetry} />);
    expect(screen.getByText('Retrying in 3 s')).toBeDefined();
    act(() => vi.advanceTimersByTime(1100));
    expect(screen.getByText('Retrying in 2 s')).toBeDefined();
    expect(onRetry).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(2500));
    expect(onRetry).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(5000));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('keeps the wait and the one retry per error when it unmounts and mounts again', () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    const state = rateLimited(3000);
    const first = render(<ResumeControl stream={state} onResume={noop} onRetry={onRetry} />);
    act(() => vi.advanceTimersByTime(2100));
    first.unmount();
    // Shown again (another version was looked at in between): the wait goes on, not over.
    const second = render(<ResumeControl stream={state} onResume={noop} onRetry={onRetry} />);
    expect(screen.getByText('Retrying in 1 s')).toBeDefined();
    act(() => vi.advanceTimersByTime(1000));
    expect(onRetry).toHaveBeenCalledTimes(1);
    second.unmount();
    render(<ResumeControl stream={state} onResume={noop} onRetry={onRetry} />);
    act(() => vi.advanceTimersByTime(5000));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('starts the wait when first shown with autoRetry on, not when shown before without it', () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    const state = rateLimited(2000);
    const before = render(
      <ResumeControl stream={state} onResume={noop} onRetry={onRetry} autoRetry={false} />,
    );
    act(() => vi.advanceTimersByTime(5000));
    before.unmount();
    render(<ResumeControl stream={state} onResume={noop} onRetry={onRetry} />);
    expect(screen.getByText('Retrying in 2 s')).toBeDefined();
    act(() => vi.advanceTimersByTime(2100));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('with autoRetry off, offers Retry alone: no countdown, no retry by itself', () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    render(
      <ResumeControl
        stream={rateLimited(1000)}
        onResume={noop}
        onRetry={onRetry}
        autoRetry={false}
      />,
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.queryByText(/^Retrying in/)).toBeNull();
    act(() => vi.advanceTimersByTime(5000));
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('names the group when the notice beside it says what happened (label null)', async () => {
    render(
      <ResumeControl stream={await interrupted()} onResume={noop} onRetry={noop} label={null} />,
    );
    expect(screen.getByRole('group', { name: 'Recover the answer' })).toBeDefined();
    expect(screen.queryByText('The answer did not finish.')).toBeNull();
  });
});

describe('UsageBadge partial', () => {
  it('leaves the output count out of an interrupted answer and says partial', () => {
    const { container } = render(
      <UsageBadge usage={{ input_tokens: 43, output_tokens: 1 }} locale="en-US" partial />,
    );
    expect(container.textContent).not.toMatch(/1 out/);
    expect(container.textContent).toMatch(/43 in/);
    expect(container.textContent).toMatch(/partial/);
    expect(container.textContent).toMatch(/the answer did not finish/);
  });

  it('says, for a resumed answer, its output at least, a request before the resume cut off', () => {
    const { container } = render(
      <UsageBadge
        usage={{ input_tokens: 86, output_tokens: 40 }}
        locale="en-US"
        partial="earlier-attempt"
      />,
    );
    const shown = container.querySelector('.ms-usage__item--output [aria-hidden="true"]');
    expect(shown?.textContent).toBe('40+ out');
    expect(container.textContent).not.toMatch(/partial/);
    expect(container.textContent).toMatch(/40 output tokens or more/);
    expect(container.textContent).toMatch(/a request before the resume was cut off/);
    expect(container.textContent).not.toMatch(/did not finish/);
  });
});

describe('MessageActions', () => {
  it('copies exactly the given text and says so', async () => {
    const user = userEvent.setup();
    const text = '# Title\n\nSome **markdown**.';
    render(<MessageActions copyText={text} />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(text);
    expect(screen.getByText('Copied')).toBeDefined();
  });

  it('offers Regenerate, Edit and feedback only when wired, and disables them while busy', async () => {
    const user = userEvent.setup();
    const onFeedback = vi.fn();
    const { rerender } = render(<MessageActions copyText="x" />);
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Good answer' })).toBeNull();
    rerender(
      <MessageActions
        copyText="x"
        onRegenerate={noop}
        onEdit={noop}
        onFeedback={onFeedback}
        busy
      />,
    );
    expect((screen.getByRole('button', { name: 'Regenerate' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Bad answer' }));
    expect(onFeedback).toHaveBeenCalledWith('down');
    rerender(<MessageActions copyText="x" onFeedback={onFeedback} feedback="down" />);
    expect(screen.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // Pressed again, the thumb given is taken back.
    await user.click(screen.getByRole('button', { name: 'Bad answer' }));
    expect(onFeedback).toHaveBeenLastCalledWith(null);
  });

  it('shows the thumb given by its shape, a filled icon, not by colour alone', () => {
    render(<MessageActions copyText="x" onFeedback={noop} feedback="up" />);
    const fill = (name: string) =>
      screen.getByRole('button', { name }).querySelector('path')?.getAttribute('fill');
    expect(fill('Good answer')).toBe('currentColor');
    expect(fill('Bad answer')).toBe('none');
  });

  it('is a toolbar with one tab stop: arrows, Home and End move between its buttons', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <>
        <button type="button">Before</button>
        <MessageActions copyText="x" onRegenerate={noop} onFeedback={noop} />
        <button type="button">After</button>
      </>,
    );
    const bar = screen.getByRole('toolbar');
    const button = (name: string) => within(bar).getByRole('button', { name });
    const stops = () =>
      within(bar)
        .getAllByRole('button')
        .filter((b) => b.tabIndex === 0)
        .map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(stops()).toEqual(['Copy']);

    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(document.activeElement).toBe(button('Copy'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(button('Regenerate'));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(button('Bad answer'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(button('Copy'));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(button('Bad answer'));
    await user.keyboard('{Home}{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(button('Good answer'));
    expect(stops()).toEqual(['Good answer']);
    // Tab leaves the toolbar; coming back lands where the user left it.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(button('Good answer'));

    // The app's own buttons are part of it, even drawn later; a disabled one is skipped.
    rerender(
      <>
        <button type="button">Before</button>
        <MessageActions copyText="x" onRegenerate={noop} onFeedback={noop} busy>
          <button type="button">Details</button>
        </MessageActions>
        <button type="button">After</button>
      </>,
    );
    await waitFor(() => expect(stops()).toEqual(['Good answer']));
    button('Copy').focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(button('Good answer'));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(button('Details'));
    expect(stops()).toEqual(['Details']);
  });

  it('has no axe violations', async () => {
    const { container } = render(
      <MessageActions copyText="x" onRegenerate={noop} onFeedback={noop}>
        <UsageBadge usage={{ input_tokens: 1, output_tokens: 2 }} />
      </MessageActions>,
    );
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('StreamDetails', () => {
  it('computes time to first token and tokens per second from the timings', async () => {
    const state = await finalState(basicText);
    const output = state.message?.usage.output_tokens ?? 0;
    const figures = streamFigures(state, { startedAt: 1000, firstTokenAt: 1400, finishedAt: 3400 });
    expect(figures.ttftMs).toBe(400);
    expect(figures.tokensPerSecond).toBe(output / 2);
    expect(figures.partial).toBe(false);
  });

  it('reports no output count and no speed for an interrupted answer', async () => {
    const figures = streamFigures(await interrupted(), {
      startedAt: 0,
      firstTokenAt: 10,
      finishedAt: 1000,
    });
    expect(figures.partial).toBe(true);
    expect(figures.output).toBeUndefined();
    expect(figures.tokensPerSecond).toBeUndefined();
  });

  it('says a resumed answer finished, its output counted at least: partialUsage', async () => {
    const whole = await finalState(basicText);
    const attempt = (status: StreamState['status']) => ({
      messageId: 'msg',
      status,
      usage: {},
      error: null,
    });
    const resumed: StreamState = {
      ...whole,
      attempts: [attempt('interrupted'), attempt('complete')],
    };
    expect(partialUsage(whole)).toBeNull();
    expect(partialUsage(await interrupted())).toBe('unfinished');
    expect(partialUsage(resumed)).toBe('earlier-attempt');
    render(<StreamDetails stream={resumed} locale="en-US" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stream details' }));
    const panel = screen.getByRole('dialog', { hidden: true });
    await waitFor(() => expect(panel.textContent).toMatch(/Output tokens/));
    const output = screen.getByText('Output tokens').nextElementSibling as HTMLElement;
    const counted = whole.message?.usage.output_tokens ?? 0;
    expect(output.textContent).toBe(`${counted} or more`);
    expect(panel.textContent).toMatch(
      'The API reports output tokens when a request ends: a request before the resume was cut off first.',
    );
    expect(panel.textContent).not.toMatch(/did not finish/);
  });

  it('says an unfinished answer’s output was not reported, and why, under the figures', async () => {
    render(<StreamDetails stream={await interrupted()} locale="en-US" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stream details' }));
    const panel = screen.getByRole('dialog', { hidden: true });
    await waitFor(() => expect(panel.textContent).toMatch(/Output tokens/));
    const output = screen.getByText('Output tokens').nextElementSibling as HTMLElement;
    expect(output.textContent).toBe('Not reported');
    expect(panel.textContent).toMatch(
      'The API reports output tokens when an answer ends: this one did not finish.',
    );
  });

  it('lists the figures and offers the recorded stream as an .sse download', async () => {
    const state = await finalState(basicText);
    render(
      <StreamDetails
        stream={state}
        locale="en-US"
        downloads={[{ name: 'msg_1.sse', text: basicText }]}
      />,
    );
    const panel = screen.getByRole('dialog', { hidden: true });
    // Drawn when first opened, not carried hidden by every answer.
    expect(panel.textContent).toBe('');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stream details' }));
    await waitFor(() => expect(panel.textContent).toMatch(/Input tokens/));
    expect(panel.textContent).toMatch(/end_turn/);
    expect(
      screen.getByRole('button', { name: 'Download raw stream (.sse)', hidden: true }),
    ).toBeDefined();
  });

  it('offers no download without a recording', async () => {
    render(<StreamDetails stream={await finalState(basicText)} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stream details' }));
    await screen.findByText('Input tokens');
    expect(screen.queryByRole('button', { name: /Download/, hidden: true })).toBeNull();
  });
});

describe('EmptyState', () => {
  it('sends the prompt of the suggestion picked', async () => {
    const user = userEvent.setup();
    const onSuggestion = vi.fn();
    render(
      <EmptyState
        suggestions={['Plain', { label: 'Short', prompt: 'The long prompt' }]}
        onSuggestion={onSuggestion}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Short' }));
    expect(onSuggestion).toHaveBeenCalledWith('The long prompt');
    await user.click(screen.getByRole('button', { name: 'Plain' }));
    expect(onSuggestion).toHaveBeenLastCalledWith('Plain');
  });
});
