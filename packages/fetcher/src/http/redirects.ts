import { FetchError, isFetchError } from '../errors.js';
import { checkUrlAgainstPolicy, redactUrl, type UrlPolicy } from '../policy/url-policy.js';
import { sameHeaderSite } from '../policy/header-site.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that carry credentials of one origin and must not follow a redirect to another. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Headers that describe a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

/** The caller's headers that are no secret of a site: they follow a redirect to any host. */
const NEUTRAL_HEADERS = new Set(['user-agent', 'accept', 'accept-language', 'content-type']);

export interface Hop {
  url: URL;
  method: 'GET' | 'HEAD' | 'POST';
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /**
   * The names (lower case) of the caller's own headers that may be a site's secret (`X-Api-Key`, `Private-Token`),
   * taken off at a redirect to another host, as the browser keeps them to the page's host. @default none
   */
  own?: readonly string[];
}

/** The names of `headers` (the caller's) that stay with the request's host: all but the neutral ones. */
export function ownHeaderNames(headers: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(headers ?? {})
    .map((name) => name.toLowerCase())
    .filter((name) => !NEUTRAL_HEADERS.has(name));
}

/**
 * The target of a redirect response, or `undefined` when the response is final (not a redirect, no usable Location).
 */
export function redirectTarget(status: number, location: string | string[] | undefined, current: URL): URL | undefined {
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  const value = Array.isArray(location) ? location[0] : location;
  if (!value) return undefined;
  let next: URL;
  try {
    next = new URL(value, current);
  } catch {
    return undefined;
  }
  // Fetch standard: a Location without a fragment keeps the current one.
  if (!next.hash && current.hash) next.hash = current.hash;
  return next;
}

/**
 * The next hop of a redirect chain: 303 (and 301/302 of a POST) become a GET without body, credentials stay
 * behind when the origin changes, and the caller's own headers when the host does.
 */
export function nextHop(hop: Hop, status: number, target: URL): Hop {
  let { method, body } = hop;
  const headers = { ...hop.headers };
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  if (target.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  if (hop.own?.length && !sameHeaderSite(hop.url, target)) {
    for (const name of hop.own) delete headers[name];
    return { url: target, method, headers, body };
  }
  return { url: target, method, headers, body, ...(hop.own ? { own: hop.own } : {}) };
}

/** Tracks a redirect chain: refuses a loop and a chain longer than `maxRedirects`. */
export class RedirectChain {
  readonly visited: string[] = [];
  readonly #seen = new Set<string>();
  readonly #max: number;

  constructor(maxRedirects: number) {
    this.#max = maxRedirects;
  }

  /**
   * Records `from` as visited before following a redirect to `to`. The states are the chain's cookie versions
   * `from` was requested with and `to` will be: coming back to a URL with a new cookie is how sites start a
   * session, not a loop.
   */
  follow(from: URL, fromState: number, to: URL, toState: number): void {
    this.visited.push(redactUrl(from));
    this.#seen.add(`${fromState}\t${withoutHash(from)}`);
    const toKey = `${toState}\t${withoutHash(to)}`;
    if (this.#seen.has(toKey)) {
      throw new FetchError(
        'SCRAPE_REDIRECT_LOOP',
        `Redirect loop: ${redactUrl(to)} was already visited in this redirect chain.`,
        {
          url: redactUrl(from),
        },
      );
    }
    if (this.visited.length > this.#max) throw tooManyRedirects(this.#max, from);
  }
}

/**
 * Checks the target of a redirect from `from` against `policy`, as the request's own URL is checked, except that a
 * target of a scheme crawlkit does not fetch is the site's doing: `SCRAPE_UNSUPPORTED_REDIRECT`, naming both URLs,
 * where a request URL of that scheme is `SCRAPE_UNSUPPORTED_PROTOCOL` (the caller's to fix).
 * @throws FetchError `SCRAPE_UNSUPPORTED_REDIRECT`, `SCRAPE_INVALID_URL` or `URL_BLOCKED`.
 */
export function checkRedirectTarget(target: URL, from: URL, policy: UrlPolicy): URL {
  try {
    return checkUrlAgainstPolicy(target, policy);
  } catch (error) {
    if (!isFetchError(error) || error.code !== 'SCRAPE_UNSUPPORTED_PROTOCOL') throw error;
    throw new FetchError(
      'SCRAPE_UNSUPPORTED_REDIRECT',
      `The page ${redactUrl(from)} redirected to ${redactUrl(target)}, a URL of the scheme ${target.protocol} that ` +
        'crawlkit does not fetch (it fetches http: and https: only).',
      { url: redactUrl(from), cause: error },
    );
  }
}

/** A chain that went past `max` redirects (`http.limits.maxRedirects`), at the hop from `from`. */
export function tooManyRedirects(max: number, from: URL | string): FetchError {
  return new FetchError('SCRAPE_TOO_MANY_REDIRECTS', `Too many redirects (more than ${max}).`, {
    url: redactUrl(from),
  });
}

function withoutHash(url: URL): string {
  const href = url.href;
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}
