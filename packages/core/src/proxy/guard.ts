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

/**
 * A host name as compared: lower-case, punycode, no port, IPv6 without brackets, no trailing
 * dot (`app.example.com.` is the same name). Undefined when it is not a host name at all.
 */
function normalHost(authority: string): string | undefined {
  try {
    const { hostname, username, pathname, search, hash } = new URL(`http://${authority}`);
    if (username !== '' || pathname !== '/' || search !== '' || hash !== '') return undefined;
    return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
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

/** Whether a request to `host` (a normal host name) may pass. */
export type HostCheck = (host: string) => boolean;

/**
 * `allowedHosts` as a check, made once at creation: entries normalised as the Host header is
 * (case, punycode, a trailing dot), and an entry that could never match (a scheme, a port, a
 * path, a wildcard) refused with a TypeError, so a typo does not silently leave the app's own
 * pages locked out.
 */
export function hostCheck(rule: HostRule | undefined): HostCheck {
  if (rule === true) return () => true;
  if (typeof rule === 'function') return (host) => isUnspoofableHost(host) || rule(host) === true;
  const exact = new Set<string>();
  const domains: string[] = [];
  for (const entry of rule ?? []) {
    const text = typeof entry === 'string' ? entry.trim() : '';
    const domain = text.startsWith('.');
    const name = normalHost(domain ? text.slice(1) : text);
    if (name === undefined || name === '' || text.includes(':') || text.includes('*')) {
      throw new TypeError(
        `createMessagesProxy: allowedHosts entry ${JSON.stringify(entry)} is not a host name (give 'app.example.com', or '.example.com' for a domain and its subdomains).`,
      );
    }
    if (domain) domains.push(name);
    else exact.add(name);
  }
  return (host) =>
    isUnspoofableHost(host) ||
    exact.has(host) ||
    domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * Why a browser page's request is refused for the host it was sent to, or undefined when it
 * may pass.
 *
 * A page's same-origin check proves nothing when the attacker owns the name: with DNS
 * rebinding, `http://evil.example:3000` first resolves to the attacker and then to
 * 127.0.0.1, so the attacker's page reaches a local dev server "same-origin", key and all.
 * So a request from a browser page (it has `Origin` or `Sec-Fetch-Site`) must name in its
 * `Host` header `localhost`, an IP literal, or a host `allowed`; a browser always sends one, so
 * a page's request without it is refused. Clients without a browser cannot be rebound and are
 * not checked here (`authorize` decides about them).
 */
export function hostRefusal(request: Request, allowed: HostCheck): string | undefined {
  if (!request.headers.has('origin') && !request.headers.has('sec-fetch-site')) return undefined;
  const header = request.headers.get('host')?.trim() ?? '';
  const host = header === '' ? undefined : normalHost(header);
  if (host !== undefined && allowed(host)) return undefined;
  return `Requests to host ${JSON.stringify(host ?? header)} are refused: it is not in allowedHosts.`;
}

/** Whether the body is declared as JSON (`application/json`, any parameters, any case). */
export function isJsonContentType(headers: Headers): boolean {
  const value = headers.get('content-type');
  if (value === null) return false;
  return value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}
