import { createStreamError, type StreamError as StreamErrorInfo } from '@message-stream/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { StreamErrorNotice } from './kit.js';

const meta = {
  title: 'Components/StreamErrorNotice',
  component: StreamErrorNotice,
} satisfies Meta<typeof StreamErrorNotice>;
export default meta;
type Story = StoryObj<typeof meta>;

type Fields = Parameters<typeof createStreamError>[0];

/** A story per error type: the alert says `expected`, and the request id when there is one. */
function errorStory(
  fields: Fields,
  expected: string,
  status: Story['args']['status'] = 'error',
): Story {
  const error = createStreamError(fields);
  return {
    args: { error, status },
    play: async ({ canvas }) => {
      const alert = canvas.getByRole('alert');
      await expect(alert).toHaveTextContent(expected);
      await expect(alert).toHaveAttribute('data-error-type', fields.type);
      if (fields.requestId) {
        await expect(alert).toHaveTextContent(`Request id: ${fields.requestId}`);
      }
    },
  };
}

export const TokenRevoked = errorStory(
  {
    type: 'authentication_error',
    code: 'token_revoked',
    message: 'API key has been revoked or does not exist.',
    status: 401,
    requestId: 'req_011CMockRevoked01',
  },
  'The API key has been revoked or does not exist. Use a valid key.',
);

export const InvalidKey = errorStory(
  { type: 'authentication_error', message: 'invalid x-api-key', status: 401 },
  'The API key is missing or invalid. Check the key the server uses.',
);

export const NoCredit = errorStory(
  { type: 'insufficient_quota', message: 'Project balance is 0.', status: 402 },
  'The account has no credit left. Add credit or raise the quota, then try again.',
);

export const Permission = errorStory(
  { type: 'permission_error', message: 'Model not enabled.', status: 403 },
  'This key may not use the requested model: it is not enabled for the project, or does not exist.',
);

export const NotFound = errorStory(
  { type: 'not_found_error', message: 'model: claude-nope', status: 404 },
  'The endpoint or model was not found. Check the URL and the model name.',
);

export const TooLarge = errorStory(
  { type: 'request_too_large', message: 'Request exceeds the maximum size', status: 413 },
  'The request is too large. Shorten the conversation or the attachments.',
);

export const RateLimitedWithRetryTime = errorStory(
  {
    type: 'rate_limit_error',
    message: 'Number of requests has exceeded your rate limit.',
    status: 429,
    retryAfterMs: 30_000,
    requestId: 'req_011CMockRateLimit1',
  },
  'Too many requests. Try again in 30 s.',
);

export const RateLimited = errorStory(
  { type: 'rate_limit_error', message: 'Rate limited', status: 429 },
  'Too many requests. Wait a moment, then try again.',
);

export const Overloaded = errorStory(
  { type: 'overloaded_error', message: 'Overloaded', status: 529 },
  'The service is overloaded right now. Try again in a moment.',
);

export const ApiError = errorStory(
  { type: 'api_error', message: 'Internal server error', status: 500 },
  'The service had an internal error. Try again.',
);

export const Timeout = errorStory(
  { type: 'timeout_error', message: 'Request timed out', status: 408 },
  'The request timed out. Try again.',
);

export const NetworkError = errorStory(
  { type: 'network_error', message: 'Failed to fetch' },
  'The network connection failed. Check your connection, then resume.',
  'interrupted',
);

export const StreamInterrupted = errorStory(
  { type: 'stream_interrupted', message: 'network error' },
  'The answer was cut off before it finished. Resume to continue it.',
  'interrupted',
);

export const IdleTimeout = errorStory(
  { type: 'idle_timeout', message: 'No data for 60000 ms' },
  'The answer stalled: no data arrived for too long. Resume to continue it.',
  'interrupted',
);

export const InvalidResponse = errorStory(
  { type: 'invalid_response', message: 'Expected text/event-stream, got text/html', status: 502 },
  'The server did not answer with an event stream. Check the endpoint.',
);

export const InvalidRequest = errorStory(
  { type: 'invalid_request_error', message: 'max_tokens: Field required', status: 400 },
  'The request was rejected: max_tokens: Field required',
);

export const UnknownType = errorStory(
  { type: 'quantum_flux_error', message: 'The flux capacitor is out of sync.' },
  'The flux capacitor is out of sync.',
);

/** An error without a description (built by hand): one is derived from its type. */
export const WithoutDescription: Story = {
  args: {
    status: 'error',
    error: {
      type: 'overloaded_error',
      message: 'Overloaded',
      description: '',
      retryable: true,
    } satisfies StreamErrorInfo,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'The service is overloaded right now. Try again in a moment.',
    );
  },
};

/** No error: nothing renders. */
export const NoError: Story = {
  args: { error: null },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[role="alert"]')).toBeNull();
  },
};
