import { isActionError } from '@crawlkit/actions';

import { FetchError, isFetchError } from '../errors.js';
import { redactUrl } from '../policy/url-policy.js';
import { crashedError, type BrowserLease } from './browser-pool.js';
import { isBrowserError, type BrowserError } from './errors.js';

/** Least time left for loading a page again after its browser went away (a launch takes about a second). */
export const MIN_RETRY_MS = 2_000;

/** `BROWSER_CRASHED` errors of pages whose whole browser went away, not only their renderer. */
const lostBrowser = new WeakSet<object>();

/**
 * `BROWSER_CRASHED` for a page whose Chromium disconnected (killed, out of memory, or the connection to
 * `browser.wsEndpoint`, which `endpoint` names, lost) while it loaded.
 */
export function browserLost(url: string, cause: unknown, endpoint?: string): BrowserError {
  const error = crashedError(url, cause, endpoint);
  lostBrowser.add(error);
  return error;
}

/** Whether `error` failed a page because its whole browser went away (`browserLost`). */
export function isBrowserLost(error: unknown): boolean {
  return typeof error === 'object' && error !== null && lostBrowser.has(error);
}

/**
 * The error a page load ends with: the abort's reason (timeout, the caller's abort, a crash), the error itself when
 * it is ours, `BROWSER_CRASHED` for a browser or page that went away under it.
 */
export async function normalizeLoadError(
  error: unknown,
  signal: AbortSignal,
  lease: BrowserLease | undefined,
  url: string,
): Promise<unknown> {
  if (lease && !signal.aborted && !isActionError(error)) {
    // A dead browser fails the page's calls before its 'disconnected' event arrives: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (lease.crashed || !lease.browser.connected) return browserLost(redactUrl(url), error, lease.endpoint);
  }
  if (signal.aborted && (isFetchError(signal.reason) || isBrowserError(signal.reason))) return signal.reason;
  if (isFetchError(error) || isBrowserError(error) || isActionError(error)) return error;
  if (error instanceof Error && /Target closed|Session closed|Protocol error.*closed/i.test(error.message)) {
    return crashedError(redactUrl(url), error);
  }
  return error;
}

/**
 * `waitFor` cannot end within the scrape's `timeoutMs` (the one the caller set): a timeout, not a shorter wait. The
 * page loaded and left `leftMs` for it, or was still loading (`loading`) when only `leftMs` was left.
 */
export function waitForTooLong(
  request: { url: string; waitFor: number },
  timeoutMs: number,
  leftMs: number,
  loading: boolean,
): FetchError {
  const url = redactUrl(request.url);
  const left = `${Math.max(0, Math.round(leftMs))} ms of the ${timeoutMs} ms timeout`;
  const what = loading
    ? `had not finished with ${left} left, less than waitFor (${request.waitFor} ms) needs after it`
    : `left ${left} for waitFor (${request.waitFor} ms)`;
  return new FetchError('SCRAPE_TIMEOUT', `Loading ${url} in the browser ${what}: raise timeout or lower waitFor.`, {
    url,
  });
}

/**
 * A page load past its time that nothing names better (a silent proxy is named instead): how long the browser's page
 * took to be ready for the request (`readyMs`), or that the time ran out before it was, and what to raise.
 */
export function loadTooLong(url: string, timeoutMs: number, readyMs: number | undefined, cause?: unknown): FetchError {
  const safeUrl = redactUrl(url);
  const head = `Loading ${safeUrl} in the browser took longer than the ${timeoutMs} ms timeout allows`;
  const message =
    readyMs === undefined
      ? `${head}, before the page's request could be sent: the browser and its page were not ready yet (a busy ` +
        'machine, or a browser starting). Raise timeout.'
      : `${head} (its browser page was ready after ${Math.round(readyMs)} ms): raise timeout.`;
  return new FetchError('SCRAPE_TIMEOUT', message, { url: safeUrl, ...(cause === undefined ? {} : { cause }) });
}
