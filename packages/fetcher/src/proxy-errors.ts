import { FetchError } from './errors.js';
import { DNS_CODES, NEVER_CONNECTED_CODES } from './net-codes.js';
import { normalizeHost } from './policy/url-policy.js';

/**
 * The errors of a user's proxy (`proxies`), told as the proxy's and not the site's: the proxy could not be reached,
 * refused its credentials, or refused the tunnel to the site. Both engines build them here, so the code and words are
 * the same whichever fetched. The proxy is named by its origin, never with its credentials.
 */

/** `http://host:port` of a proxy URL, without user name or password. */
export function proxyName(proxy: string): string {
  try {
    const url = new URL(proxy);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the configured proxy';
  }
}

/** A connection through the user's proxy that failed after it was made, `detail` saying how. Both engines say it. */
export function proxyConnectionMessage(proxy: string, detail: string): string {
  return `Connection through the proxy ${proxyName(proxy)} failed: ${detail}`;
}

function hasCredentials(proxy: string): boolean {
  try {
    const url = new URL(proxy);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/**
 * The proxy answered `status` instead of opening the way to `target` (`host:port`): 407 (or 401) is its credentials,
 * anything else its refusal or its failure to reach the site.
 */
export function proxyStatusError(proxy: string, status: number, target: string, url: string): FetchError {
  const name = proxyName(proxy);
  if (status === 407 || status === 401) {
    const message = hasCredentials(proxy)
      ? `The proxy ${name} refused its credentials (${status}): check the user name and password of the proxy (PROXY_USERNAME and PROXY_PASSWORD, or the proxy URL, percent-encoded there).`
      : `The proxy ${name} asks for credentials (${status}): give them as http://user:password@host:port (percent-encoded), or PROXY_USERNAME and PROXY_PASSWORD.`;
    return new FetchError('SCRAPE_PROXY_ERROR', message, { url });
  }
  return new FetchError(
    'SCRAPE_PROXY_ERROR',
    `The proxy ${name} answered ${status} instead of connecting to ${target}: it refuses that site, or could not reach it.`,
    { url },
  );
}

/** `host:port` of an absolute URL (its default port when none is written): what a proxy is asked to reach. */
export function hostPortOf(url: string): string {
  try {
    const parsed = new URL(url);
    const secure = parsed.protocol === 'https:' || parsed.protocol === 'wss:';
    return `${normalizeHost(parsed.hostname)}:${parsed.port || (secure ? '443' : '80')}`;
  } catch {
    return url;
  }
}

/**
 * A page that ran out of time (`timedOut` says how) while its request for `url` waited on `proxy`: a timeout still,
 * told as the proxy's silence. `url` is redacted.
 */
export function proxySilentError(proxy: string, url: string, timedOut: string): FetchError {
  return new FetchError(
    'SCRAPE_TIMEOUT',
    `${timedOut}: the proxy ${proxyName(proxy)} did not answer its request for ${hostPortOf(url)} (the proxy is not answering, or the site behind it is not).`,
    { url },
  );
}

/** The proxy itself could not be reached: `reason` says how (`connection refused`, `no connection within 10000 ms`). */
export function proxyUnreachableError(proxy: string, reason: string, url: string, cause?: unknown): FetchError {
  return new FetchError(
    'SCRAPE_PROXY_ERROR',
    `The proxy ${proxyName(proxy)} could not be reached (${reason}): check its address, and that it runs.`,
    { url, ...(cause !== undefined ? { cause } : {}) },
  );
}

/**
 * The failure to connect to the proxy itself, from the `code` of the error (and the `hostname` a DNS error names),
 * or undefined for an error that is not one: the site's name and connection are the proxy's to resolve and make.
 */
export function proxyConnectFailure(
  proxy: string,
  code: string,
  hostname: string | undefined,
  url: string,
): FetchError | undefined {
  if (DNS_CODES.has(code)) return proxyUnreachableError(proxy, `${hostname ?? 'its host name'} does not resolve`, url);
  if (NEVER_CONNECTED_CODES.has(code)) {
    return proxyUnreachableError(proxy, code === 'ECONNREFUSED' ? 'connection refused' : code, url);
  }
  return undefined;
}
