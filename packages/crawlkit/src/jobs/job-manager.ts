import { clearInterval, setInterval } from 'node:timers';
import type { UrlPolicy } from '@crawlkit/fetcher';
import type { Delivery, JobKind, JobRecord, SecretBox, Store, TaskInput } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import { CrawlkitError } from '../errors.js';
import type { OptionNames } from '../operator-words.js';
import type { Webhook } from '../v2/jobs.js';
import type { Document } from '../v2/types.js';
import type { EventBus } from '../event-bus.js';
import { JobEvents, type JobEventSink } from './events.js';
import { newJobId } from '../uuid-v7.js';
import { idempotentJobId, isDuplicateJob, keyReusedError } from './idempotency.js';
import { JobDriver, type JobKindHandler } from './job-driver.js';
import type { JobStores } from './job-stores.js';
import { JobSignals, waitForJob, watchJob } from './job-watch.js';
import { policyToStore } from './job-policy.js';
import { sealJobSecrets, sealWebhookSecret } from './job-secrets.js';
import type { JobLeases } from './lease.js';
import { retryStoreFaults } from '../store-faults.js';
import { isStoreBudgetError } from './task-execution.js';
import { checkWebhookUrl } from '../webhooks/outbox.js';
import { storedJobCodec, storedJobOf } from '../codec/records.js';
import { finishChangeFeed } from '../changes/change-feed.js';
import type { FeedPages } from '../changes/feed-pages.js';
import type { ScrapeSlots } from '../scrape-slots.js';

export type { JobKindHandler } from './job-driver.js';

/** Persisted with the job so that any process can resume it. */
export interface StoredJob<R extends object> {
  /** Who started the job (`CallOptions.tenant`). */
  tenant?: string;
  request: R;
  webhook?: Webhook;
  /**
   * The submitting engine's URL policy: whichever process runs the job (after a resume, on any Redis worker) applies
   * it on top of its own (`jobs/job-policy.ts`). Absent when the submitter allowed everything.
   */
  urlPolicy?: UrlPolicy;
  /** The start's `creditLimit`: each page of the job reserves its credits under it (`credits/job-credits.ts`). */
  creditLimit?: number;
  /** A crawl's planners wait for where its seed leads (`StoredJobEnvelope.seedAwaited`). */
  seedAwaited?: true;
}

/**
 * The jobs of one engine: creation, running them here (`JobDriver`, unless workers of a distributed backend run them),
 * cancellation, resumption after a crash, completion, and waiting for them. Each concern lives in its own module;
 * this is where they meet.
 */
export class JobManager {
  readonly #stores: JobStores;
  readonly #signals = new JobSignals((ids) => this.#stores.running(ids));
  readonly #events: JobEvents;
  readonly #driver: JobDriver;
  /** Jobs of the engine's store run on workers (distributed backend), never in this process's runners. */
  readonly #distributed: boolean;
  /** The distributed backend's workers alive now, when its queue can tell. */
  readonly #workersAlive: (() => Promise<number | undefined>) | undefined;
  readonly #secrets: EngineContext['secrets'];
  readonly #recordings: EngineContext['recordings'];
  /** The engine's policy as a job records it (nothing when it allows everything). */
  readonly #urlPolicy: UrlPolicy | undefined;
  /** The engine's webhook secret, recorded with each job that has a webhook. */
  readonly #webhookSecret: string | undefined;
  /** How the engine's surface names engine options, recorded with each job for whichever process sends its events. */
  readonly #optionNames: OptionNames;
  readonly #resumeScanMs: number;
  #closed = false;
  /** Aborted by `close()`. */
  readonly #closing = new AbortController();
  readonly #leases: JobLeases;
  /** With `resumeAll`: looks for jobs that no live process drives any more. */
  #orphanSweep: NodeJS.Timeout | undefined;

  constructor(options: {
    ctx: EngineContext;
    /** The engine's scrape slots. */
    queue: ScrapeSlots;
    stores: JobStores;
    leases: JobLeases;
    handlers: Record<JobKind, JobKindHandler>;
    /** The engine's event bus. */
    bus: EventBus;
    /** A webhook event is in a store's outbox: deliver it (the webhook dispatcher's `queued`). */
    webhookQueued: (store: Store, delivery: Delivery) => void;
    distributed?: boolean;
    workersAlive?: () => Promise<number | undefined>;
  }) {
    this.#distributed = options.distributed ?? false;
    this.#workersAlive = options.workersAlive;
    this.#leases = options.leases;
    this.#secrets = options.ctx.secrets;
    this.#recordings = options.ctx.recordings;
    this.#urlPolicy = policyToStore(options.ctx.fetcher.urlPolicy);
    this.#webhookSecret = options.ctx.options.webhooks.secret;
    this.#optionNames = options.ctx.options.webhooks.optionNames;
    this.#resumeScanMs = options.ctx.options.resumeScanMs;
    this.#stores = options.stores;
    this.#events = new JobEvents({
      bus: options.bus,
      signals: this.#signals,
      webhookQueued: options.webhookQueued,
    });
    this.#driver = new JobDriver({
      ctx: options.ctx,
      queue: options.queue,
      handlers: options.handlers,
      leases: options.leases,
      events: this.#events,
      ends: {
        completed: (job, store, feed) => this.completeJob(job, store, feed),
        failed: (job, store, error) => this.failJob(job, store, error),
      },
    });
    this.#stores.startExpirySweep((error) => options.bus.internalError(undefined, error));
  }

  /** The WARC file of a job submitted with `record: true` (`JobStatusResponse.warcFile`), else undefined. */
  warcFileOf(job: JobRecord): string | undefined {
    return storedJobOf<{ record?: boolean }>(job).request.record ? this.#recordings.pathOf(job.id) : undefined;
  }

  /** The stores jobs may live in: the engine's, and memory for zero-data-retention jobs. */
  stores(): Store[] {
    return this.#stores.all();
  }

  /**
   * Deletes the jobs whose results have expired now, before their sweep: what reads their results outside their job
   * (the search index) must not find them.
   */
  deleteExpired(): Promise<string[]> {
    return this.#stores.deleteExpired();
  }

  /** The box that seals the secrets of the jobs kept in `store` (their header values, their webhook's URL). */
  secretsOf(store: Store): SecretBox {
    return this.#secrets(store);
  }

  /**
   * Creates a job with its first tasks, queues its `started` event and starts running it. With an `idempotencyKey`
   * the id is the key's and the tenant's (`idempotentJobId`), and a key the tenant used before throws
   * `IDEMPOTENCY_KEY_REUSED`.
   */
  async create<R extends object>(options: {
    kind: JobKind;
    stored: StoredJob<R>;
    tasks: TaskInput[];
    zeroDataRetention: boolean;
    idempotencyKey?: string | undefined;
    /** A batch's number of URLs, told by its `job:started` event (a crawl tells its first task's URL). */
    urls?: number;
  }): Promise<JobRecord> {
    if (options.stored.webhook) checkWebhookUrl(options.stored.webhook.url, this.#urlPolicy ?? {});
    if ((options.stored.request as { record?: boolean }).record) {
      if (this.#distributed) {
        throw new CrawlkitError(
          'BAD_REQUEST',
          'record: true writes one WARC file in one process, and the jobs of a distributed backend run on its ' +
            'workers: record the job on an engine without a backend, or drop record.',
        );
      }
      await this.#recordings.prepare();
    }
    const store = this.#stores.for(options.zeroDataRetention);
    const now = Date.now();
    const key = options.idempotencyKey;
    const keyed = key !== undefined;
    const id = keyed ? idempotentJobId(key, options.stored.tenant) : newJobId();
    if (keyed && (await this.find(id))) throw keyReusedError();
    const box = this.#secrets(store);
    // Sealed with the job, so that whichever process sends its events signs them as this engine would.
    const webhookSecret = options.stored.webhook ? sealWebhookSecret(this.#webhookSecret, box) : undefined;
    const job: JobRecord = {
      id,
      kind: options.kind,
      status: 'scraping',
      request: storedJobCodec.encode({
        ...sealJobSecrets(options.stored, box),
        ...(this.#urlPolicy ? { urlPolicy: this.#urlPolicy } : {}),
        ...(webhookSecret ? { webhookSecret } : {}),
        resultTtlMs: this.#stores.resultTtlMs,
        optionNames: this.#optionNames,
      }),
      createdAt: now,
      updatedAt: now,
      creditsUsed: 0,
    };
    try {
      await store.jobs.create(job, options.tasks);
    } catch (error) {
      // Another start with the same key won the race (in this process or another sharing the store).
      throw keyed && isDuplicateJob(error) ? keyReusedError() : error;
    }
    const what = options.kind === 'crawl' ? { url: options.tasks[0]?.url } : { urls: options.urls };
    await this.#events.started(store, job, what);
    this.start(job, store);
    return job;
  }

  /** Finds a job and the store it lives in. */
  find(id: string): Promise<{ job: JobRecord; store: Store } | undefined> {
    return this.#stores.find(id);
  }

  /**
   * The job as its status reads it: a job running in this process and stalled on its store carries the fault it met
   * (`JobRecord.storeFault`; a store that fails cannot be asked to keep it).
   */
  withStall(job: JobRecord): JobRecord {
    const fault = this.#driver.storeFault(job.id);
    return fault ? { ...job, storeFault: fault } : job;
  }

  /** Whether the job runs in this process, not on a distributed backend's workers (`storeFaultTimeoutMs` is theirs). */
  runsHere(id: string): boolean {
    return this.#driver.runs(id);
  }

  /**
   * The status warning of a running job that no process runs: on a distributed backend with no worker alive (none
   * started, all stopped or killed, or started with another Redis URL or key prefix), it waits without a word.
   */
  async workerlessWarning(job: JobRecord, store: Store): Promise<string | undefined> {
    if (job.status !== 'scraping' || !this.#workersAlive || store !== this.#stores.engine) return undefined;
    const alive = await this.#workersAlive().catch(() => undefined);
    if (alive !== 0) return undefined;
    return (
      'No worker is running on this deployment: the job waits until one starts. Start `crawlkit worker` (or ' +
      'startWorker()) with the same Redis URL and key prefix as this process (--redis, --redis-prefix).'
    );
  }

  /** Starts (or resumes) running a job in this process, unless it already runs here or elsewhere. */
  start(job: JobRecord, store: Store): void {
    if (this.#closed) return;
    if (this.#distributed && store === this.#stores.engine) return;
    this.#driver.start(job, store, () => this.#signals.ended(job.id));
  }

  /**
   * Cancels a running job: stops fetching at once, drops what is queued and keeps what was scraped. A job that
   * already ended completed or failed is left as it is; cancelling a cancelled job again answers `cancelled`.
   */
  async cancel(id: string): Promise<'cancelled' | 'not-found' | 'already-completed' | 'already-failed'> {
    const found = await this.find(id);
    if (!found) return 'not-found';
    const { job, store } = found;
    if (job.status === 'completed') return 'already-completed';
    if (job.status === 'failed') return 'already-failed';
    if (job.status === 'scraping') {
      await this.#stores.end(store, job, 'cancelled');
      await store.tasks.dropQueued(id);
      this.#driver.stop(id);
      this.#events.cancelled(job);
    }
    return 'cancelled';
  }

  /**
   * Marks a job whose tasks have all settled completed, and queues its `completed` event. Once the record says
   * completed, the event is queued however long the store takes to accept it (a full disk): it is not lost.
   */
  async completeJob(job: JobRecord, store: Store, feed?: FeedPages): Promise<void> {
    const nothing = job.kind === 'crawl' ? await seedFailure(store, job.id) : undefined;
    if (nothing !== undefined) {
      // Its change feed is left open: a site that was down has not removed its pages.
      await this.#stores.end(store, job, 'failed', nothing);
      await this.#events.failed(store, job, nothing);
      return;
    }
    // The crawl's change feed is closed first: a crawl read completed has its removed pages.
    await finishChangeFeed(store, job, feed);
    await this.#stores.end(store, job, 'completed');
    await retryStoreFaults(
      () => this.#events.completed(store, job),
      this.#closing.signal,
      (error) => this.#events.bus.internalError(job.id, error),
    );
  }

  /**
   * Ends a job that could not go on failed, with the error as its reason. Its spent store budget is the job's own
   * limit, not an internal error.
   */
  async failJob(job: JobRecord, store: Store, error: unknown): Promise<void> {
    if (!isStoreBudgetError(error)) this.#events.bus.internalError(job.id, error);
    const message = error instanceof Error ? error.message : String(error);
    await this.#stores.end(store, job, 'failed', message).catch(() => undefined);
    await this.#events.failed(store, job, message);
  }

  /** Unfinished jobs of the store (after a crash, or running in another process). */
  async unfinished(): Promise<JobRecord[]> {
    return this.#stores.engine.jobs.list({ status: ['scraping'] });
  }

  /**
   * Resumes every unfinished job of the on-disk store, and from then on, every `resumeScanMs`, each one that
   * no live process drives any more (its process died, or let its lease expire): a `serve` sharing the store with
   * another takes over the other's jobs. Returns the ids resumed now.
   */
  async resumeAll(): Promise<string[]> {
    const jobs = await this.unfinished();
    for (const job of jobs) this.start(job, this.#stores.engine);
    if (!this.#distributed && !this.#closed) {
      this.#orphanSweep ??= setInterval(() => {
        this.#takeOverOrphans().catch((error: unknown) => this.#events.bus.internalError(undefined, error));
      }, this.#resumeScanMs);
      this.#orphanSweep.unref();
    }
    return jobs.map((j) => j.id);
  }

  async #takeOverOrphans(): Promise<void> {
    const store = this.#stores.engine;
    for (const job of await this.unfinished()) {
      if (this.#closed || this.#driver.runs(job.id)) continue;
      if (!(await this.#leases.drivenElsewhere(store, job.id))) this.start(job, store);
    }
  }

  /** Resolves when the job has finished (in any process). */
  wait(id: string, signal?: AbortSignal): Promise<JobRecord | undefined> {
    return waitForJob(this.#stores, this.#signals, id, signal);
  }

  /** Yields each stored document of the job in completion order, then ends when the job has finished. */
  watch(id: string, signal?: AbortSignal, skip = 0): AsyncGenerator<Document, void, undefined> {
    return watchJob(this.#stores, this.#signals, id, signal, skip);
  }

  /** The event sink of jobs in `store`, for a distributed worker running their tasks. */
  eventSink(store: Store): JobEventSink {
    return this.#events.sink(store);
  }

  /** Stops running jobs without cancelling them (they stay resumable) and waits for their pages to settle. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#orphanSweep) clearInterval(this.#orphanSweep);
    this.#closing.abort();
    this.#stores.stopExpirySweep();
    await this.#driver.close();
    this.#signals.close();
  }
}

/**
 * Why a crawl that stored no page failed, when its pages failed (the seed first of all): the user must tell a crawl
 * whose first request failed (a site down, a proxy or a certificate refused) from a site with no pages to store
 * (robots.txt, includePaths), which completes. Undefined when a page was stored or none failed.
 */
async function seedFailure(store: Store, jobId: string): Promise<string | undefined> {
  if ((await store.results.count(jobId)) > 0) return undefined;
  const [first] = await store.results.errors(jobId, 1);
  if (!first) return undefined;
  const count = await store.results.errorCount(jobId);
  const more = count > 1 ? ` (and ${count - 1} more, in the crawl's errors)` : '';
  return `No page was crawled: ${first.url} failed${first.code ? ` (${first.code})` : ''}: ${first.error}${more}`;
}
