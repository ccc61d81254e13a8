import { setTimeout } from 'node:timers';
import { isActionError } from '@crawlkit/actions';

import { FetchError, isFetchError } from '../errors.js';
import { redactUrl } from '../policy/url-policy.js';
import type { BrowserLease } from './browser-pool.js';
import { BrowserError, isBrowserError } from './errors.js';

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
 * Loads a page once more (`again`) when `error` says its whole browser went away and `MIN_RETRY_MS` of its deadline
 * are left; else rethrows `error`. A timeout of that second load says that Chromium went away and the page was loaded
 * again within the same time, where "raise timeout" alone hid the crash.
 */
export async function retryLostBrowser<T>(
  error: unknown,
  request: { url: string; signal?: AbortSignal | undefined },
  deadline: { at: number },
  again: () => Promise<T>,
): Promise<T> {
  if (!isBrowserLost(error) || request.signal?.aborted) throw error;
  if (deadline.at - performance.now() < MIN_RETRY_MS) throw error;
  try {
    return await again();
  } catch (next) {
    if (!isFetchError(next) || next.code !== 'SCRAPE_TIMEOUT') throw next;
    throw new FetchError(
      'SCRAPE_TIMEOUT',
      `${next.message} Chromium went away while ${redactUrl(request.url)} loaded (killed, or out of memory), and ` +
        'the page was loaded again in a new browser within the same timeout.',
      { ...(next.url !== undefined ? { url: next.url } : {}), cause: next },
    );
  }
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

/** Where a browser load's time went before its request, for the message of its timeout. */
export interface LoadTiming {
  /** Ms from the load's start until it had one of the browser's page slots; absent while it still waited for one. */
  slotMs?: number;
  /** Ms from the load's start until its page's request went out; absent when it never did. */
  readyMs?: number;
  /** The browser's page slots (`browser.maxConcurrentPages`). */
  pagesAtOnce: number;
}

/** One load's times, shared by its deadline's timer and the load itself. */
export interface LoadClock extends LoadTiming {
  /** `Date.now()` when the load began. */
  startedAt: number;
  /** The timeout the caller set, which the messages of a deadline name. */
  statedMs: number;
}

/** A wait for a page slot shorter than this is not told (a slot free at once still takes a turn of the loop). */
const TOLD_SLOT_WAIT_MS = 100;

/**
 * A page load past its time that nothing names better (a silent proxy is named instead): that the time ran out while
 * every browser page was busy with other requests (a batch of more pages than `browser.maxConcurrentPages`, each
 * waiting its turn within its own timeout), or how long the browser's page took to be ready for the request and how
 * much of that was the wait for a free page, and what to change.
 */
export function loadTooLong(url: string, timeoutMs: number, timing: LoadTiming, cause?: unknown): FetchError {
  const safeUrl = redactUrl(url);
  const head = `Loading ${safeUrl} in the browser took longer than the ${timeoutMs} ms timeout allows`;
  const n = timing.pagesAtOnce;
  const busy =
    n === 1
      ? 'the one browser page (browser.maxConcurrentPages) was busy'
      : `all ${n} browser pages (browser.maxConcurrentPages) were busy`;
  const fewer =
    "scrape fewer pages at once (concurrency, a batch's or crawl's maxConcurrency), raise " +
    'browser.maxConcurrentPages, or raise timeout.';
  const { slotMs, readyMs } = timing;
  const waited = slotMs !== undefined && slotMs >= TOLD_SLOT_WAIT_MS ? Math.round(slotMs) : undefined;
  let message: string;
  if (slotMs === undefined) {
    message = `${head} waiting for a browser page: ${busy} with other pages until then. S${fewer.slice(1)}`;
  } else if (readyMs === undefined) {
    message = waited
      ? `${head}, before the page's request could be sent: it waited ${waited} ms for a free browser page ` +
        `(browser.maxConcurrentPages: ${n}), and its page was not ready yet after that. S${fewer.slice(1)}`
      : `${head}, before the page's request could be sent: the browser and its page were not ready yet (a busy ` +
        'machine, or a browser starting). Raise timeout.';
  } else {
    message =
      `${head} (its browser page was ready after ${Math.round(readyMs)} ms` +
      `${waited ? `, ${waited} ms of them waiting for a free one (browser.maxConcurrentPages: ${n})` : ''}): ` +
      (waited ? fewer : 'raise timeout.');
  }
  return new FetchError('SCRAPE_TIMEOUT', message, { url: safeUrl, ...(cause === undefined ? {} : { cause }) });
}

/** The error of a page whose browser or renderer crashed (or whose connection to `wsEndpoint` was lost). */
export function crashedError(url: string, cause: unknown, endpoint?: string): BrowserError {
  const message =
    endpoint === undefined
      ? `Chromium or the page's renderer crashed while loading ${url}.`
      : `The connection to the browser at ${endpoint} (browser.wsEndpoint) was lost while loading ${url}.`;
  return new BrowserError('BROWSER_CRASHED', message, { url, cause });
}
