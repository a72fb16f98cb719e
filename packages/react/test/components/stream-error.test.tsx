import {
  createStreamError,
  errorFromResponse,
  type StreamError as Info,
} from '@message-stream/core';
import inStreamError from '@message-stream/mock/fixtures/in-stream-error.sse?raw';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamErrorNotice } from '../../src/components/stream-error-notice.js';
import { axeViolations, finalState } from './support.js';

afterEach(cleanup);

describe('StreamErrorNotice', () => {
  it('renders nothing without an error', () => {
    const { container } = render(<StreamErrorNotice error={null} status="complete" />);
    expect(container.innerHTML).toBe('');
  });

  it.each([
    ['overloaded_error', 'The service is overloaded right now. Try again in a moment.'],
    ['rate_limit_error', 'Too many requests. Wait a moment, then try again.'],
    ['network_error', 'The network connection failed. Check your connection, then resume.'],
    ['stream_interrupted', 'The answer was cut off before it finished. Resume to continue it.'],
    ['authentication_error', 'The API key is missing or invalid. Check the key the server uses.'],
  ])('says what a %s means, as an alert', (type, sentence) => {
    render(<StreamErrorNotice error={createStreamError({ type, message: 'raw server text' })} />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('.ms-error__description')?.textContent).toBe(sentence);
    expect(alert.textContent).not.toContain('raw server text');
  });

  it('gives the request id for support', () => {
    const error = errorFromResponse(
      529,
      new Headers({ 'request-id': 'req_011CXYZ' }),
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    render(<StreamErrorNotice error={error} status="error" />);
    expect(screen.getByRole('alert').querySelector('.ms-error__request')?.textContent).toBe(
      'Request id: req_011CXYZ',
    );
  });

  it('shows the in-stream error of a fixture, with its modifier class (in-stream-error)', async () => {
    const state = await finalState(inStreamError);
    expect(state.error?.type).toBe('overloaded_error');
    const { container } = render(<StreamErrorNotice error={state.error} status={state.status} />);
    expect(container.firstElementChild?.className).toBe(`ms-error ms-error--${state.status}`);
    expect(screen.getByRole('alert').textContent).toContain('overloaded');
  });

  it('falls back to a sentence for the type when the description is missing', () => {
    const error = { type: 'timeout_error', message: 'x', retryable: true } as unknown as Info;
    render(<StreamErrorNotice error={error} />);
    expect(screen.getByRole('alert').textContent).toBe('The request timed out. Try again.');
  });

  it('has no axe violations', async () => {
    const error = createStreamError({ type: 'api_error', message: 'x', requestId: 'req_1' });
    const { container } = render(<StreamErrorNotice error={error} status="error" />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
