import { CrawlkitError, isCrawlkitError, toErrorResponse } from './errors.js';
import type { ErrorResponse } from './v2/types.js';

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
  /**
   * Base of the job addresses in the answer (a job's `url` and `next`). An HTTP server passes its own address, e.g.
   * `http://127.0.0.1:3002`; every status method reads such an address in place of the id.
   * @default 'crawlkit://'
   */
  baseUrl?: string;
  /**
   * Who the call acts for (an HTTP server passes one per API key). Jobs started with a tenant belong to it: calls
   * with another tenant answer `JOB_NOT_FOUND` for them, as for a job that does not exist. Calls without a tenant
   * (the function API, the CLI, a keyless server) see every job; jobs started without one are seen by every tenant.
   * @default undefined (the operator: every job)
   */
  tenant?: string;
  /**
   * Credits the engine may have committed, with this call's: `scrape`, `map`, `crawl` and `batchScrape` reserve what
   * they expect to cost before starting (a crawl or batch page by page as it runs) and answer `INSUFFICIENT_CREDITS`
   * (HTTP 402) when it does not fit. The count is kept in the store, shared by the processes using it and across
   * restarts (`ck.credits.committed()`); with a `tenant`, the tenant's own count, held to the limit alone (an HTTP
   * server's keys each have the whole limit). An HTTP server's `--credit-limit`.
   * @default undefined (no limit)
   */
  creditLimit?: number;
}

/** Options of a scrape. */
export interface ScrapeCallOptions extends CallOptions {
  /**
   * Keep the document in the store for `jobResultTtlMs`, so that `getScrape(scrapeId)` (`GET /v2/scrape/:id`) finds
   * it. The HTTP server sets it for every scrape; a function-API caller has the document already. Never for
   * `zeroDataRetention`.
   * @default false
   */
  keepResult?: boolean;
}

/** Options of a crawl or batch start. */
export interface JobStartOptions extends CallOptions {
  /**
   * The `x-idempotency-key` of the v2 API: a second start with the same key answers `IDEMPOTENCY_KEY_REUSED` (HTTP
   * 409) instead of starting another job, in every process sharing the store and after a restart, for as long as
   * the first job is kept (`jobResultTtlMs` after it ends). 1 to 256 characters.
   * @default undefined (every start creates a job)
   */
  idempotencyKey?: string;
}

/** Options of `waitForJob`. */
export interface WaitOptions extends CallOptions {
  /**
   * Answer the job's documents in `data`. `false` answers its final status with `data: []` and reads none of them:
   * for a caller that reads a page of them after (`getCrawlStatus` with `skip` and `limit`), so that a large job is
   * not held in memory whole.
   * @default true
   */
  documents?: boolean;
}

/** Options of `watch`. */
export interface WatchOptions extends CallOptions {
  /**
   * Documents to pass over first, in the order `watch` yields them (the order they were stored): a script resumed
   * after a crash gives the count it had already taken, and gets the documents that came after.
   * @default 0
   */
  skip?: number;
}

/** Every call option, of every method. */
type AllCallOptions = ScrapeCallOptions & JobStartOptions & WaitOptions & WatchOptions;

/** The call options only some methods take, and which: given to another method, they are refused. */
const METHOD_OPTIONS = {
  keepResult: ['scrape'],
  idempotencyKey: ['crawl', 'batchScrape'],
  documents: ['waitForJob'],
  skip: ['watch'],
} as const satisfies Record<Exclude<keyof AllCallOptions, keyof CallOptions>, readonly string[]>;

/** A call option of some methods only (`METHOD_OPTIONS`). */
export type MethodOption = keyof typeof METHOD_OPTIONS;
/** The options of `METHOD_OPTIONS` a method takes. */
export type Takes = readonly MethodOption[];

/**
 * Every key of the call options (`CallOptions` and the interfaces extending it), checked against them by the
 * compiler: an option added to an interface and not here fails the build instead of being refused at run time.
 */
const CALL_OPTION_KEYS = new Set(
  Object.keys({
    signal: true,
    baseUrl: true,
    tenant: true,
    creditLimit: true,
    keepResult: true,
    idempotencyKey: true,
    documents: true,
    skip: true,
  } satisfies Record<keyof AllCallOptions, true>),
);

/**
 * The signal of a call's options (`undefined` and `null` are no options); anything else is a `BAD_REQUEST`. An
 * unknown key is refused: a v2 option put there by the SDKs' `scrape(url, options)` habit would be ignored (a crawl's
 * `limit` left at 10,000). So is an option of other methods than this one, which `takes` those it takes (before,
 * `documents: false` on a status read was ignored); one set to `undefined` is no option.
 */
export function signalOf(init: unknown, takes: Takes = []): AbortSignal | undefined {
  if (init === undefined || init === null) return undefined;
  if (typeof init !== 'object' || Array.isArray(init)) {
    throw new CrawlkitError('BAD_REQUEST', 'The call options must be an object such as { signal }.');
  }
  const unknown = Object.keys(init).filter((key) => !CALL_OPTION_KEYS.has(key));
  if (unknown.length > 0) {
    const names = unknown.map((key) => `\`${key}\``).join(', ');
    throw new CrawlkitError(
      'BAD_REQUEST',
      `Unknown call option ${names}: the last argument takes ${[...CALL_OPTION_KEYS].join(', ')}. A v2 option goes ` +
        `in the request body, the first argument: { url, ${unknown.join(', ')}, ... }.`,
    );
  }
  const given = init as Record<string, unknown>;
  const misplaced = (Object.keys(METHOD_OPTIONS) as MethodOption[]).find(
    (key) => given[key] !== undefined && !takes.includes(key),
  );
  if (misplaced) {
    throw new CrawlkitError(
      'BAD_REQUEST',
      `\`${misplaced}\` is a call option of ${METHOD_OPTIONS[misplaced].join(' and ')} only: this method does not ` +
        `take it. Remove it from the last argument.`,
    );
  }
  const { signal } = given;
  if (signal === undefined || signal === null) return undefined;
  if (!(signal instanceof AbortSignal)) throw new CrawlkitError('BAD_REQUEST', '`signal` must be an AbortSignal.');
  return signal;
}

/** What a call aborted by its signal answers (or `watch` throws). */
export const ABORTED_MESSAGE = 'The call was aborted by its signal.';
/** What to do once an engine is closed: the jobs it ran are left resumable in its store. */
const AFTER_CLOSE =
  'make a new Crawlkit to go on (on the same store, a job left unfinished resumes with `resumeJob(id)`, or every ' +
  'one with the `resumeJobs` option).';
/** What a call made after `close()` answers (or `watch` throws). */
export const CLOSED_BEFORE_CALL = `This Crawlkit instance is closed (its close() was called): ${AFTER_CLOSE}`;
/** What a call stopped by `close()` answers (or `watch` throws). */
export const CLOSED_UNDER_CALL = `The Crawlkit instance was closed during the call (its close() was called): ${AFTER_CLOSE}`;

/** The store's `STORE_CLOSED` in an engine that is not closing: the store was closed outside it. */
export const STORE_CLOSED_OUTSIDE =
  'The store given to this Crawlkit was closed outside it: by your code, or by the close() of another Crawlkit ' +
  "given the same store object (an engine's close() closes the store it was given). Give each engine a handle of " +
  'its own, or close the shared store after the last engine.';

/** `answer` with the reason of a `STORE_CLOSED` that no `close()` of this engine caused (`stopping` not aborted). */
function withStoreClosedReason<T>(answer: T, stopping: AbortSignal | undefined): T {
  const response = answer as Partial<ErrorResponse> | undefined;
  if (stopping?.aborted || response?.success !== false || response.code !== 'STORE_CLOSED') return answer;
  return { ...response, error: STORE_CLOSED_OUTSIDE } as T;
}

/**
 * Runs `fn` with the signal of the call options `init` (which may hold the method options in `takes`), joined to
 * `stopping`, the engine's, which `close()` aborts; whatever it throws comes back in the v2 error shape: `ABORTED`
 * when the caller's signal aborted, `ENGINE_CLOSED` when `close()` stopped the call.
 */
export async function settleWithSignal<T>(
  init: unknown,
  fn: (signal: AbortSignal | undefined) => Promise<T>,
  stopping?: AbortSignal,
  takes: Takes = [],
): Promise<T | ErrorResponse> {
  let signal: AbortSignal | undefined;
  try {
    signal = signalOf(init, takes);
    const answer = await fn(signal && stopping ? AbortSignal.any([signal, stopping]) : (signal ?? stopping));
    // A step that answers its abort rather than throwing it (a fetch, an action run): the call's own abort.
    if (stopping?.aborted && !signal?.aborted && (answer as Partial<ErrorResponse>)?.code === 'ABORTED') {
      return { success: false, code: 'ENGINE_CLOSED', error: CLOSED_UNDER_CALL };
    }
    return withStoreClosedReason(answer, stopping);
  } catch (error) {
    if (signal?.aborted) return { success: false, code: 'ABORTED', error: ABORTED_MESSAGE };
    // A call made after close() says so; one under way when it came was stopped by it, whatever it threw then (the
    // abort, or the store's STORE_CLOSED under a waitForJob).
    if (isCrawlkitError(error) && error.code === 'ENGINE_CLOSED') return toErrorResponse(error);
    if (stopping?.aborted) return { success: false, code: 'ENGINE_CLOSED', error: CLOSED_UNDER_CALL };
    return withStoreClosedReason(toErrorResponse(error), stopping);
  }
}
