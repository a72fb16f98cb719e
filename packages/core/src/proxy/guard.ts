/** Who may call the proxy at all: same-origin browser pages, JSON bodies. */

export type OriginRule = readonly string[] | ((origin: string) => boolean);

/** Lower-case scheme://host[:port] of a URL, or undefined if it is not one. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

function originListed(origin: string, rule: OriginRule | undefined): boolean {
  if (rule === undefined) return false;
  if (typeof rule === 'function') return rule(origin) === true;
  const normalized = originOf(origin);
  return normalized !== undefined && rule.some((entry) => originOf(entry) === normalized);
}

/**
 * Why a request counts as cross-site, or undefined when it may pass.
 *
 * Browsers set `Sec-Fetch-Site` and `Origin` themselves (a page cannot forge them), so they
 * tell a page on another site from this one. `Sec-Fetch-Site: same-origin` passes; any other
 * value needs an `Origin` listed in `allowedOrigins`. Without `Sec-Fetch-Site` (older
 * browsers), the `Origin` must be the request's own or a listed one. A request with neither
 * header does not come from a browser page (curl, a server): this check lets it through and
 * `authorize` decides.
 */
export function crossSiteReason(
  request: Request,
  allowed: OriginRule | undefined,
): string | undefined {
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  const origin = request.headers.get('origin')?.trim();
  if (site === 'same-origin') return undefined;
  if (site === undefined && origin === undefined) return undefined;
  if (origin !== undefined && origin !== '' && originListed(origin, allowed)) return undefined;
  if (site === undefined && origin !== undefined && originOf(origin) === originOf(request.url)) {
    return undefined;
  }
  const from = origin === undefined || origin === '' ? `a ${site} page` : JSON.stringify(origin);
  return `Cross-site requests are refused: ${from} is not in allowedOrigins.`;
}

/** Whether the body is declared as JSON (`application/json`, any parameters, any case). */
export function isJsonContentType(headers: Headers): boolean {
  const value = headers.get('content-type');
  if (value === null) return false;
  return value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}
