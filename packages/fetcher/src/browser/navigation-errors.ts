import type { Page } from 'puppeteer-core';

import { dnsErrorMessage, FetchError, isFetchError } from '../errors.js';
import { RedirectChain, tooManyRedirects } from '../http/redirects.js';
import { redactUrl } from '../policy/url-policy.js';
import { hostPortOf } from '../proxy-errors.js';
import { sslError } from '../tls-errors.js';
import { BrowserError } from './errors.js';

/**
 * Turns a failed `page.goto` (Chromium's `net::ERR_*` codes) into crawlkit's error codes (puppeteer's own timeout,
 * a `TimeoutError`, is the engine's to tell). `redirectChain` is the chain of the failed navigation (its URLs in
 * order), which tells a loop from a long chain.
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
      // Chromium's own limit for a connection that never got an answer (a TLS handshake, a tunnel): 36 s in a probe.
      return connectionGaveUp(url, hostPortOf(url), chromiumGaveUp(netCode), error);
    case 'ERR_TOO_MANY_REDIRECTS':
      return (
        loopIn(redirectChain) ??
        new FetchError('SCRAPE_TOO_MANY_REDIRECTS', `Too many redirects loading ${safeUrl}.`, options)
      );
    case 'ERR_UNSAFE_PORT':
      // Chromium will not load a port kept for another protocol (1, 9, 25, 6000, …); the HTTP engine fetches it.
      return new BrowserError(
        'SCRAPE_SITE_ERROR',
        `Specified URL is failing to load in the browser. Error code: ${netCode}: Chromium refuses port ` +
          `${new URL(url).port} of ${safeUrl} (kept for another protocol). Scrape it without browser-only options ` +
          "and with engine 'http' (crawlkit --engine http), or serve the site on another port.",
        options,
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

/** Chromium's own limit on a connection, as `connectionGaveUp` names what gave up; `netCode` is its error. */
export function chromiumGaveUp(netCode: string): string {
  return `Chromium's own limit on setting up a connection (${netCode})`;
}

/** The `net::ERR_*` code of a navigation that Chromium's own limit on a connection ended, else undefined. */
export function connectionTimeoutCode(error: unknown): string | undefined {
  return /net::(ERR_TIMED_OUT|ERR_CONNECTION_TIMED_OUT)\b/.exec(error instanceof Error ? error.message : '')?.[1];
}

/**
 * A connection of the page's that a limit other than the caller's timeout gave up on (`by` names it: Chromium's own
 * time for setting up a connection, the system's TCP connect time-out), `target` (`host:port`) being what it was
 * made to: still a timeout, but one that raising `timeout` does not extend.
 */
export function connectionGaveUp(url: string, target: string, by: string, cause?: unknown): FetchError {
  const safeUrl = redactUrl(url);
  return new FetchError(
    'SCRAPE_TIMEOUT',
    `Loading ${safeUrl} in the browser timed out: ${by} ran out on the connection to ${target}, which was never ` +
      'answered. Raising timeout does not extend that limit: check that the site answers from here.',
    { url: safeUrl, ...(cause === undefined ? {} : { cause }) },
  );
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

/** Whether the main frame shows a document of the site (not the blank page before it, nor an error page). */
export function committed(page: Page): boolean {
  const url = page.url();
  return url !== '' && url !== 'about:blank' && !url.startsWith('chrome-error:');
}
