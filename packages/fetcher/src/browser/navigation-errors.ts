import { dnsErrorMessage, FetchError, isFetchError } from '../errors.js';
import { RedirectChain, tooManyRedirects } from '../http/redirects.js';
import { redactUrl } from '../policy/url-policy.js';
import { sslError } from '../tls-errors.js';
import { BrowserError } from './errors.js';

/**
 * Turns a failed `page.goto` (Chromium's `net::ERR_*` codes) into crawlkit's error codes. `redirectChain` is the
 * chain of the failed navigation (its URLs in order), which tells a loop from a long chain.
 */
export function navigationError(
  error: unknown,
  url: string,
  redirectChain: readonly string[] = [],
): FetchError | BrowserError {
  const message = error instanceof Error ? error.message : String(error);
  const netCode = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  const safeUrl = redactUrl(url);
  const options = { url: safeUrl, cause: error };
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new FetchError('SCRAPE_TIMEOUT', `Loading ${safeUrl} in the browser timed out.`, options);
  }
  switch (netCode) {
    case 'ERR_NAME_NOT_RESOLVED':
    case 'ERR_NAME_RESOLUTION_FAILED':
      return new FetchError('SCRAPE_DNS_RESOLUTION_ERROR', dnsErrorMessage(hostOf(url)), options);
    case 'ERR_CONNECTION_RESET':
    case 'ERR_CONNECTION_CLOSED':
    case 'ERR_EMPTY_RESPONSE':
      return new FetchError('SCRAPE_CONNECTION_ERROR', `Could not connect to ${safeUrl} (${netCode}).`, {
        ...options,
        dropped: true,
      });
    case 'ERR_CONNECTION_REFUSED':
    case 'ERR_CONNECTION_FAILED':
    case 'ERR_ADDRESS_UNREACHABLE':
    case 'ERR_PROXY_CONNECTION_FAILED':
    case 'ERR_TUNNEL_CONNECTION_FAILED':
      return new FetchError('SCRAPE_CONNECTION_ERROR', `Could not connect to ${safeUrl} (${netCode}).`, options);
    case 'ERR_TIMED_OUT':
    case 'ERR_CONNECTION_TIMED_OUT':
      return new FetchError('SCRAPE_TIMEOUT', `Loading ${safeUrl} in the browser timed out (${netCode}).`, options);
    case 'ERR_TOO_MANY_REDIRECTS':
      return (
        loopIn(redirectChain) ??
        new FetchError('SCRAPE_TOO_MANY_REDIRECTS', `Too many redirects loading ${safeUrl}.`, options)
      );
    case 'ERR_INVALID_RESPONSE':
    case 'ERR_INVALID_HTTP_RESPONSE':
    case 'ERR_CONTENT_DECODING_FAILED':
      return new FetchError('SCRAPE_INVALID_RESPONSE', `Invalid response from ${safeUrl} (${netCode}).`, options);
    default:
      if (netCode?.startsWith('ERR_CERT_') || netCode?.startsWith('ERR_SSL_')) {
        return sslError(netCode, 'browser', safeUrl, error);
      }
      return new BrowserError(
        'SCRAPE_SITE_ERROR',
        `Specified URL is failing to load in the browser. Error code: ${netCode ?? firstLine(message)}`,
        options,
      );
  }
}

/**
 * The loop of a chain Chromium gave up on (past its 20 redirects), told as the HTTP engine tells it, by its rule
 * (`RedirectChain`); undefined for a chain that went on to new URLs. Chromium's cookie states are not known here:
 * a chain that came back to a URL and still reached 20 hops loops.
 */
function loopIn(chain: readonly string[]): FetchError | undefined {
  const tracker = new RedirectChain(Number.POSITIVE_INFINITY);
  try {
    for (let at = 1; at < chain.length; at++) tracker.follow(new URL(chain[at - 1]!), 0, new URL(chain[at]!), 0);
  } catch (error) {
    if (isFetchError(error)) return error;
  }
  return undefined;
}

/**
 * The error of a navigation whose redirect chain `hops` (its URLs, the next one last) went past `maxRedirects`: its
 * loop if it has one, as the HTTP engine would tell it, else too many redirects.
 */
export function redirectLimitError(hops: readonly string[], maxRedirects: number): FetchError {
  return loopIn(hops) ?? tooManyRedirects(maxRedirects, hops.at(-2) ?? hops[0] ?? '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
