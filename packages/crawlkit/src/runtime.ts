import {
  createMemoryStore,
  createSqliteStore,
  memorySecretBox,
  missingSecretBox,
  isFullStore,
  type JobKind,
  type PageCache,
  type SecretBox,
  type Store,
} from '@crawlkit/store';
import { envProxyFor, Fetcher, STRICT_URL_POLICY, type FetcherOptions, type UrlPolicy } from '@crawlkit/fetcher';
import { normalizeUrl } from '@crawlkit/frontier';

import type { EngineContext } from './context.js';
import { CLOSED_UNDER_CALL } from './call-options.js';
import { CrawlkitError } from './errors.js';
import { ExtractionPool } from './extraction/pool.js';
import { createBatchPlanner, type StoredBatchRequest } from './jobs/batch-planner.js';
import { createCrawlPlanner } from './jobs/crawl-planner.js';
import { JobManager, type JobKindHandler } from './jobs/job-manager.js';
import { jobContext, PolicyFetchers } from './jobs/job-policy.js';
import { openRequestSecrets } from './jobs/job-secrets.js';
import { deleteExpiredJobs } from './jobs/expired-jobs.js';
import { JobStores } from './jobs/job-stores.js';
import { JobLeases } from './jobs/lease.js';
import { LlmService } from './llm/llm-service.js';
import { recordingDir, Recordings } from './record/recordings.js';
import { LateCacheWrites } from './scrape/late-cache-writes.js';
import { withRecording } from './record/job-recording.js';
import type { CrawlkitOptions, ResolvedOptions } from './options.js';
import type { EventBus } from './event-bus.js';
import type { CrawlRequest } from './v2/jobs.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { GiveUpNotes } from './webhooks/give-up-notes.js';
import { recordUndelivered } from './webhooks/outbox.js';
import type { Distributed } from './worker/distributed.js';
import type { CrawlkitWorker, WorkerOptions } from './worker/task-worker.js';
import { distributedModule, replayModule, taskWorkerModule } from './lazy-features.js';
import { storedJobOf } from './codec/records.js';
import type { SearchSetup } from './search/setup.js';
import { LazyScheduler } from './schedules/lazy-scheduler.js';
import type { ScrapeSlots } from './scrape-slots.js';
import { closeGivenStore } from './store-close.js';

/** Everything one `Crawlkit` instance runs on, built on its first call. */
export interface Runtime {
  ctx: EngineContext;
  jobs: JobManager;
  dispatcher: WebhookDispatcher;
  /** The store of `zeroDataRetention` jobs (and the engine's store with `store: 'memory'`). */
  memory: Store;
  /** The engine's scrape slots (`concurrency`), shared by direct scrapes and every job. */
  queue: ScrapeSlots;
  bus: EventBus;
  urlPolicy?: UrlPolicy;
  handlers: Record<JobKind, JobKindHandler>;
  /** Set with a distributed `backend`. */
  distributed?: Distributed;
  /** The fetchers of jobs whose stored URL policy is tighter than the engine's. */
  fetchers: PolicyFetchers;
  /** Runs the store's schedules, once started (`runSchedules`): built by the first call that needs it. */
  scheduler: LazyScheduler;
  /** Whether `ctx.store` was given in the `store` option (its `close()` is then waited for a grace only). */
  givenStore: boolean;
}

/** What the runtime is built from: the options as given (for the parts they configure) and as resolved. */
export interface RuntimeSettings {
  raw: CrawlkitOptions;
  options: ResolvedOptions;
  queue: ScrapeSlots;
  bus: EventBus;
  /** The engine's search (its web provider), which monitors' search targets run. @default the local index only */
  search?: SearchSetup;
}

async function fetcherOptions(
  raw: CrawlkitOptions,
  options: ResolvedOptions,
  urlPolicy: UrlPolicy | undefined,
  bus: EventBus,
) {
  const fetcher: FetcherOptions = {
    engine: options.engine,
    http: { ...raw.http, ...(urlPolicy ? { urlPolicy } : {}) },
  };
  if (options.replay) {
    const { ReplayEngine } = await replayModule();
    fetcher.engines = [
      new ReplayEngine({
        files: options.replay.files,
        onTruncated: (_file, message) => bus.warning('REPLAY_TRUNCATED', message),
        onDamaged: (_file, message) => bus.warning('REPLAY_DAMAGED', message),
      }),
    ];
  }
  if (raw.browser) fetcher.browser = raw.browser;
  if (raw.proxies) fetcher.proxies = raw.proxies;
  if (urlPolicy) fetcher.urlPolicy = urlPolicy;
  return fetcher;
}

/**
 * What seals the header values of the jobs kept in a store: the store's own box (its key file, the cluster's key),
 * or a key in this engine's memory only for `persistSecrets: false` and stores that keep nothing on disk.
 */
function jobSecrets(options: ResolvedOptions): (store: Store) => SecretBox {
  const inMemory = memorySecretBox();
  const noBox = missingSecretBox(
    'Header values of jobs are stored encrypted, and the `store` given to crawlkit has no `secrets` box: give it ' +
      'one (see @crawlkit/store), or set `persistSecrets: false`.',
  );
  return (store) => (!options.persistSecrets || store.ephemeral ? inMemory : (store.secrets ?? noBox));
}

async function openStore(settings: RuntimeSettings, memory: Store, distributed?: Distributed): Promise<Store> {
  const { raw, options, bus } = settings;
  if (distributed) return distributed.store;
  if (raw.store === 'memory') return memory;
  if (raw.store) return isFullStore(raw.store) ? raw.store : withMemoryJobs(raw.store, memory, bus);
  const store = await createSqliteStore({
    dir: options.storeDir,
    maxPageBytes: options.cacheMaxBytes,
    migrationCopy: options.storeMigrationCopy,
  });
  for (const warning of store.warnings) bus.warning(warning.code, warning.message);
  return store;
}

/**
 * A page cache given alone, with the memory store's jobs and history beside it: scrapes are cached in it, crawls and
 * batches run as with `store: 'memory'` (lost when the process ends, which the warning says).
 */
function withMemoryJobs(cache: PageCache, memory: Store, bus: EventBus): Store {
  bus.warning(
    'STORE_PAGES_ONLY',
    `The store given to crawlkit (${cache.kind}) keeps pages only: crawls, batches and change-tracking history are ` +
      'kept in memory and lost when the process ends. Give a full Store (or none, for the on-disk one) to keep them.',
  );
  const { search: _memoryIndex, ...jobs } = memory;
  // The search index is the page cache's own (none when it keeps none): the memory store's would hold no page.
  return {
    ...jobs,
    kind: cache.kind,
    ephemeral: true,
    pages: cache.pages,
    ...(cache.search ? { search: cache.search } : {}),
    ...(cache.space ? { space: () => cache.space!() } : {}),
    ...(cache.writable ? { writable: () => cache.writable!() } : {}),
    close: () => cache.close(),
  };
}

/** Opens the store (or the distributed backend), the fetcher, the model service, the webhook dispatcher and jobs. */
export async function createRuntime(settings: RuntimeSettings): Promise<Runtime> {
  const { raw, options, queue, bus } = settings;
  const urlPolicy = raw.urlPolicy === 'strict' ? STRICT_URL_POLICY : raw.urlPolicy;
  // `cache.maxBytes` caps a memory store's pages too when it is set; unset, the memory store's own smaller default
  const memory = createMemoryStore(raw.cache?.maxBytes !== undefined ? { maxPageBytes: options.cacheMaxBytes } : {});
  const distributed = raw.backend
    ? await (await distributedModule()).Distributed.open(raw.backend, bus.warning)
    : undefined;
  const store = await openStore(settings, memory, distributed);
  const fetcherSettings = await fetcherOptions(raw, options, urlPolicy, bus);
  const fetcher = new Fetcher(fetcherSettings);
  const fetchers = new PolicyFetchers(fetcher, fetcherSettings);
  const http = fetcher.http;
  const ctx: EngineContext = {
    options,
    fetcher,
    http,
    store,
    llm: new LlmService(options.llm),
    // Every page fetch gives its own render judge, run in this pool (scrape/early-content.ts).
    extraction: ExtractionPool.acquire(options.workers),
    normalizeUrl: (url: string) => normalizeUrl(url),
    secrets: jobSecrets(options),
    recordings: new Recordings(recordingDir(options.storeDir, store), store.ephemeral),
    cacheWrites: new LateCacheWrites(bus.warning),
    warning: bus.warning,
    forJob: (job) => withRecording(jobContext(ctx, fetchers, job), job),
  };

  const jobStores = new JobStores(store, memory, options.jobResultTtlMs);
  const leases = new JobLeases();
  const giveUps = new GiveUpNotes((message) => bus.warning('WEBHOOK_DELIVERY_FAILED', message));
  const dispatcher = new WebhookDispatcher(
    () => (distributed ? distributed.webhookStores(jobStores.all()) : jobStores.all()),
    {
      // Under the job's policy too, whichever process sends its events (issue 38).
      post: async (url, body, headers, timeoutMs, policy, signal) => {
        // Only the delivery's own headers: none of the page fetcher's browser-like ones (Accept-Language, ...).
        const request = {
          url,
          method: 'POST' as const,
          body,
          headers,
          timeoutMs,
          followRedirects: false,
          defaultHeaders: false,
          signal,
        };
        // Through the environment's proxy by Node's rule (NODE_USE_ENV_PROXY), as the model's calls go.
        const proxy = envProxyFor(url);
        const answer = await fetchers.forPolicy(policy).http.fetch(proxy ? { ...request, proxy } : request);
        return { status: answer.status, headers: answer.headers };
      },
      timeoutMs: options.webhooks.timeoutMs,
      closeTimeoutMs: options.webhooks.closeTimeoutMs,
      maxAttempts: options.webhooks.maxAttempts,
      retryDelayMs: options.webhooks.retryDelayMs,
      maxRetryDelayMs: options.webhooks.maxRetryDelayMs,
      optionNames: options.webhooks.optionNames,
      ...(options.webhooks.secret ? { secret: options.webhooks.secret } : {}),
      secrets: ctx.secrets,
      warning: bus.warning,
      onGiveUp: async (s, delivery, error) =>
        giveUps.tell(delivery.jobId, await recordUndelivered(s, delivery, error, ctx.secrets(s))),
      // One process sends a job's events, the holder of its lease (the Redis outbox has one leader for all jobs).
      claim: (s, jobId, lost) =>
        s === distributed?.store ? Promise.resolve(async () => {}) : leases.claim(jobId, s, lost),
    },
  );
  if (distributed) distributed.onWebhookLead = () => dispatcher.kick();
  const handlers: Record<JobKind, JobKindHandler> = {
    batch: {
      planner: (job, jobStore) =>
        createBatchPlanner(
          openRequestSecrets(storedJobOf<StoredBatchRequest>(job).request, ctx.secrets(jobStore)),
          options.concurrency,
          { store: jobStore, job },
        ),
    },
    crawl: {
      planner: (job, jobStore, jobCtx) =>
        createCrawlPlanner(
          jobCtx,
          jobStore,
          job,
          openRequestSecrets(storedJobOf<CrawlRequest>(job).request, ctx.secrets(jobStore)),
        ),
    },
  };
  const jobs = new JobManager({
    ctx,
    queue,
    stores: jobStores,
    leases,
    webhookQueued: (s, delivery) => dispatcher.queued(s, delivery),
    handlers,
    distributed: distributed !== undefined,
    ...(distributed ? { workersAlive: () => distributed.workersAlive() } : {}),
    bus,
  });
  dispatcher.kick();
  await deleteExpiredJobs(store).catch(() => undefined);
  const scheduler = new LazyScheduler({
    ctx,
    jobs,
    bus,
    queued: (s, delivery) => dispatcher.queued(s, delivery),
    // Read once the runtime below is built: checks run only after it is returned.
    runtime: () => runtime,
    search: settings.search,
  });
  const runtime: Runtime = {
    scheduler,
    ctx,
    jobs,
    dispatcher,
    memory,
    queue,
    bus,
    handlers,
    fetchers,
    givenStore: typeof raw.store === 'object' && !distributed,
    ...(urlPolicy ? { urlPolicy } : {}),
    ...(distributed ? { distributed } : {}),
  };
  // Started once the runtime is whole: a firing's check may run its searches at once.
  if (options.runSchedules) (await scheduler.get()).start();
  return runtime;
}

/**
 * Closes an engine: aborts `stopping` at once (its calls under way answer `ENGINE_CLOSED`), then closes its runtime,
 * if it was opened. One promise for every `close()` of the engine: an app's SIGINT and SIGTERM handlers, a test's
 * `afterEach` and `afterAll`, each wait for all of it.
 */
export async function closeEngine(stopping: AbortController, runtime: Promise<Runtime> | undefined): Promise<void> {
  stopping.abort(new CrawlkitError('ENGINE_CLOSED', CLOSED_UNDER_CALL));
  const rt = await runtime?.catch(() => undefined);
  if (rt) await closeRuntime(rt);
}

/**
 * Stops workers and jobs (they stay resumable), waits for the direct scrapes `closeEngine`'s abort ended and the
 * page cache's writes, flushes webhooks, closes the stores.
 */
export async function closeRuntime(rt: Runtime): Promise<void> {
  await rt.scheduler.close();
  await rt.distributed?.closeWorkers();
  await rt.jobs.close();
  await rt.queue.onIdle();
  await rt.ctx.cacheWrites.settled();
  await rt.ctx.recordings.closeAll();
  await rt.ctx.extraction.release();
  rt.distributed?.handOverWebhooks();
  await rt.dispatcher.flush();
  await rt.dispatcher.close();
  await rt.distributed?.releaseWebhooks();
  await rt.ctx.fetcher.close();
  await rt.fetchers.close();
  if (rt.givenStore) await closeGivenStore(rt.ctx.store, rt.bus.warning);
  else await rt.ctx.store.close();
  if (rt.memory !== rt.ctx.store) await rt.memory.close();
  await rt.distributed?.close();
}

/**
 * Makes this process a worker of the distributed backend: it takes scrape tasks of every job from the shared queue.
 * Rejects with `BACKEND_REQUIRED` without a backend.
 */
export async function startWorker(rt: Runtime, options: WorkerOptions): Promise<CrawlkitWorker> {
  const distributed = rt.distributed;
  if (!distributed) {
    throw new CrawlkitError('BACKEND_REQUIRED', 'Workers need a distributed backend: new Crawlkit({ backend }).');
  }
  const store = rt.ctx.store;
  const { TaskWorker } = await taskWorkerModule();
  const worker = new TaskWorker(
    {
      ctx: rt.ctx,
      connection: distributed.connection,
      slots: rt.queue,
      planner: (job, ctx) => rt.handlers[job.kind].planner(job, store, ctx),
      events: rt.jobs.eventSink(store),
      completeJob: (job) => rt.jobs.completeJob(job, store),
      failJob: (job, error) => rt.jobs.failJob(job, store, error),
      internalError: (jobId, error) => rt.bus.internalError(jobId || undefined, error),
      warning: rt.bus.warning,
    },
    options,
  );
  // A worker is started to take tasks: its extraction threads load now, not within its first page's timeout.
  rt.ctx.extraction.warm();
  await worker.start();
  distributed.workers.add(worker);
  return worker;
}
