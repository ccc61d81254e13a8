import { EventEmitter } from 'node:events';

import { createMemoryStore, createSqliteStore, type JobKind, type Store } from '@crawlkit/store';
import { Fetcher, STRICT_URL_POLICY, redactUrl, type FetcherOptions, type UrlPolicy } from '@crawlkit/fetcher';
import { normalizeUrl } from '@crawlkit/frontier';
import PQueue from 'p-queue';

import { startBatchScrape } from './api/batch.js';
import { startCrawl } from './api/crawl.js';
import { cancelJob, getActiveCrawls, getJobErrors, getJobStatus, type StatusPagination } from './api/job-queries.js';
import { mapSite } from './api/map.js';
import type { EngineContext } from './context.js';
import { CrawlkitError, toErrorResponse } from './errors.js';
import type { CrawlkitEvents } from './events.js';
import { createBatchPlanner, type StoredBatchRequest } from './jobs/batch-planner.js';
import { createCrawlPlanner } from './jobs/crawl-planner.js';
import { parseJobReference } from './jobs/job-address.js';
import { JobManager, type JobKindHandler, type StoredJob } from './jobs/job-manager.js';
import {
  previewCrawlParams,
  type CrawlParamsPreviewInput,
  type CrawlParamsPreviewResponse,
} from './llm/crawl-prompt.js';
import { LlmService } from './llm/llm-service.js';
import { scopedLogger, type Logger } from './logger.js';
import { resolveOptions, type CrawlkitOptions, type ResolvedOptions } from './options.js';
import { scrapePage } from './scrape/scrape-page.js';
import type { BatchScrapeRequestInput, CrawlRequest, CrawlRequestInput, MapRequestInput } from './v2/jobs.js';
import { parseBody } from './v2/parse.js';
import { scrapeRequestSchema, type ScrapeRequestInput } from './v2/scrape-options.js';
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
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { Distributed } from './worker/distributed.js';
import { TaskWorker, type CrawlkitWorker, type WorkerOptions } from './worker/task-worker.js';

/** The answer of a call whose `signal` aborted. */
function abortedResponse(): ErrorResponse {
  return { success: false, code: 'ABORTED', error: 'The call was aborted by its signal.' };
}

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
}

interface Runtime {
  ctx: EngineContext;
  jobs: JobManager;
  dispatcher: WebhookDispatcher;
  memory: Store;
  urlPolicy?: UrlPolicy;
  handlers: Record<JobKind, JobKindHandler>;
  /** Set with a distributed `backend`. */
  distributed?: Distributed;
}

/**
 * A crawlkit engine: one method per v2 endpoint, taking and returning the v2 JSON shapes. Bad input never throws:
 * it comes back as `{ success: false, code, error, details }`.
 */
export class Crawlkit extends EventEmitter<CrawlkitEvents> {
  readonly #options: ResolvedOptions;
  readonly #raw: CrawlkitOptions;
  readonly #log: Logger;
  readonly #queue: PQueue;
  #runtime: Promise<Runtime> | undefined;
  #closed = false;
  #credits = 0;

  constructor(options: CrawlkitOptions = {}) {
    super();
    this.#raw = options;
    this.#log = scopedLogger(options.logger, 'engine');
    this.#options = resolveOptions(options);
    this.#queue = new PQueue({ concurrency: this.#options.concurrency });
    if (this.#options.resumeJobs) {
      this.#ready()
        .then((rt) => rt.jobs.resumeAll())
        .catch((error: unknown) => this.#emitError(undefined, '', error));
    }
  }

  /** `POST /v2/scrape`: scrapes one URL. */
  async scrape(body: ScrapeRequestInput, init: CallOptions = {}): Promise<ScrapeResponse | ErrorResponse> {
    const parsed = parseBody(scrapeRequestSchema, body);
    if (!parsed.ok) return parsed.error;
    const request = parsed.value;
    try {
      const { ctx } = await this.#ready();
      const outcome = await this.#queue.add(
        () =>
          scrapePage(ctx, request, {
            sourceURL: (body as { url: string }).url,
            zeroDataRetention: request.zeroDataRetention,
            ...(init.signal ? { signal: init.signal } : {}),
          }),
        init.signal ? { signal: init.signal } : {},
      );
      if (!outcome.success) {
        this.#emitError(undefined, request.url, outcome.error);
        return outcome.error;
      }
      this.#credits += outcome.credits;
      this.emit('page', { document: outcome.document });
      return { success: true, data: outcome.document };
    } catch (error) {
      if (init.signal?.aborted) return abortedResponse();
      return toErrorResponse(error);
    }
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
        creditsUsed: this.#credits,
      },
    };
  }

  /** Yields each document of a crawl or batch as it is stored, then ends when the job has finished. */
  async *watch(id: string, init: CallOptions = {}): AsyncGenerator<Document, void, undefined> {
    const ref = parseJobReference(id);
    if (!ref) throw new CrawlkitError('BAD_REQUEST', 'Invalid job ID format. Job ID must be a valid UUID.');
    const rt = await this.#ready();
    yield* rt.jobs.watch(ref.id, init.signal);
  }

  /** Resolves to the job's final status (all result pages joined) once it has finished. */
  async waitForJob(id: string, init: CallOptions = {}): Promise<JobStatusResponse | ErrorResponse> {
    const ref = parseJobReference(id);
    if (!ref)
      return { success: false, code: 'BAD_REQUEST', error: 'Invalid job ID format. Job ID must be a valid UUID.' };
    const rt = await this.#ready();
    const job = await rt.jobs.wait(ref.id, init.signal);
    if (!job) return { success: false, code: 'JOB_NOT_FOUND', error: 'Job not found' };
    const first = await getJobStatus(rt.jobs, job.kind, job.id, { skip: 0, limit: 1000 }, this.#options.jobResultTtlMs);
    if (!first.success) return first;
    let next = first.next;
    while (next) {
      const page = await getJobStatus(rt.jobs, job.kind, next, {}, this.#options.jobResultTtlMs);
      if (!page.success || page.data.length === 0) break;
      first.data.push(...page.data);
      next = page.next;
    }
    delete first.next;
    return first;
  }

  /** Unfinished jobs in the store: left by a crash, or running in another process. */
  async listUnfinishedJobs(): Promise<{ id: string; kind: JobKind; createdAt: string }[]> {
    const rt = await this.#ready();
    const jobs = await rt.jobs.unfinished();
    return jobs.map((j) => ({ id: j.id, kind: j.kind, createdAt: new Date(j.createdAt).toISOString() }));
  }

  /** Resumes an unfinished job in this process; every page is still scraped exactly once. */
  async resumeJob(id: string, init: CallOptions = {}): Promise<{ success: true; id: string } | ErrorResponse> {
    const ref = parseJobReference(id);
    if (!ref)
      return { success: false, code: 'BAD_REQUEST', error: 'Invalid job ID format. Job ID must be a valid UUID.' };
    return this.#guard(async (rt): Promise<{ success: true; id: string } | ErrorResponse> => {
      const found = await rt.jobs.find(ref.id);
      if (!found) return { success: false, code: 'JOB_NOT_FOUND', error: 'Job not found' };
      if (found.job.status !== 'scraping') {
        return {
          success: false,
          code: 'JOB_NOT_RESUMABLE',
          error: `The job is ${found.job.status}; only running jobs resume.`,
        };
      }
      rt.jobs.start(found.job, found.store);
      return { success: true as const, id: found.job.id };
    }, init.signal);
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
    const runtime = this.#runtime;
    if (!runtime) return;
    const rt = await runtime.catch(() => undefined);
    if (!rt) return;
    await rt.distributed?.closeWorkers();
    await rt.jobs.close();
    await this.#queue.onIdle();
    await rt.dispatcher.close();
    await rt.ctx.fetcher.close();
    await rt.ctx.store.close();
    if (rt.memory !== rt.ctx.store) await rt.memory.close();
    await rt.distributed?.close();
  }

  /**
   * Makes this process a worker of the distributed `backend`: it takes scrape tasks of every job from the shared
   * queue until the worker or the engine is closed. Rejects with `BACKEND_REQUIRED` without a backend.
   */
  async startWorker(options: WorkerOptions = {}): Promise<CrawlkitWorker> {
    const rt = await this.#ready();
    const distributed = rt.distributed;
    if (!distributed) {
      throw new CrawlkitError('BACKEND_REQUIRED', 'Workers need a distributed backend: new Crawlkit({ backend }).');
    }
    const store = rt.ctx.store;
    const worker = new TaskWorker(
      {
        ctx: rt.ctx,
        connection: distributed.connection,
        slots: this.#queue,
        planner: (job) => rt.handlers[job.kind].planner(job, store),
        events: rt.jobs.eventSink(store),
        completeJob: (job) => rt.jobs.completeJob(job, store),
        internalError: (jobId, error) => this.#emitError(jobId || undefined, '', error),
      },
      options,
    );
    await worker.start();
    distributed.workers.add(worker);
    return worker;
  }

  async #guard<T>(fn: (rt: Runtime) => Promise<T>, signal?: AbortSignal): Promise<T | ErrorResponse> {
    try {
      signal?.throwIfAborted();
      const rt = await this.#ready();
      signal?.throwIfAborted();
      return await fn(rt);
    } catch (error) {
      if (signal?.aborted) return abortedResponse();
      return toErrorResponse(error);
    }
  }

  #emitError(jobId: string | undefined, url: string, error: unknown): void {
    const response = toErrorResponse(error);
    const where = jobId ? `job ${jobId}: ` : '';
    if (url) this.#log.debug(`${where}${redactUrl(url)} failed: ${response.error}`);
    else this.#log.error(`${where}${response.error}`);
    if (this.listenerCount('error') === 0) return;
    this.emit('error', { ...(jobId ? { jobId } : {}), url: url && redactUrl(url), error: response });
  }

  #ready(): Promise<Runtime> {
    if (this.#closed) return Promise.reject(new CrawlkitError('ENGINE_CLOSED', 'This Crawlkit instance is closed.'));
    this.#runtime ??= this.#createRuntime();
    return this.#runtime;
  }

  async #createRuntime(): Promise<Runtime> {
    const raw = this.#raw;
    const urlPolicy = raw.urlPolicy === 'strict' ? STRICT_URL_POLICY : raw.urlPolicy;
    const httpOptions = { ...raw.http, ...(urlPolicy ? { urlPolicy } : {}) };
    const fetcherOptions: FetcherOptions = { engine: this.#options.engine, http: httpOptions };
    if (raw.browser) fetcherOptions.browser = raw.browser;
    if (raw.proxies) fetcherOptions.proxies = raw.proxies;
    if (urlPolicy) fetcherOptions.urlPolicy = urlPolicy;

    const memory = createMemoryStore();
    const distributed = raw.backend ? await Distributed.open(raw.backend) : undefined;
    const store: Store = distributed
      ? distributed.store
      : raw.store === 'memory'
        ? memory
        : (raw.store ??
          (await createSqliteStore({ dir: this.#options.storeDir, maxPageBytes: this.#options.cacheMaxBytes })));
    const fetcher = new Fetcher(fetcherOptions);
    const http = fetcher.http;
    const ctx: EngineContext = {
      options: this.#options,
      fetcher,
      http,
      store,
      llm: new LlmService(this.#options.llm),
      normalizeUrl: (url: string) => normalizeUrl(url),
    };

    // eslint-disable-next-line prefer-const -- the dispatcher below closes over it before it is assigned
    let jobs: JobManager | undefined;
    const dispatcher = new WebhookDispatcher(
      () => {
        const stores = jobs?.stores() ?? [store];
        return distributed ? distributed.webhookStores(stores) : stores;
      },
      {
        post: async (url, body, headers, timeoutMs) =>
          (await http.fetch({ url, method: 'POST', body, headers, timeoutMs })).status,
        timeoutMs: this.#options.webhooks.timeoutMs,
        maxAttempts: this.#options.webhooks.maxAttempts,
        retryDelayMs: this.#options.webhooks.retryDelayMs,
        maxRetryDelayMs: this.#options.webhooks.maxRetryDelayMs,
        ...(this.#options.webhooks.secret ? { secret: this.#options.webhooks.secret } : {}),
        onGiveUp: (s, delivery, error) => jobs!.recordUndelivered(s, delivery, error),
        drivenElsewhere: (s, jobId) => jobs?.drivenElsewhere(s, jobId) ?? Promise.resolve(false),
      },
    );
    const handlers: Record<JobKind, JobKindHandler> = {
      batch: {
        planner: (job, jobStore) =>
          createBatchPlanner(
            (JSON.parse(job.request) as StoredJob<StoredBatchRequest>).request,
            this.#options.concurrency,
            { store: jobStore, job },
          ),
      },
      crawl: {
        planner: (job, jobStore) =>
          createCrawlPlanner(ctx, jobStore, job, (JSON.parse(job.request) as StoredJob<CrawlRequest>).request),
      },
    };
    jobs = new JobManager({
      ctx,
      queue: this.#queue,
      memory,
      dispatcher,
      handlers,
      distributed: distributed !== undefined,
      notify: {
        page: (jobId, document) => {
          this.#credits += document.metadata.creditsUsed ?? 0;
          this.emit('page', { jobId, document });
        },
        pageError: (jobId, url, error) => this.#emitError(jobId, url, { code: 'SCRAPE_FAILED', message: error }),
        started: (id, kind) => {
          this.#log.debug(`${kind} ${id} started`);
          this.emit('job:started', { id, kind });
        },
        finished: (id, kind, status) => {
          this.#log.debug(`${kind} ${id} ${status}`);
          this.emit('job:completed', { id, kind, status });
        },
        progress: (id, kind, counts) => this.emit('progress', { id, kind, ...counts }),
        internalError: (jobId, error) => this.#emitError(jobId, '', error),
      },
    });
    dispatcher.kick();
    await store.jobs.deleteExpired().catch(() => undefined);
    return {
      ctx,
      jobs,
      dispatcher,
      memory,
      handlers,
      ...(urlPolicy ? { urlPolicy } : {}),
      ...(distributed ? { distributed } : {}),
    };
  }
}
