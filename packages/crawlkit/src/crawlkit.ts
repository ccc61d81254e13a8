import { EventEmitter } from 'node:events';

import type { JobKind } from '@crawlkit/store';
import PQueue from 'p-queue';

import { startBatchScrape } from './api/batch.js';
import { startCrawl } from './api/crawl.js';
import {
  cancelJob,
  getActiveCrawls,
  getJobErrors,
  getJobStatus,
  listUnfinishedJobs,
  resumeJob,
  waitForJob,
  type StatusPagination,
} from './api/job-queries.js';
import { mapSite } from './api/map.js';
import { scrape } from './api/scrape.js';
import { CrawlkitError, toErrorResponse } from './errors.js';
import type { CrawlkitEvents } from './events.js';
import { parseJobReference } from './jobs/job-address.js';
import {
  previewCrawlParams,
  type CrawlParamsPreviewInput,
  type CrawlParamsPreviewResponse,
} from './llm/crawl-prompt.js';
import { scopedLogger } from './logger.js';
import { resolveOptions, type CrawlkitOptions, type ResolvedOptions } from './options.js';
import { Reporter } from './reporter.js';
import { closeRuntime, createRuntime, startWorker, type Runtime } from './runtime.js';
import type { BatchScrapeRequestInput, CrawlRequestInput, MapRequestInput } from './v2/jobs.js';
import type { ScrapeRequestInput } from './v2/scrape-options.js';
import type {
  ActiveCrawlsResponse,
  BatchScrapeResponse,
  CancelResponse,
  CrawlErrorsResponse,
  CrawlResponse,
  CreditUsageResponse,
  Document,
  ErrorResponse,
  JobStatusResponse,
  MapResponse,
  ScrapeResponse,
} from './v2/types.js';
import type { CrawlkitWorker, WorkerOptions } from './worker/task-worker.js';

/** The answer of a call whose `signal` aborted. */
function abortedResponse(): ErrorResponse {
  return { success: false, code: 'ABORTED', error: 'The call was aborted by its signal.' };
}

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
}

/**
 * A crawlkit engine: one method per v2 endpoint, taking and returning the v2 JSON shapes. Bad input never throws:
 * it comes back as `{ success: false, code, error, details }`. Only the constructor throws, for bad options
 * (`InvalidOptionError`, code `INVALID_OPTION`).
 */
export class Crawlkit extends EventEmitter<CrawlkitEvents> {
  readonly #options: ResolvedOptions;
  readonly #raw: CrawlkitOptions;
  readonly #queue: PQueue;
  readonly #reporter: Reporter;
  #runtime: Promise<Runtime> | undefined;
  #closed = false;

  /** @throws {InvalidOptionError} naming every unknown, mistyped or out-of-range option. */
  constructor(options: CrawlkitOptions = {}) {
    super();
    this.#options = resolveOptions(options);
    this.#raw = options;
    this.#queue = new PQueue({ concurrency: this.#options.concurrency });
    this.#reporter = new Reporter(this, scopedLogger(options.logger, 'engine'));
    if (this.#options.resumeJobs) {
      this.#ready()
        .then((rt) => rt.jobs.resumeAll())
        .catch((error: unknown) => this.#reporter.error(undefined, '', error));
    }
  }

  /** `POST /v2/scrape`: scrapes one URL. */
  async scrape(body: ScrapeRequestInput, init: CallOptions = {}): Promise<ScrapeResponse | ErrorResponse> {
    return this.#settle(() => scrape(() => this.#ready(), body, init.signal), init.signal);
  }

  /** `POST /v2/crawl`: starts a crawl in the background and returns its id at once. */
  async crawl(body: CrawlRequestInput, init: CallOptions = {}): Promise<CrawlResponse | ErrorResponse> {
    return this.#guard(async (rt) => startCrawl(rt.ctx, rt.jobs, body), init.signal);
  }

  /** `GET /v2/crawl/:id`: status and a page of results. `id` may be a `next` address. */
  async getCrawlStatus(
    id: string,
    pagination: StatusPagination = {},
    init: CallOptions = {},
  ): Promise<JobStatusResponse | ErrorResponse> {
    return this.#guard(
      (rt) => getJobStatus(rt.jobs, 'crawl', id, pagination, this.#options.jobResultTtlMs),
      init.signal,
    );
  }

  /** `DELETE /v2/crawl/:id`. */
  async cancelCrawl(id: string, init: CallOptions = {}): Promise<CancelResponse | ErrorResponse> {
    return this.#guard((rt) => cancelJob(rt.jobs, 'crawl', id), init.signal);
  }

  /** `GET /v2/crawl/:id/errors`. */
  async getCrawlErrors(id: string, init: CallOptions = {}): Promise<CrawlErrorsResponse | ErrorResponse> {
    return this.#guard((rt) => getJobErrors(rt.jobs, 'crawl', id), init.signal);
  }

  /** `GET /v2/crawl/active`: crawls still running. */
  async getActiveCrawls(init: CallOptions = {}): Promise<ActiveCrawlsResponse | ErrorResponse> {
    return this.#guard((rt) => getActiveCrawls(rt.jobs), init.signal);
  }

  /** `POST /v2/batch/scrape`. */
  async batchScrape(
    body: BatchScrapeRequestInput,
    init: CallOptions = {},
  ): Promise<BatchScrapeResponse | ErrorResponse> {
    return this.#guard(
      (rt) =>
        startBatchScrape(
          { jobs: rt.jobs, llm: rt.ctx.llm, ...(rt.urlPolicy ? { urlPolicy: rt.urlPolicy } : {}) },
          body,
        ),
      init.signal,
    );
  }

  /** `GET /v2/batch/scrape/:id`. */
  async getBatchScrapeStatus(
    id: string,
    pagination: StatusPagination = {},
    init: CallOptions = {},
  ): Promise<JobStatusResponse | ErrorResponse> {
    return this.#guard(
      (rt) => getJobStatus(rt.jobs, 'batch', id, pagination, this.#options.jobResultTtlMs),
      init.signal,
    );
  }

  /** `DELETE /v2/batch/scrape/:id`. */
  async cancelBatchScrape(id: string, init: CallOptions = {}): Promise<CancelResponse | ErrorResponse> {
    return this.#guard((rt) => cancelJob(rt.jobs, 'batch', id), init.signal);
  }

  /** `GET /v2/batch/scrape/:id/errors`. */
  async getBatchScrapeErrors(id: string, init: CallOptions = {}): Promise<CrawlErrorsResponse | ErrorResponse> {
    return this.#guard((rt) => getJobErrors(rt.jobs, 'batch', id), init.signal);
  }

  /** `POST /v2/map`: the URLs of a site, from sitemaps and links, without scraping contents. */
  async map(body: MapRequestInput, init: CallOptions = {}): Promise<MapResponse | ErrorResponse> {
    return this.#guard((rt) => mapSite(rt.ctx, body, init.signal), init.signal);
  }

  /** `POST /v2/crawl/params-preview`: the crawler options a crawl `prompt` would generate, without crawling. */
  async crawlParamsPreview(
    body: CrawlParamsPreviewInput,
    init: CallOptions = {},
  ): Promise<CrawlParamsPreviewResponse | ErrorResponse> {
    return this.#guard((rt) => previewCrawlParams(rt.ctx, body, init.signal), init.signal);
  }

  /** `GET /v2/team/credit-usage`: credits this engine instance has accounted for (nothing is charged). */
  getCreditUsage(): CreditUsageResponse {
    return {
      success: true,
      data: {
        remainingCredits: Number.MAX_SAFE_INTEGER,
        planCredits: Number.MAX_SAFE_INTEGER,
        billingPeriodStart: null,
        billingPeriodEnd: null,
        creditsUsed: this.#reporter.credits,
      },
    };
  }

  /**
   * Yields each document of a crawl or batch as it is stored, then ends when the job has finished.
   * @throws {CrawlkitError} `BAD_REQUEST` for an invalid id.
   */
  async *watch(id: string, init: CallOptions = {}): AsyncGenerator<Document, void, undefined> {
    const ref = parseJobReference(id);
    if (!ref) throw new CrawlkitError('BAD_REQUEST', 'Invalid job ID format. Job ID must be a valid UUID.');
    const rt = await this.#ready();
    yield* rt.jobs.watch(ref.id, init.signal);
  }

  /** Resolves to the job's final status (all result pages joined) once it has finished. */
  async waitForJob(id: string, init: CallOptions = {}): Promise<JobStatusResponse | ErrorResponse> {
    return this.#guard((rt) => waitForJob(rt.jobs, id, this.#options.jobResultTtlMs, init.signal), init.signal);
  }

  /** Unfinished jobs in the store: left by a crash, or running in another process. */
  async listUnfinishedJobs(): Promise<{ id: string; kind: JobKind; createdAt: string }[]> {
    return listUnfinishedJobs((await this.#ready()).jobs);
  }

  /** Resumes an unfinished job in this process; every page is still scraped exactly once. */
  async resumeJob(id: string, init: CallOptions = {}): Promise<{ success: true; id: string } | ErrorResponse> {
    return this.#guard((rt) => resumeJob(rt.jobs, id), init.signal);
  }

  /** The page cache. */
  readonly cache = {
    /** Deletes every cached page. */
    clear: async (): Promise<void> => {
      const rt = await this.#ready();
      await rt.ctx.store.pages.clear();
    },
    /** Deletes pages older than `maxAgeMs` and the oldest beyond the size cap. Returns how many. */
    prune: async (options: { maxAgeMs?: number } = {}): Promise<number> => {
      const rt = await this.#ready();
      return rt.ctx.store.pages.prune({
        maxBytes: this.#options.cacheMaxBytes,
        ...(options.maxAgeMs !== undefined ? { olderThan: options.maxAgeMs } : {}),
      });
    },
  };

  /**
   * Stops the browser and running jobs (they stay resumable), delivers what it can of pending webhooks, and closes
   * the store. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const rt = await this.#runtime?.catch(() => undefined);
    if (rt) await closeRuntime(rt);
  }

  /**
   * Makes this process a worker of the distributed `backend`: it takes scrape tasks of every job from the shared
   * queue until the worker or the engine is closed. Rejects with `BACKEND_REQUIRED` without a backend.
   */
  async startWorker(options: WorkerOptions = {}): Promise<CrawlkitWorker> {
    return startWorker(await this.#ready(), options);
  }

  /** Runs `fn` on the runtime; a thrown error or an abort comes back in the v2 error shape. */
  async #guard<T>(fn: (rt: Runtime) => Promise<T>, signal?: AbortSignal): Promise<T | ErrorResponse> {
    return this.#settle(async () => {
      signal?.throwIfAborted();
      const rt = await this.#ready();
      signal?.throwIfAborted();
      return fn(rt);
    }, signal);
  }

  async #settle<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T | ErrorResponse> {
    try {
      return await fn();
    } catch (error) {
      if (signal?.aborted) return abortedResponse();
      return toErrorResponse(error);
    }
  }

  #ready(): Promise<Runtime> {
    if (this.#closed) return Promise.reject(new CrawlkitError('ENGINE_CLOSED', 'This Crawlkit instance is closed.'));
    this.#runtime ??= createRuntime({
      raw: this.#raw,
      options: this.#options,
      queue: this.#queue,
      reporter: this.#reporter,
    });
    return this.#runtime;
  }
}
