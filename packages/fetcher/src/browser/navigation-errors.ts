import { dnsErrorMessage, FetchError, SSL_ERROR_MESSAGE } from '../errors.js';
import { redactUrl } from '../policy/url-policy.js';
import { BrowserError } from './errors.js';

/** Turns a failed `page.goto` (Chromium's `net::ERR_*` codes) into crawlkit's error codes. */
export function navigationError(error: unknown, url: string): FetchError | BrowserError {
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
    case 'ERR_CONNECTION_REFUSED':
    case 'ERR_CONNECTION_RESET':
    case 'ERR_CONNECTION_CLOSED':
    case 'ERR_CONNECTION_FAILED':
    case 'ERR_EMPTY_RESPONSE':
    case 'ERR_ADDRESS_UNREACHABLE':
    case 'ERR_PROXY_CONNECTION_FAILED':
    case 'ERR_TUNNEL_CONNECTION_FAILED':
      return new FetchError('SCRAPE_CONNECTION_ERROR', `Could not connect to ${safeUrl} (${netCode}).`, options);
    case 'ERR_TIMED_OUT':
    case 'ERR_CONNECTION_TIMED_OUT':
      return new FetchError('SCRAPE_TIMEOUT', `Loading ${safeUrl} in the browser timed out (${netCode}).`, options);
    case 'ERR_TOO_MANY_REDIRECTS':
      return new FetchError('SCRAPE_TOO_MANY_REDIRECTS', `Too many redirects loading ${safeUrl}.`, options);
    case 'ERR_INVALID_RESPONSE':
    case 'ERR_INVALID_HTTP_RESPONSE':
    case 'ERR_CONTENT_DECODING_FAILED':
      return new FetchError('SCRAPE_INVALID_RESPONSE', `Invalid response from ${safeUrl} (${netCode}).`, options);
    default:
      if (netCode?.startsWith('ERR_CERT_') || netCode?.startsWith('ERR_SSL_')) {
        return new FetchError('SCRAPE_SSL_ERROR', SSL_ERROR_MESSAGE, options);
      }
      return new BrowserError(
        'SCRAPE_SITE_ERROR',
        `Specified URL is failing to load in the browser. Error code: ${netCode ?? firstLine(message)}`,
        options,
      );
  }
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
