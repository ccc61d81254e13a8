import type { BackendConnection, JobRecord, Store } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import { limitOf, type JobPlanner } from '../jobs/planner.js';
import type { BatchScrapeRequest, CrawlRequest } from '../v2/jobs.js';
import { storedJobOf } from '../codec/records.js';

/** A job's record is read again after this long (a cancel reaches workers within it). */
const JOB_REFRESH_MS = 1_000;
/**
 * The first worker to load a job discovers its seeds (sitemaps) and keeps the claim this long; others only load
 * robots.txt. Discovery is best effort: should that worker die midway, the crawl goes on by its links.
 */
const DISCOVERY_CLAIM_MS = 24 * 60 * 60_000;

/** What a worker keeps of a job whose tasks it runs. */
export interface WorkerJob {
  job: JobRecord;
  readAt: number;
  /** The context the job's pages are fetched in (its URL policy applied). */
  ctx: EngineContext;
  planner: JobPlanner;
  /**
   * The crawl's robots (and its host spacing) and sitemap seeds, once per job in this worker. Resolves to false when
   * the worker's close cut it short: the job's pages held then go back on the queue, for a worker that prepares it.
   */
  prepared: Promise<boolean>;
  /** Aborted when the job was seen ended (cancelled, gone) while it was prepared. */
  ended: AbortSignal;
  /** The job's `maxConcurrency`, held across every worker; undefined when the request sets none. */
  maxConcurrency: number | undefined;
  refreshing?: Promise<WorkerJob | undefined> | undefined;
}

/**
 * The jobs a worker has seen: each loaded once (its planner built and prepared: robots.txt, and sitemaps by the
 * first worker of the cluster to claim them), its record read again at most once a second.
 */
export class WorkerJobs {
  readonly #connection: BackendConnection;
  /** The engine's (queueing) store: seeds added here go on the work queue. */
  readonly #store: Store;
  readonly #ctx: EngineContext;
  readonly #planner: (job: JobRecord, ctx: EngineContext) => JobPlanner;
  readonly #internalError: (jobId: string, error: unknown) => void;
  /** The lock owner name of this worker. */
  readonly #owner: string;
  /** Aborted by the worker's close: preparations under way stop. */
  readonly #stopping: AbortSignal;
  readonly #jobs = new Map<string, Promise<WorkerJob | undefined>>();

  constructor(options: {
    connection: BackendConnection;
    store: Store;
    /** The engine's context; each job runs in `ctx.forJob(job)`. */
    ctx: EngineContext;
    planner: (job: JobRecord, ctx: EngineContext) => JobPlanner;
    internalError: (jobId: string, error: unknown) => void;
    owner: string;
    stopping: AbortSignal;
  }) {
    this.#connection = options.connection;
    this.#store = options.store;
    this.#ctx = options.ctx;
    this.#planner = options.planner;
    this.#internalError = options.internalError;
    this.#owner = options.owner;
    this.#stopping = options.stopping;
  }

  /** The job, loaded or refreshed; undefined once it is gone. */
  get(jobId: string): Promise<WorkerJob | undefined> {
    const cached = this.#jobs.get(jobId);
    if (cached) {
      return cached.then((state) => {
        if (!state || Date.now() - state.readAt < JOB_REFRESH_MS) return state;
        // One re-read at a time per job, shared by every task that finds the record stale.
        state.refreshing ??= this.#connection.store.jobs.get(jobId).then(
          (job) => {
            state.refreshing = undefined;
            if (!job) {
              this.#jobs.delete(jobId);
              return undefined;
            }
            state.job = job;
            state.readAt = Date.now();
            return state;
          },
          (error: unknown) => {
            state.refreshing = undefined;
            throw error;
          },
        );
        return state.refreshing;
      });
    }
    const loading = this.#load(jobId);
    this.#jobs.set(jobId, loading);
    loading.then(
      (state) => state ?? this.#jobs.delete(jobId),
      () => this.#jobs.delete(jobId),
    );
    return loading;
  }

  async #load(jobId: string): Promise<WorkerJob | undefined> {
    const job = await this.#connection.store.jobs.get(jobId);
    if (!job) return undefined;
    const ctx = this.#ctx.forJob(job);
    const planner = this.#planner(job, ctx);
    const { request } = storedJobOf<Pick<CrawlRequest | BatchScrapeRequest, 'maxConcurrency'>>(job);
    // Aborted once the job ends (a cancel) while robots.txt or sitemaps are read, as the in-process runner's stop does.
    const ended = new AbortController();
    // And by the worker's close, which does not wait for a slow sitemap.
    const signal = AbortSignal.any([ended.signal, this.#stopping]);
    const { coordination } = this.#connection;
    const claim = `discover:${job.id}`;
    let discover = false;
    const preparing = (async () => {
      discover = await coordination.tryLock(claim, this.#owner, DISCOVERY_CLAIM_MS);
      const watch = this.#watchEnd(job.id, ended);
      try {
        const seeds = await planner.prepare(signal, { discover });
        if (seeds.length && !signal.aborted) await this.#store.tasks.add(job.id, seeds, limitOf(planner));
      } finally {
        clearInterval(watch);
      }
    })();
    // A failed preparation (robots, sitemaps unreachable) leaves the crawl to its links, as in-process; a cancel's
    // abort is no failure, nor a close's.
    preparing.catch((error: unknown) => signal.aborted || this.#internalError(job.id, error));
    const prepared = preparing
      .catch(() => undefined)
      .then(async () => {
        if (!this.#stopping.aborted || ended.signal.aborted) return true;
        // Cut short by the close: the next worker to load the job discovers its sitemaps.
        if (discover) await coordination.releaseLock(claim, this.#owner).catch(() => undefined);
        return false;
      });
    return {
      job,
      readAt: Date.now(),
      ctx,
      planner,
      prepared,
      ended: ended.signal,
      maxConcurrency: request.maxConcurrency,
    };
  }

  /** Reads the job's record once a second while it is prepared; aborts `ended` once the job is no longer running. */
  #watchEnd(jobId: string, ended: AbortController): NodeJS.Timeout {
    const watch = setInterval(() => {
      this.#connection.store.jobs.get(jobId).then(
        (job) => job?.status !== 'scraping' && ended.abort(),
        () => undefined,
      );
    }, JOB_REFRESH_MS);
    watch.unref();
    return watch;
  }
}
