import { createStreamError, type StreamError, type StreamStatus } from '@message-stream/core';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResumeControl } from '../../src/components/resume-control.js';
import { axeViolations, endedStream } from './support.js';

afterEach(cleanup);

const retryable = createStreamError({ type: 'overloaded_error', message: 'Overloaded' });
const fatal = createStreamError({ type: 'authentication_error', message: 'bad key', status: 401 });

const noop = () => {};

describe('ResumeControl', () => {
  it.each<[StreamStatus, StreamError | null]>([
    ['interrupted', null],
    ['aborted', null],
    ['error', retryable],
  ])('offers Resume alone when the answer is %s after some of it arrived', (status, error) => {
    render(
      <ResumeControl
        stream={endedStream(status, { text: 'Part of it', error })}
        onResume={noop}
        onRetry={noop}
      />,
    );
    expect(screen.getByRole('button', { name: 'Resume' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it.each<[StreamStatus, StreamError | null]>([
    ['interrupted', null],
    ['aborted', null],
    ['error', retryable],
    ['error', fatal],
  ])('offers Retry alone when the answer is %s before any of it arrived', (status, error) => {
    render(
      <ResumeControl stream={endedStream(status, { error })} onResume={noop} onRetry={noop} />,
    );
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
  });

  it.each<StreamStatus>(['idle', 'streaming', 'complete'])(
    'renders nothing when the status is %s',
    (status) => {
      const { container } = render(
        <ResumeControl
          stream={endedStream(status, { text: 'Hello' })}
          onResume={noop}
          onRetry={noop}
        />,
      );
      expect(container.innerHTML).toBe('');
    },
  );

  it('offers Retry alone, never by itself, after an error trying again cannot fix by itself', () => {
    render(
      <ResumeControl
        stream={endedStream('error', { error: fatal })}
        onResume={noop}
        onRetry={noop}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.queryByText(/^Retrying in/)).toBeNull();
  });

  it('calls onResume and onRetry', async () => {
    const user = userEvent.setup();
    const onResume = vi.fn();
    const onRetry = vi.fn();
    const { rerender } = render(
      <ResumeControl
        stream={endedStream('interrupted', { text: 'Part' })}
        onResume={onResume}
        onRetry={onRetry}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(onResume).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
    rerender(
      <ResumeControl stream={endedStream('interrupted')} onResume={onResume} onRetry={onRetry} />,
    );
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('is operable from the keyboard', async () => {
    const user = userEvent.setup();
    const onResume = vi.fn();
    render(
      <ResumeControl
        stream={endedStream('aborted', { text: 'Part' })}
        onResume={onResume}
        onRetry={noop}
      />,
    );
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Resume' }));
    await user.keyboard('{Enter}');
    expect(onResume).toHaveBeenCalledTimes(1);
  });

  it('disables its button while busy', async () => {
    const user = userEvent.setup();
    const onResume = vi.fn();
    render(
      <ResumeControl
        stream={endedStream('interrupted', { text: 'Part' })}
        onResume={onResume}
        onRetry={noop}
        busy
      />,
    );
    const resume = screen.getByRole('button', { name: 'Resume' }) as HTMLButtonElement;
    expect(resume.disabled).toBe(true);
    await user.click(resume);
    expect(onResume).not.toHaveBeenCalled();
  });

  it('has no axe violations', async () => {
    const { container } = render(
      <ResumeControl
        stream={endedStream('error', { error: retryable })}
        onResume={noop}
        onRetry={noop}
      />,
    );
    expect(await axeViolations(container)).toEqual([]);
  });

  it('styles Retry as the way on only when trying again can help', () => {
    const retry = () => screen.getByRole('button', { name: 'Retry' });
    const view = render(
      <ResumeControl
        stream={endedStream('error', { error: retryable })}
        onResume={noop}
        onRetry={noop}
      />,
    );
    expect(retry().classList.contains('ms-resume__button--primary')).toBe(true);
    // A refused key: the fix is elsewhere; Retry is there for after it, not the main action.
    view.rerender(
      <ResumeControl
        stream={endedStream('error', { error: fatal })}
        onResume={noop}
        onRetry={noop}
      />,
    );
    expect(retry().classList.contains('ms-resume__button--primary')).toBe(false);
  });
});
