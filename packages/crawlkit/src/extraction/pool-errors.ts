import { isErrorCode } from '../error-codes.js';
import { CrawlkitError } from '../errors.js';
import type { CallReply } from './calls.js';

/** The error a call's reply carries, as the caller gets it. */
export function replyError(outcome: Extract<CallReply, { ok: false }>): Error {
  if (outcome.code !== undefined && isErrorCode(outcome.code)) return new CrawlkitError(outcome.code, outcome.message);
  if (outcome.name === 'RangeError') {
    // Maximum call stack size, invalid string or array length: the page's structure is past what can be built.
    return new CrawlkitError('SCRAPE_PAGE_TOO_COMPLEX', `The page is too complex to extract: ${outcome.message}.`);
  }
  const error = new Error(outcome.message);
  error.name = outcome.name;
  return error;
}

/** A call's worker thread died under it (a crash, or stopped from outside). */
export class WorkerDeath extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'WorkerDeath';
  }
}

/**
 * A call whose worker thread died under it twice, in two threads (not out of memory, not stopped by the pool): the
 * page is not extracted. Said with what to do, as the table's action: a retry (another run may not meet what ended
 * the threads), and a report when it repeats on the page.
 */
export function diedTwice(again: WorkerDeath): CrawlkitError {
  return new CrawlkitError(
    'SCRAPE_EXTRACTION_FAILED',
    `The worker thread extracting the page stopped (${again.message}), and again in a fresh thread, so the page ` +
      'was not extracted. Retry it; if it fails so again, report it with the page.',
    { cause: again.cause },
  );
}

/** A call's worker stopped (or could not load) before it started the call: `cause` is why. */
export class NotStarted {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

/**
 * A call failed before any worker thread of its pool started one: the threads cannot load their module (a file of
 * crawlkit missing where it runs), so the call is not sent again (it would wait for a working thread until its
 * timeout, as `SCRAPE_TIMEOUT` blaming busy workers).
 */
export function workerStartError(error: unknown): CrawlkitError {
  const reason = error instanceof Error ? error.message : String(error);
  return new CrawlkitError(
    'SCRAPE_EXTRACTION_FAILED',
    `The extraction worker threads could not start: ${reason}. Reinstall crawlkit if its files are damaged; an app ` +
      'bundled into one file keeps crawlkit external (crawlkit README, Bundling).',
    { cause: error },
  );
}
