/**
 * Stable codes of fetch failures. v2 codes are reused where they exist (reference §17); the rest are crawlkit's.
 * Match on `error.code`, never on the message.
 */
export type FetchErrorCode =
  /** The host name does not resolve. */
  | 'SCRAPE_DNS_RESOLUTION_ERROR'
  /** TLS handshake or certificate failure (only when `skipTlsVerification` is false, or a broken handshake). */
  | 'SCRAPE_SSL_ERROR'
  /** The whole-request budget, the connect, headers or idle-read timeout, or the low-speed limit was hit. */
  | 'SCRAPE_TIMEOUT'
  /** The connection was refused, reset or closed before a complete response. */
  | 'SCRAPE_CONNECTION_ERROR'
  /** The proxy (`proxies`) could not be reached, refused its credentials, or refused the tunnel to the site. */
  | 'SCRAPE_PROXY_ERROR'
  /** The server answered with something that is not valid HTTP. */
  | 'SCRAPE_INVALID_RESPONSE'
  /** The URL policy refused the URL or the address it resolves to; the message names the rule. */
  | 'URL_BLOCKED'
  /** The URL does not parse. */
  | 'SCRAPE_INVALID_URL'
  /** A scheme other than http: and https: (file:, data:, javascript:, ftp:, ...). */
  | 'SCRAPE_UNSUPPORTED_PROTOCOL'
  /** A page redirected to a URL of a scheme other than http: and https: (the site's doing, not the request's). */
  | 'SCRAPE_UNSUPPORTED_REDIRECT'
  /** The body is larger than `maxBodyBytes` (on the wire) or `maxDecompressedBytes` (decoded). */
  | 'SCRAPE_RESPONSE_TOO_LARGE'
  /** The decoded body grew faster than `maxCompressionRatio` allows. */
  | 'SCRAPE_DECOMPRESSION_BOMB'
  /** The body is not valid data of its `content-encoding` (corrupt gzip, brotli, ...). */
  | 'SCRAPE_DECODING_ERROR'
  /** More than `maxRedirects` redirects. */
  | 'SCRAPE_TOO_MANY_REDIRECTS'
  /** A redirect led back to a URL already visited in the same chain. */
  | 'SCRAPE_REDIRECT_LOOP'
  /** The caller's `signal` aborted the request. */
  | 'ABORTED'
  /** The request itself is invalid (a header value with a line break, a body on GET, ...). */
  | 'SCRAPE_INVALID_REQUEST'
  /** `fetch()` was called after `close()`. */
  | 'FETCHER_CLOSED'
  /** The replay engine's recordings hold no response for the URL. */
  | 'SCRAPE_REPLAY_NOT_RECORDED'
  /** A recording given to the replay engine cannot be read (missing, not a WARC file). */
  | 'REPLAY_FILE_UNREADABLE';

const BRAND = Symbol.for('crawlkit.fetch-error');

export interface FetchErrorOptions {
  /** The URL being fetched when the error happened (the current redirect hop). */
  url?: string;
  /** The URL policy rule that refused the request (`URL_BLOCKED` only). */
  rule?: string;
  /** See `FetchError.dropped`. */
  dropped?: boolean;
  cause?: unknown;
}

/** A failed fetch. A response with a 4xx or 5xx status is not an error: it is a result with its status. */
export class FetchError extends Error {
  readonly code: FetchErrorCode;
  /** The URL being fetched when the error happened (the current redirect hop). */
  readonly url?: string;
  /** The URL policy rule that refused the request (`URL_BLOCKED` only). */
  readonly rule?: string;
  /**
   * `SCRAPE_CONNECTION_ERROR` only: the server took the connection, then reset or closed it before a complete
   * response (a flapping server, an overloaded proxy). The same request may well succeed a moment later: a crawl or
   * batch fetches the page again. A refused connection (nothing listens) is not dropped.
   */
  readonly dropped?: true;
  readonly [BRAND] = true;

  constructor(code: FetchErrorCode, message: string, options: FetchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FetchError';
    this.code = code;
    if (options.url !== undefined) this.url = options.url;
    if (options.rule !== undefined) this.rule = options.rule;
    if (options.dropped) this.dropped = true;
  }
}

/** True for a `FetchError` of any copy of this package (matches a brand, not the prototype). */
export function isFetchError(error: unknown): error is FetchError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** The v2 message of a DNS failure (reference §17). */
export function dnsErrorMessage(hostname: string): string {
  return `DNS resolution failed for hostname: ${hostname}. Please check if the domain is valid and accessible.`;
}

/** The v2 message of a TLS failure (reference §17). */
export const SSL_ERROR_MESSAGE =
  "An SSL error occurred while scraping the URL. If you're not inputting any sensitive data, try scraping with `skipTlsVerification: true`.";

/** How both engines say a connection to `host` failed (`what`: refused, reset, ...), with the system's detail. */
export function connectionMessage(host: string, what: string, detail?: string): string {
  return `Connection to ${host} ${what}${detail ? ` (${detail})` : ''}.`;
}
