import { batchContextOf, startBatchScrape } from './api/batch.js';
import { CLOSED_BEFORE_CALL, settleWithSignal, type Takes } from './call-options.js';
import type { CallOptions, JobStartOptions, ScrapeCallOptions, WaitOptions, WatchOptions } from './call-options.js';
import { startCrawl } from './api/crawl.js';
import { getCrawlChanges } from './api/crawl-changes.js';
import { readJobDocuments, type JobDocumentsPage, type JobDocumentsText } from './api/job-documents.js';
import { watchJob } from './api/watch.js';
import {
  cancelJob,
  getActiveCrawls,
  getJobErrors,
  getJobStatus,
  listUnfinishedJobs,
  resumeJob,
  waitForJob,
  type StatusPagination,
  type UnfinishedJob,
} from './api/job-queries.js';
import { chargedMap } from './api/map.js';
import { webProvider } from './search/options.js';
import type { SearchRequestInput } from './search/request.js';
import type { SearchResponse } from './search/run-search.js';
import { searchSetup, type SearchSetup } from './search/setup.js';
import { searchModule } from './lazy-features.js';
import { parseFile, type ParseFile, type ParseOptionsInput } from './api/parse.js';
import { concurrencyCheck, creditUsage, MAP_CREDITS, queueStatus, tokenUsage, type SlotState } from './api/usage.js';
import { scrape } from './api/scrape.js';
import { cacheMethods, type CacheMethods } from './api/cache-prune.js';
import { getKeptScrape } from './api/scrape-results.js';
import { checkReady, type ReadyResponse } from './api/readiness.js';
import { callOf } from './credits/charge.js';
import { creditLedger } from './credits/ledger.js';
import { CrawlkitError, toErrorResponse } from './errors.js';
import { CrawlkitEmitter } from './events.js';
import {
  previewCrawlParams,
  type CrawlParamsPreviewInput,
  type CrawlParamsPreviewResponse,
} from './llm/crawl-prompt.js';
import { scopedLogger } from './logger.js';
import { resolveOptions, type CrawlkitOptions, type ResolvedOptions } from './options.js';
import { EventBus } from './event-bus.js';
import { closeEngine, createRuntime, startWorker, type Runtime } from './runtime.js';
import type { BatchScrapeRequestInput, CrawlRequestInput, MapRequestInput } from './v2/jobs.js';
import type { ScrapeRequestInput } from './v2/scrape-options.js';
import type {
  ActiveCrawlsResponse,
  BatchScrapeResponse,
  CancelResponse,
  CrawlChangesResponse,
  CrawlErrorsResponse,
  CrawlResponse,
  ConcurrencyCheckResponse,
  CreditUsageResponse,
  Document,
  ErrorResponse,
  JobStatusResponse,
  MapResponse,
  QueueStatusResponse,
  ScrapeResponse,
  TokenUsageResponse,
} from './v2/types.js';
import type { CrawlkitWorker, WorkerOptions } from './worker/task-worker.js';
import { monitorMethods, type MonitorMethods } from './monitors/monitor-methods.js';
import { scheduleMethods, type ScheduleMethods } from './schedules/schedule-methods.js';
import { ScrapeSlots } from './scrape-slots.js';

/**
 * A crawlkit engine: one method per v2 endpoint, taking and returning the v2 JSON shapes. Bad input never throws:
 * it comes back as `{ success: false, code, error, details }`. Only the constructor throws, for bad options
 * (`InvalidOptionError`, code `INVALID_OPTION`).
 */
export class Crawlkit extends CrawlkitEmitter {
  readonly #options: ResolvedOptions;
  /**
   * Largest file `parse()` takes, in bytes (the `parseFileLimit` option, resolved): the HTTP server's uploads take the
   * same unless it is given its own.
   */
  readonly parseFileLimit: number;
  readonly #raw: CrawlkitOptions;
  readonly #queue: ScrapeSlots;
  readonly #bus: EventBus;
  readonly #searchSetup: SearchSetup;
  #runtime: Promise<Runtime> | undefined;
  /** Aborted by `close()`: the calls under way stop (`ENGINE_CLOSED`), their pages closed and slots freed. */
  readonly #stopping = new AbortController();
  #closing: Promise<void> | undefined;

  /** @throws {InvalidOptionError} naming every unknown, mistyped or out-of-range option. */
  constructor(options: CrawlkitOptions = {}) {
    super();
    this.#options = resolveOptions(options);
    this.parseFileLimit = this.#options.parseFileLimit;
    this.#raw = options;
    this.#queue = new ScrapeSlots(this.#options.concurrency);
    this.#bus = new EventBus(this, scopedLogger(options.logger, 'engine'));
    const { provider, embeddingModel } = this.#options.search;
    this.#searchSetup = searchSetup(webProvider(provider), embeddingModel);
    // The runtime starts the scheduler of `runSchedules` itself.
    const { resumeJobs, runSchedules } = this.#options;
    if (resumeJobs || runSchedules) this.#open((rt) => (resumeJobs ? rt.jobs.resumeAll() : undefined));
  }

  /** `POST /v2/scrape`: scrapes one URL. */
  async scrape(body: ScrapeRequestInput, init: ScrapeCallOptions = {}): Promise<ScrapeResponse | ErrorResponse> {
    return this.#settle(init, (signal) => scrape(() => this.#ready(), body, signal, init ?? {}), ['keepResult']);
  }

  /**
   * `GET /v2/scrape/:id`: a scrape's document by its `metadata.scrapeId`, when the scrape was made with
   * `keepResult` (every scrape of the HTTP server) less than `jobResultTtlMs` ago.
   */
  async getScrape(id: string, init: CallOptions = {}): Promise<ScrapeResponse | ErrorResponse> {
    return this.#guard(init, (rt) => getKeptScrape(rt.ctx.store, id, this.#options.jobResultTtlMs, init?.tenant));
  }

  /**
   * `POST /v2/parse`: converts an uploaded file (PDF, Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV, HTML,
   * text, an image by OCR) into a document, as a scrape of a URL serving it would.
   */
  async parse(
    file: ParseFile,
    options: ParseOptionsInput = {},
    init: CallOptions = {},
  ): Promise<ScrapeResponse | ErrorResponse> {
    const call = { ...callOf(init), fileLimit: this.parseFileLimit };
    return this.#settle(init, (signal) => parseFile(() => this.#ready(), file, options, signal, call));
  }

  /** `POST /v2/crawl`: starts a crawl in the background and returns its id at once. */
  async crawl(body: CrawlRequestInput, init: JobStartOptions = {}): Promise<CrawlResponse | ErrorResponse> {
    return this.#guard(init, async (rt) => startCrawl(rt.ctx, rt.jobs, body, init ?? {}), ['idempotencyKey']);
  }

  /** `GET /v2/crawl/:id`: status and a page of results. `id` may be a `next` address. */
  async getCrawlStatus(
    id: string,
    pagination: StatusPagination = {},
    init: CallOptions = {},
  ): Promise<JobStatusResponse | ErrorResponse> {
    return this.#guard(init, (rt) =>
      getJobStatus(rt.jobs, 'crawl', id, pagination, this.#options.jobResultTtlMs, init?.baseUrl, init?.tenant),
    );
  }

  /** `DELETE /v2/crawl/:id`. */
  async cancelCrawl(id: string, init: CallOptions = {}): Promise<CancelResponse | ErrorResponse> {
    return this.#guard(init, (rt) => cancelJob(rt.jobs, 'crawl', id, init?.tenant));
  }

  /** `GET /v2/crawl/:id/errors`. */
  async getCrawlErrors(id: string, init: CallOptions = {}): Promise<CrawlErrorsResponse | ErrorResponse> {
    return this.#guard(init, (rt) => getJobErrors(rt.jobs, 'crawl', id, init?.tenant));
  }

  /**
   * `GET /v2/crawl/:id/changes` (crawlkit's own): a crawl's change feed against its lineage's last run, paged like a
   * status. `id` may be a `next` address.
   */
  async getCrawlChanges(
    id: string,
    pagination: StatusPagination = {},
    init: CallOptions = {},
  ): Promise<CrawlChangesResponse | ErrorResponse> {
    return this.#guard(init, (rt) => getCrawlChanges(rt.jobs, id, pagination, init?.baseUrl, init?.tenant));
  }

  /** `GET /v2/crawl/active`: crawls still running. */
  async getActiveCrawls(init: CallOptions = {}): Promise<ActiveCrawlsResponse | ErrorResponse> {
    return this.#guard(init, (rt) => getActiveCrawls(rt.jobs, init?.tenant));
  }

  /** `POST /v2/batch/scrape`. */
  async batchScrape(
    body: BatchScrapeRequestInput,
    init: JobStartOptions = {},
  ): Promise<BatchScrapeResponse | ErrorResponse> {
    const start = (rt: Runtime) => startBatchScrape(batchContextOf(rt), body, init ?? {});
    return this.#guard(init, start, ['idempotencyKey']);
  }

  /** `GET /v2/batch/scrape/:id`. */
  async getBatchScrapeStatus(
    id: string,
    pagination: StatusPagination = {},
    init: CallOptions = {},
  ): Promise<JobStatusResponse | ErrorResponse> {
    return this.#guard(init, (rt) =>
      getJobStatus(rt.jobs, 'batch', id, pagination, this.#options.jobResultTtlMs, init?.baseUrl, init?.tenant),
    );
  }

  /** `DELETE /v2/batch/scrape/:id`. */
  async cancelBatchScrape(id: string, init: CallOptions = {}): Promise<CancelResponse | ErrorResponse> {
    return this.#guard(init, (rt) => cancelJob(rt.jobs, 'batch', id, init?.tenant));
  }

  /** `GET /v2/batch/scrape/:id/errors`. */
  async getBatchScrapeErrors(id: string, init: CallOptions = {}): Promise<CrawlErrorsResponse | ErrorResponse> {
    return this.#guard(init, (rt) => getJobErrors(rt.jobs, 'batch', id, init?.tenant));
  }

  /** `POST /v2/map`: the URLs of a site, from sitemaps and links, without scraping contents. */
  async map(body: MapRequestInput, init: CallOptions = {}): Promise<MapResponse | ErrorResponse> {
    return this.#guard(init, async (rt, signal) => {
      const result = await chargedMap(rt.ctx, body, signal, callOf(init), rt.bus.warning);
      if (result.success) this.#bus.charge(MAP_CREDITS, init?.tenant);
      return result;
    });
  }

  /**
   * `POST /v2/search`: the pages crawlkit stored (its search index) and, when one is configured, a web search
   * provider; results grouped by source, each with its document when `scrapeOptions` is given.
   */
  async search(body: SearchRequestInput, init: CallOptions = {}): Promise<SearchResponse | ErrorResponse> {
    return this.#guard(init, async (rt, signal) =>
      (await searchModule()).runSearch(rt, this.#searchSetup, body, signal, callOf(init)),
    );
  }

  /** `POST /v2/crawl/params-preview`: the crawler options a crawl `prompt` would generate, without crawling. */
  async crawlParamsPreview(
    body: CrawlParamsPreviewInput,
    init: CallOptions = {},
  ): Promise<CrawlParamsPreviewResponse | ErrorResponse> {
    return this.#guard(init, (rt, signal) => previewCrawlParams(rt.ctx, body, signal));
  }

  /**
   * `GET /v2/team/credit-usage`: credits this engine instance has accounted for (nothing is charged), the tenant's
   * own with `init.tenant`, against a nominal plan of a billion credits; after `close()`, the final count.
   */
  getCreditUsage(init: CallOptions = {}): CreditUsageResponse {
    return creditUsage(this.#usage(init).credits);
  }

  /** `GET /v2/team/token-usage`: model tokens its pages used (the tenant's); after `close()`, the final count. */
  getTokenUsage(init: CallOptions = {}): TokenUsageResponse {
    return tokenUsage(this.#usage(init).tokens);
  }

  /** `GET /v2/team/queue-status`: scrapes in the slots and waiting (the tenant's); `ENGINE_CLOSED` after `close()`. */
  getQueueStatus(init: CallOptions = {}): QueueStatusResponse | ErrorResponse {
    return this.#whileOpen(() => queueStatus(this.#slots(init)));
  }

  /** `GET /v2/concurrency-check`: scrapes running (the tenant's), `concurrency`; `ENGINE_CLOSED` after `close()`. */
  getConcurrency(init: CallOptions = {}): ConcurrencyCheckResponse | ErrorResponse {
    return this.#whileOpen(() => concurrencyCheck(this.#slots(init)));
  }

  /** A closed engine has no slots: what they hold is answered by an open one only. */
  #whileOpen<T>(answer: () => T): T | ErrorResponse {
    if (this.#stopping.signal.aborted) return toErrorResponse(new CrawlkitError('ENGINE_CLOSED', CLOSED_BEFORE_CALL));
    return answer();
  }

  #usage(init: CallOptions | undefined) {
    this.#open();
    return this.#bus.usageOf(init?.tenant);
  }

  #slots(init: CallOptions | undefined): SlotState {
    const { lastSuccess } = this.#usage(init);
    return { ...this.#queue.of(init?.tenant), concurrency: this.#options.concurrency, lastSuccess };
  }

  /**
   * Yields each document of a crawl or batch as it is stored, from the first (past `skip` of them), then ends when
   * the job has finished.
   * @throws {CrawlkitError} `BAD_REQUEST` for an invalid id, `JOB_NOT_FOUND` for a job the store does not hold (or
   * another tenant's), `ABORTED` when the signal of `init` aborts, `ENGINE_CLOSED` when `close()` stops it; a store
   * fault (`REDIS_UNAVAILABLE`, `STORE_IO`) while the job goes on: watch again with `skip`, as `crawl --redis` does.
   */
  watch(id: string, init: WatchOptions = {}): AsyncGenerator<Document, void, undefined> {
    return watchJob(
      id,
      init,
      () => this.#ready(),
      () => this.#stopping.signal.aborted,
    );
  }

  /**
   * A page of a crawl's or batch's documents as the JSON text they are answered with, unparsed: from `skip`, at most
   * `limit`, about `maxChars` characters (at least one document). For servers streaming a large job a page at a time.
   */
  async readJobDocuments(
    id: string,
    page: JobDocumentsPage = {},
    init: CallOptions = {},
  ): Promise<JobDocumentsText | ErrorResponse> {
    return this.#guard(init, (rt) => readJobDocuments(rt.jobs, id, page ?? {}, init?.tenant));
  }

  /** Resolves to the job's final status once it has finished: all its documents, or none (`documents: false`). */
  async waitForJob(id: string, init: WaitOptions = {}): Promise<JobStatusResponse | ErrorResponse> {
    const ttl = this.#options.jobResultTtlMs;
    return this.#guard(init, (rt, signal) => waitForJob(rt.jobs, id, ttl, signal, init ?? {}), ['documents']);
  }

  /** Unfinished jobs in the store: left by a crash, or running in another process. */
  async listUnfinishedJobs(init: CallOptions = {}): Promise<UnfinishedJob[] | ErrorResponse> {
    return this.#guard(init, (rt) => listUnfinishedJobs(rt.jobs));
  }

  /**
   * Resumes an unfinished job in this process: every page is stored once; the pages in flight when the process that
   * ran it stopped are fetched again.
   */
  async resumeJob(id: string, init: CallOptions = {}): Promise<{ success: true; id: string } | ErrorResponse> {
    return this.#guard(init, (rt) => resumeJob(rt.jobs, id));
  }

  /** The page cache. A damaged store answers `STORE_CORRUPT` here too. */
  readonly cache: CacheMethods = cacheMethods(
    (init, fn) => this.#guard(init, (rt) => fn(rt.ctx.store)),
    () => this.#options.cacheMaxBytes,
  );

  /** Recurring crawls and scrapes kept in the store, with a webhook per change (crawlkit's own, `/v2/schedule`). */
  readonly schedules: ScheduleMethods = scheduleMethods((init, fn) =>
    this.#guard(init, async (rt) => fn({ ctx: rt.ctx, scheduler: await rt.scheduler.get(), ...callOf(init) })),
  );

  /** Monitors (`/v2/monitor`): a schedule whose every firing is a check of its pages' changes. */
  readonly monitors: MonitorMethods = monitorMethods((init, fn) => this.#guard(init, (rt) => fn(rt)));

  /** The credits committed against call `creditLimit`s (an HTTP server's `--credit-limit`), kept in the store. */
  readonly credits = {
    /** Credits spent and reserved by every process using the store since it was created (the tenant's, with one). */
    committed: async (init: CallOptions = {}): Promise<number | ErrorResponse> =>
      this.#guard(init, (rt) => creditLedger(rt.ctx.store, init?.tenant).committed()),
  };

  /** Whether the engine's store answers, and how much it can still write (what `serve`'s `/ready` checks). */
  async checkReady(init: CallOptions = {}): Promise<ReadyResponse | ErrorResponse> {
    return this.#guard(init, (rt) => checkReady(rt));
  }

  /**
   * Stops the calls under way (each answers `ENGINE_CLOSED`), the browser and running jobs (they stay resumable),
   * delivers what it can of pending webhooks, and closes the store (a store given in `store` too: waited for 2 s at
   * most, then a `STORE_CLOSE_FAILED` warning). Every call resolves once all of it is closed.
   */
  close(): Promise<void> {
    return (this.#closing ??= closeEngine(this.#stopping, this.#runtime));
  }

  /**
   * Makes this process a worker of the distributed `backend`: it takes scrape tasks of every job from the shared
   * queue until the worker or the engine is closed. Rejects with `BACKEND_REQUIRED` without a backend.
   */
  async startWorker(options: WorkerOptions = {}): Promise<CrawlkitWorker> {
    return startWorker(await this.#ready(), options);
  }

  /** Runs `fn` on the runtime; a thrown error or an abort comes back in the v2 error shape. */
  async #guard<T>(
    init: unknown,
    fn: (rt: Runtime, signal: AbortSignal | undefined) => Promise<T>,
    takes: Takes = [],
  ): Promise<T | ErrorResponse> {
    return this.#settle(init, async (signal) => fn(await this.#ready(signal), signal), takes);
  }

  /** Runs `fn` with the signal of the call options `init`; whatever it throws comes back in the v2 error shape. */
  #settle<T>(init: unknown, fn: (signal?: AbortSignal) => Promise<T>, takes: Takes = []): Promise<T | ErrorResponse> {
    return settleWithSignal(init, fn, this.#stopping.signal, takes);
  }

  /**
   * Opens the runtime in the background, then runs `then`: so that the first call of any method, one that reads
   * nothing of the store too, starts what opening it starts (the webhook events an earlier process left pending).
   * A failure is the `error` event here, and the answer of the next call that needs the store.
   */
  #open(then?: (rt: Runtime) => Promise<unknown> | undefined): void {
    if (this.#runtime || this.#stopping.signal.aborted) return;
    this.#ready()
      .then(then)
      .catch((error: unknown) => this.#bus.internalError(undefined, error));
  }

  async #ready(signal?: AbortSignal): Promise<Runtime> {
    if (this.#stopping.signal.aborted) throw new CrawlkitError('ENGINE_CLOSED', CLOSED_BEFORE_CALL);
    signal?.throwIfAborted();
    this.#runtime ??= createRuntime({
      raw: this.#raw,
      options: this.#options,
      queue: this.#queue,
      bus: this.#bus,
      search: this.#searchSetup,
    });
    const rt = await this.#runtime;
    // A call aborted while the runtime opened does not start.
    signal?.throwIfAborted();
    return rt;
  }
}
