/** Who may call the proxy at all: same-origin browser pages on a known host, JSON bodies. */

export type OriginRule = readonly string[] | ((origin: string) => boolean);

/**
 * Host names the proxy answers browser pages under: names (`'app.example.com'`), a leading
 * dot for a domain and its subdomains (`'.example.com'`), a predicate on the lower-case
 * name (no port), or `true` for any.
 */
export type HostRule = readonly string[] | ((host: string) => boolean) | true;

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

/** The lower-case host name (no port, IPv6 without brackets) a request was sent to. */
function hostNameOf(request: Request): string | undefined {
  const header = request.headers.get('host')?.trim();
  try {
    return new URL(header ? `http://${header}` : request.url).hostname
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}

/**
 * Names no DNS answer can point at another machine's page: `localhost`, its subdomains and
 * IP literals. An attacker's page can only reach a local server under a name the attacker
 * controls (DNS rebinding), never under one of these.
 */
const isUnspoofableHost = (host: string): boolean =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host.includes(':') || // IPv6 literal
  /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

function hostListed(host: string, rule: HostRule | undefined): boolean {
  if (rule === true || isUnspoofableHost(host)) return true;
  if (rule === undefined) return false;
  if (typeof rule === 'function') return rule(host) === true;
  return rule.some((entry) => {
    const name = entry.trim().toLowerCase();
    return name.startsWith('.') ? host === name.slice(1) || host.endsWith(name) : host === name;
  });
}

/**
 * Why a browser page's request is refused for the host it was sent to, or undefined when it
 * may pass.
 *
 * A page's same-origin check proves nothing when the attacker owns the name: with DNS
 * rebinding, `http://evil.example:3000` first resolves to the attacker and then to
 * 127.0.0.1, so the attacker's page reaches a local dev server "same-origin", key and all.
 * So a request from a browser page (it has `Origin` or `Sec-Fetch-Site`) must be sent to
 * `localhost`, an IP literal, or a host listed in `allowedHosts`. Clients without a browser
 * cannot be rebound and are not checked here (`authorize` decides about them).
 */
export function hostRefusal(request: Request, allowed: HostRule | undefined): string | undefined {
  if (!request.headers.has('origin') && !request.headers.has('sec-fetch-site')) return undefined;
  const host = hostNameOf(request);
  if (host !== undefined && hostListed(host, allowed)) return undefined;
  return `Requests to host ${JSON.stringify(host ?? '')} are refused: it is not in allowedHosts.`;
}

/** Whether the body is declared as JSON (`application/json`, any parameters, any case). */
export function isJsonContentType(headers: Headers): boolean {
  const value = headers.get('content-type');
  if (value === null) return false;
  return value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}
