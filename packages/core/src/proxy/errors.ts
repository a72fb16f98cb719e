/** The proxy's own answers: API-shaped errors, and the rejection hooks may throw. */

/**
 * Throw from a hook (`authorize`, `rateLimit`, `transformRequest`) to answer the client
 * with an API-shaped error of your choosing; nothing is sent upstream.
 */
export class ProxyRejection extends Error {
  readonly status: number;
  readonly type: string;
  /** Extra response headers, e.g. `retry-after`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, type: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ProxyRejection';
    this.status = status;
    this.type = type;
    this.headers = headers;
  }
}

/** A response body in the Messages API's error shape. */
export function errorResponse(
  status: number,
  type: string,
  message: string,
  headers?: Readonly<Record<string, string>>,
): Response {
  return new Response(JSON.stringify({ type: 'error', error: { type, message } }), {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

export function isErrorStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 400 && status <= 599;
}

/** The response a rejection thrown by a hook stands for. */
export function rejectionResponse(error: ProxyRejection): Response {
  const status = isErrorStatus(error.status) ? error.status : 500;
  const type = typeof error.type === 'string' && error.type !== '' ? error.type : 'api_error';
  return errorResponse(status, type, String(error.message), error.headers);
}
