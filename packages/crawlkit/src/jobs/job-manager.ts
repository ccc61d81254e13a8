import type { Delivery, JobKind, JobRecord, Store, TaskInput } from '@crawlkit/store';
import type PQueue from 'p-queue';
import { v7 as uuidv7 } from 'uuid';

import type { EngineContext } from '../context.js';
import type { Webhook } from '../v2/jobs.js';
import type { Document, JobStatus } from '../v2/types.js';
import { queueWebhookEvent } from '../webhooks/outbox.js';
import type { StoredDelivery, WebhookEvent } from '../webhooks/payload.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { JobEventSink } from './events.js';
import { isDeadLocalOwner, leaseOwnerId } from './lease.js';
import type { JobPlanner } from './planner.js';
import { JobRunner } from './runner.js';

const LEASE_TTL_MS = 30_000;
/** How often a process waiting for another's lease looks again (it takes over once the holder dies or lets go). */
const LEASE_POLL_MS = 1_000;
const WATCH_POLL_MS = 1_000;
/** How often expired jobs (results kept `jobResultTtlMs` after completion) are deleted from the stores. */
const EXPIRY_SWEEP_MS = 10 * 60_000;

/** The engine-level events a job produces (the `Crawlkit` instance re-emits them). */
export interface JobNotifications {
  page(jobId: string, document: Document): void;
  pageError(jobId: string, url: string, error: string): void;
  started(jobId: string, kind: JobKind): void;
  finished(jobId: string, kind: JobKind, status: JobStatus): void;
  internalError(jobId: string, error: unknown): void;
  /** The job's counts after a page settled. */
  progress?(jobId: string, kind: JobKind, counts: { total: number; completed: number; creditsUsed: number }): void;
}

/** Persisted with the job so that any process can resume it. */
export interface StoredJob<R> {
  request: R;
  webhook?: Webhook;
}

export interface JobKindHandler {
  /** Builds the planner for a job from its stored request. */
  planner(job: JobRecord, store: Store): JobPlanner;
}

/**
 * Owns the jobs of one engine: creation, running (with leases so two processes never drive the same job),
 * cancellation, resumption after a crash, webhooks and watching.
 */
export class JobManager {
  readonly #ctx: EngineContext;
  readonly #queue: PQueue;
  readonly #memory: Store;
  readonly #dispatcher: WebhookDispatcher;
  readonly #handlers: Record<JobKind, JobKindHandler>;
  readonly #notify: JobNotifications;
  readonly #owner = leaseOwnerId();
  /** Aborted by `close()`: wakes jobs waiting for a lease. */
  readonly #closing = new AbortController();
  readonly #runners = new Map<string, { runner: JobRunner; done: Promise<void> }>();
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Jobs of the engine's store run on workers (distributed backend), never in this process's runners. */
  readonly #distributed: boolean;
  #sweep: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(options: {
    ctx: EngineContext;
    queue: PQueue;
    memory: Store;
    dispatcher: WebhookDispatcher;
    handlers: Record<JobKind, JobKindHandler>;
    notify: JobNotifications;
    distributed?: boolean;
  }) {
    this.#distributed = options.distributed ?? false;
    this.#ctx = options.ctx;
    this.#queue = options.queue;
    this.#memory = options.memory;
    this.#dispatcher = options.dispatcher;
    this.#handlers = options.handlers;
    this.#notify = options.notify;
    this.#sweep = setInterval(
      () => {
        this.deleteExpired().catch((error: unknown) => this.#notify.internalError('', error));
      },
      Math.max(1_000, Math.min(EXPIRY_SWEEP_MS, this.#ctx.options.jobResultTtlMs)),
    );
    this.#sweep.unref();
  }

  /** Deletes the jobs whose results have expired (`expiresAt` past), with all their rows. Returns their ids. */
  async deleteExpired(now = Date.now()): Promise<string[]> {
    const deleted: string[] = [];
    for (const store of this.stores()) deleted.push(...(await store.jobs.deleteExpired(now)));
    return deleted;
  }

  /** The stores jobs may live in: the engine's, and memory for zero-data-retention jobs. */
  stores(): Store[] {
    return this.#ctx.store === this.#memory ? [this.#ctx.store] : [this.#ctx.store, this.#memory];
  }

  /** Creates a job with its first tasks, queues its `started` event and starts running it. */
  async create<R>(options: {
    kind: JobKind;
    stored: StoredJob<R>;
    tasks: TaskInput[];
    zeroDataRetention: boolean;
  }): Promise<JobRecord> {
    const store = options.zeroDataRetention ? this.#memory : this.#ctx.store;
    const now = Date.now();
    const job: JobRecord = {
      id: uuidv7(),
      kind: options.kind,
      status: 'scraping',
      request: JSON.stringify(options.stored),
      createdAt: now,
      updatedAt: now,
      creditsUsed: 0,
    };
    await store.jobs.create(job, options.tasks);
    await this.#event(store, job, 'started', true);
    this.#notify.started(job.id, job.kind);
    this.start(job, store);
    return job;
  }

  /** Finds a job and the store it lives in. */
  async find(id: string): Promise<{ job: JobRecord; store: Store } | undefined> {
    for (const store of this.stores()) {
      const job = await store.jobs.get(id);
      if (!job) continue;
      // Expired results are gone even before the next sweep deletes the rows.
      if (job.expiresAt !== undefined && job.expiresAt <= Date.now()) {
        await store.jobs.deleteExpired();
        return undefined;
      }
      return { job, store };
    }
    return undefined;
  }

  /** Starts (or resumes) running a job in this process, unless it already runs here or elsewhere. */
  start(job: JobRecord, store: Store): void {
    if (this.#closed || this.#runners.has(job.id) || job.status !== 'scraping') return;
    if (this.#distributed && store === this.#ctx.store) return;
    const planner = this.#handlers[job.kind].planner(job, store);
    const runner = new JobRunner({
      ctx: this.#ctx,
      store,
      queue: this.#queue,
      job,
      planner,
      events: this.#sink(store),
    });
    const done = this.#drive(runner, job, store).finally(() => {
      this.#runners.delete(job.id);
      this.#signal(job.id);
    });
    this.#runners.set(job.id, { runner, done });
  }

  /**
   * Takes the job's lease, waiting while another live process holds it. A lease left by a crashed process of this
   * host is taken over at once; any other is taken when it expires or is released. Gives up (false) when the job
   * finishes elsewhere, is cancelled or deleted, or this engine closes.
   */
  async #lease(id: string, store: Store): Promise<boolean> {
    for (;;) {
      if (this.#closed) return false;
      if (await store.jobs.acquireLease(id, this.#owner, LEASE_TTL_MS)) return true;
      const holder = await store.jobs.leaseHolder?.(id);
      // releaseLease is a compare-and-swap on the owner: if the dead owner's lease was already taken, it is a no-op.
      if (holder && isDeadLocalOwner(holder.owner)) {
        await store.jobs.releaseLease(id, holder.owner);
        continue;
      }
      const current = await store.jobs.get(id);
      if (!current || current.status !== 'scraping') return false;
      await delay(LEASE_POLL_MS, this.#closing.signal);
    }
  }

  async #drive(runner: JobRunner, job: JobRecord, store: Store): Promise<void> {
    if (!(await this.#lease(job.id, store))) return;
    const renew = setInterval(() => {
      store.jobs
        .acquireLease(job.id, this.#owner, LEASE_TTL_MS)
        .then((held) => {
          // Another process took the job over (this one looked dead or stalled): let it drive alone.
          if (!held) runner.stop();
        })
        .catch(() => undefined);
    }, LEASE_TTL_MS / 3);
    renew.unref();
    try {
      await store.tasks.requeueActive(job.id);
      const result = await runner.run();
      if (result !== 'completed') return;
      const current = await store.jobs.get(job.id);
      if (!current || current.status !== 'scraping') return;
      const now = Date.now();
      await store.jobs.update(job.id, {
        status: 'completed',
        completedAt: now,
        expiresAt: now + this.#ctx.options.jobResultTtlMs,
      });
      await this.#event(store, current, 'completed', true);
      this.#notify.finished(job.id, job.kind, 'completed');
    } catch (error) {
      this.#notify.internalError(job.id, error);
      const message = error instanceof Error ? error.message : String(error);
      const now = Date.now();
      await store.jobs
        .update(job.id, {
          status: 'failed',
          error: message,
          completedAt: now,
          expiresAt: now + this.#ctx.options.jobResultTtlMs,
        })
        .catch(() => undefined);
      await this.#event(store, job, 'failed', false, undefined, message).catch(() => undefined);
      this.#notify.finished(job.id, job.kind, 'failed');
    } finally {
      clearInterval(renew);
      await store.jobs.releaseLease(job.id, this.#owner).catch(() => undefined);
    }
  }

  /** Cancels a running job: stops fetching at once, drops what is queued and keeps what was scraped. */
  async cancel(id: string): Promise<'cancelled' | 'not-found' | 'already-completed'> {
    const found = await this.find(id);
    if (!found) return 'not-found';
    const { job, store } = found;
    if (job.status === 'completed') return 'already-completed';
    if (job.status === 'scraping') {
      const now = Date.now();
      await store.jobs.update(id, {
        status: 'cancelled',
        completedAt: now,
        expiresAt: now + this.#ctx.options.jobResultTtlMs,
      });
      await store.tasks.dropQueued(id);
      this.#runners.get(id)?.runner.stop();
      this.#notify.finished(id, job.kind, 'cancelled');
      this.#signal(id);
    }
    return 'cancelled';
  }

  /** Unfinished jobs of the store (after a crash, or running in another process). */
  async unfinished(): Promise<JobRecord[]> {
    return this.#ctx.store.jobs.list({ status: ['scraping'] });
  }

  /** Resumes every unfinished job of the on-disk store. Returns their ids. */
  async resumeAll(): Promise<string[]> {
    const jobs = await this.unfinished();
    for (const job of jobs) this.start(job, this.#ctx.store);
    return jobs.map((j) => j.id);
  }

  /** Resolves when the job has finished (in any process). */
  async wait(id: string, signal?: AbortSignal): Promise<JobRecord | undefined> {
    for (;;) {
      signal?.throwIfAborted();
      const found = await this.find(id);
      if (!found || found.job.status !== 'scraping') return found?.job;
      await this.#waitForSignal(id, signal);
    }
  }

  /** Yields each stored document of the job in completion order, then ends when the job has finished. */
  async *watch(id: string, signal?: AbortSignal): AsyncGenerator<Document, void, undefined> {
    let seq = 0;
    for (;;) {
      signal?.throwIfAborted();
      const found = await this.find(id);
      if (!found) return;
      const finished = found.job.status !== 'scraping';
      const batch = await found.store.results.since(id, seq, 100);
      for (const result of batch) {
        seq = result.seq;
        yield JSON.parse(result.document) as Document;
      }
      if (batch.length > 0) continue;
      if (finished) return;
      await this.#waitForSignal(id, signal);
    }
  }

  /** Stops running jobs without cancelling them (they stay resumable) and waits for their pages to settle. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    clearInterval(this.#sweep);
    for (const { runner } of this.#runners.values()) runner.stop();
    await Promise.allSettled([...this.#runners.values()].map((r) => r.done));
    for (const id of this.#waiters.keys()) this.#signal(id);
  }

  /**
   * Whether another live engine holds the job's lease: that engine sends the job's webhook events, and this one
   * leaves them alone so that they are neither sent twice nor out of order.
   */
  async drivenElsewhere(store: Store, id: string): Promise<boolean> {
    const holder = await store.jobs.leaseHolder?.(id);
    if (!holder || holder.owner === this.#owner || holder.until <= Date.now()) return false;
    return !isDeadLocalOwner(holder.owner);
  }

  /** Called by the dispatcher when a webhook event is given up. */
  async recordUndelivered(store: Store, delivery: Delivery, error: string): Promise<void> {
    const stored = JSON.parse(delivery.payload) as StoredDelivery;
    await store.results.addError(delivery.jobId, {
      url: stored.url,
      code: 'WEBHOOK_DELIVERY_FAILED',
      error: `Webhook event ${stored.body.type} was not delivered after ${delivery.attempts} attempts: ${error}`,
    });
  }

  /** The event sink of jobs in `store`, for a distributed worker running their tasks. */
  eventSink(store: Store): JobEventSink {
    return this.#sink(store);
  }

  /** Marks a job whose tasks have all settled completed (a distributed worker calls it once per job). */
  async completeJob(job: JobRecord, store: Store): Promise<void> {
    const now = Date.now();
    await store.jobs.update(job.id, {
      status: 'completed',
      completedAt: now,
      expiresAt: now + this.#ctx.options.jobResultTtlMs,
    });
    await this.#event(store, job, 'completed', true);
    this.#notify.finished(job.id, job.kind, 'completed');
    this.#signal(job.id);
  }

  #sink(store: Store): JobEventSink {
    return {
      page: async (job, document, taskKey) => {
        await this.#event(store, job, 'page', true, [document], undefined, taskKey);
      },
      pageStored: (job, document) => {
        this.#notify.page(job.id, document);
        this.#signal(job.id);
      },
      pageFailed: async (job, sourceURL, error, taskKey) => {
        await this.#event(store, job, 'page', false, [{ metadata: { sourceURL } }], error, taskKey);
        this.#notify.pageError(job.id, sourceURL, error);
        this.#signal(job.id);
      },
      internalError: (job, error) => this.#notify.internalError(job.id, error),
      settled: (job) => {
        if (this.#notify.progress)
          this.#progress(store, job).catch((error: unknown) => this.#notify.internalError(job.id, error));
      },
    };
  }

  async #progress(store: Store, job: JobRecord): Promise<void> {
    const [counts, current] = await Promise.all([store.tasks.counts(job.id), store.jobs.get(job.id)]);
    this.#notify.progress?.(job.id, job.kind, {
      total: counts.queued + counts.active + counts.done + counts.failed,
      completed: counts.done + counts.failed,
      creditsUsed: current?.creditsUsed ?? 0,
    });
  }

  async #event(
    store: Store,
    job: JobRecord,
    event: WebhookEvent,
    success: boolean,
    data?: Document[] | { metadata: { sourceURL: string } }[],
    error?: string,
    taskKey?: string,
  ): Promise<void> {
    const queued = await queueWebhookEvent(store, job, {
      event,
      success,
      ...(data ? { data } : {}),
      ...(error !== undefined ? { error } : {}),
      ...(taskKey !== undefined ? { taskKey } : {}),
    });
    if (queued) this.#dispatcher.queued(store, queued);
  }

  #signal(id: string): void {
    const waiters = this.#waiters.get(id);
    if (!waiters) return;
    this.#waiters.delete(id);
    for (const wake of waiters) wake();
  }

  #waitForSignal(id: string, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(id) ?? new Set();
      this.#waiters.set(id, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        resolve();
      };
      // Jobs run by another process don't signal here: poll the store too.
      const timer = setTimeout(done, WATCH_POLL_MS);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
