import type { JobRecord } from '@crawlkit/store';

import { CrawlkitError, hasCrawlkitCode, type CrawlkitCodedError } from './errors.js';
import type { CrawlkitErrorCode } from './error-codes.js';
import { sleep } from '@crawlkit/actions/sleep';

/**
 * Codes of a store that cannot be written or read for now: a full disk or an I/O error (`STORE_IO`), a lock held too
 * long (`STORE_BUSY`), Redis down (`REDIS_UNAVAILABLE`). Work that meets one is retried once the store answers again:
 * it is never recorded as a page's failure, nor ends a job (issue 38).
 */
const STORE_FAULT_CODES: ReadonlySet<string> = new Set<CrawlkitErrorCode>([
  'STORE_IO',
  'STORE_BUSY',
  'REDIS_UNAVAILABLE',
]);

/** Whether `error` is a store fault (see `STORE_FAULT_CODES`). */
export function isStoreFault(error: unknown): boolean {
  return hasCrawlkitCode(error) && STORE_FAULT_CODES.has(error.code);
}

/** What a job's status says of a store fault: its stable code (`STORE_IO` for an error without one) and message. */
export function describeStoreFault(error: unknown): { code: string; message: string } {
  return {
    code: hasCrawlkitCode(error) ? error.code : 'STORE_IO',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The code of a store that refuses a command for good (`NOPERM`, `WRONGTYPE`, a script error: see `@crawlkit/redis`'s
 * errors): trying again meets the same answer, so the work that meets it ends its job failed instead of waiting.
 */
const STORE_REFUSAL_CODE = 'REDIS_REFUSED' satisfies CrawlkitErrorCode;

/** Whether `error` is a store's refusal for good (see `STORE_REFUSAL_CODE`). */
export function isStoreRefusal(error: unknown): error is Error & CrawlkitCodedError {
  return error instanceof Error && hasCrawlkitCode(error) && error.code === STORE_REFUSAL_CODE;
}

/**
 * The store fault or refusal a page's outcome carries (its scrape could not read or write the page cache), as an error
 * to throw: the page is not what failed; its task is retried, or its job fails on a refusal.
 */
export function pageStoreFault(outcome: unknown): CrawlkitError | undefined {
  const error = (outcome as { success?: boolean; error?: { code?: string; error?: string } } | null)?.error;
  if ((outcome as { success?: boolean }).success !== false || !error?.code) return undefined;
  if (!STORE_FAULT_CODES.has(error.code) && error.code !== STORE_REFUSAL_CODE) {
    return undefined;
  }
  return new CrawlkitError(error.code as CrawlkitErrorCode, error.error ?? error.code);
}

/** First wait after a store fault, in milliseconds; it doubles with each fault in a row. */
const FIRST_DELAY_MS = 250;
/** Longest wait between two tries of a store that keeps failing, in milliseconds. */
const MAX_DELAY_MS = 5_000;

/** How long to wait after the `streak`-th store fault in a row (1 for the first): 250 ms doubling, at most 5 s. */
export function storeFaultDelay(streak: number): number {
  return Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, streak - 1), MAX_DELAY_MS);
}

/**
 * Runs `write` until it succeeds, waiting `storeFaultDelay` after each store fault (`onFault` hears each one). Any
 * other error rejects at once; so does the last fault once `signal` has aborted.
 */
export async function retryStoreFaults<T>(
  write: () => Promise<T>,
  signal?: AbortSignal,
  onFault?: (error: unknown) => void,
): Promise<T> {
  for (let streak = 1; ; streak++) {
    try {
      return await write();
    } catch (error) {
      if (!isStoreFault(error) || signal?.aborted) throw error;
      onFault?.(error);
      await sleep(storeFaultDelay(streak), signal);
      if (signal?.aborted) throw error;
    }
  }
}

/**
 * The status `warning` of a running job stalled on its store: its workers met a passing fault
 * (`JobStore.noteStoreFault`; for a job run in this process, `runsHere`, its runner's `StoreStall`) and stored no page
 * since. Which fault, since when, what to do (in the store's message) and what ends the wait: on a distributed
 * backend's workers, `storeFaultTimeoutMs`; in this process (the embedded store, no workers), nothing but room in the
 * store or a cancel, and the warning says those, not an option that does not apply there.
 */
export function storeStallWarning(job: JobRecord, runsHere = false): string | undefined {
  const fault = job.storeFault;
  if (job.status !== 'scraping' || !fault || fault.at < job.updatedAt) return undefined;
  const since = new Date(fault.since).toISOString();
  if (runsHere) {
    return (
      `The job is waiting on its store: since ${since} this process cannot store its pages (${fault.code}: ` +
      `${fault.message}). It goes on by itself once the store takes them, however long that is: free room where the ` +
      'store lives (the disk of its directory, --store or storeDir), or cancel the job; its stored pages are kept.'
    );
  }
  return (
    `The job is waiting on its store: since ${since} its workers cannot store its pages (${fault.code}: ` +
    `${fault.message}). It goes on once the store takes them, and ends failed once the store has failed it for ` +
    'storeFaultTimeoutMs (crawlkit worker --store-fault-timeout-ms, an hour by default).'
  );
}
