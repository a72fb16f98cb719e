import { createStreamError, createStreamState, type StreamStatus } from '@message-stream/core';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResumeControl } from '../../src/components/resume-control.js';
import { axeViolations } from './support.js';

afterEach(cleanup);

const retryable = createStreamError({ type: 'overloaded_error', message: 'Overloaded' });
const fatal = createStreamError({ type: 'authentication_error', message: 'bad key', status: 401 });

const noop = () => {};

describe('ResumeControl', () => {
  it.each<[StreamStatus, typeof retryable | null]>([
    ['interrupted', null],
    ['aborted', null],
    ['error', retryable],
  ])('offers Resume and Retry when the status is %s', (status, error) => {
    render(<ResumeControl status={status} error={error} onResume={noop} onRetry={noop} />);
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeNull();
  });

  it.each<[StreamStatus, typeof retryable | null]>([
    ['idle', null],
    ['streaming', null],
    ['complete', null],
    ['error', fatal],
    ['error', null],
  ])('renders nothing when the status is %s (error: %o)', (status, error) => {
    const { container } = render(
      <ResumeControl status={status} error={error} onResume={noop} onRetry={noop} />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('offers Retry alone, never by itself, after an error trying again cannot fix by itself', () => {
    render(
      <ResumeControl
        stream={{ ...createStreamState(), status: 'error', error: fatal }}
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
    render(<ResumeControl status="interrupted" onResume={onResume} onRetry={onRetry} />);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(onResume).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('is operable from the keyboard', async () => {
    const user = userEvent.setup();
    const onResume = vi.fn();
    render(<ResumeControl status="aborted" onResume={onResume} onRetry={noop} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Resume' }));
    await user.keyboard('{Enter}');
    expect(onResume).toHaveBeenCalledTimes(1);
  });

  it('disables both buttons while busy', async () => {
    const user = userEvent.setup();
    const onResume = vi.fn();
    render(<ResumeControl status="interrupted" onResume={onResume} onRetry={noop} busy />);
    const resume = screen.getByRole('button', { name: 'Resume' }) as HTMLButtonElement;
    expect(resume.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Retry' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.click(resume);
    expect(onResume).not.toHaveBeenCalled();
  });

  it('has no axe violations', async () => {
    const { container } = render(
      <ResumeControl status="error" error={retryable} onResume={noop} onRetry={noop} />,
    );
    expect(await axeViolations(container)).toEqual([]);
  });
});
