/**
 * Stable codes of browser-engine failures (network failures of the page itself are `FetchError`s with the HTTP
 * engine's codes). Match on `error.code`, never on the message.
 */
export type BrowserErrorCode =
  /** No Chromium executable was found; the message names the fix. */
  | 'BROWSER_NOT_FOUND'
  /** Chromium was found but did not start (bad flags, missing libraries, out of memory). */
  | 'BROWSER_LAUNCH_FAILED'
  /** The browser of `browser.wsEndpoint` could not be reached; the message names the endpoint. */
  | 'BROWSER_CONNECT_FAILED'
  /** Chromium or the page's renderer crashed or disconnected during the request. */
  | 'BROWSER_CRASHED'
  /** The page failed to load in the browser for a reason without a more precise code (v2's code). */
  | 'SCRAPE_SITE_ERROR'
  /** The URL answered with a download (an attachment or a type the browser does not render). */
  | 'SCRAPE_DOWNLOAD';

const BRAND = Symbol.for('crawlkit.browser-error');

export interface BrowserErrorOptions {
  /** The page URL when the error happened. */
  url?: string;
  cause?: unknown;
}

/** A failure of the browser engine itself (launch, crash, download, proxy choice). */
export class BrowserError extends Error {
  readonly code: BrowserErrorCode;
  readonly url?: string;
  readonly [BRAND] = true;

  constructor(code: BrowserErrorCode, message: string, options: BrowserErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BrowserError';
    this.code = code;
    if (options.url !== undefined) this.url = options.url;
  }
}

/** True for a `BrowserError` of any copy of this package. */
export function isBrowserError(error: unknown): error is BrowserError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
