import { clearInterval, setInterval } from 'node:timers';
import type { BackendConnection, JobRecord, JobStatus, Store } from '@crawlkit/store';

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
  /** Tasks of this worker running with it now: an ended job is dropped once none does. */
  held: number;
  /** Dropped from the worker's jobs: a task that finds it so loads the job again. */
  dropped: boolean;
  /** Aborts `ended`. */
  end: () => void;
}

/**
 * The jobs a worker runs: each loaded once (its planner built and prepared: robots.txt, and sitemaps by the first
 * worker of the cluster to claim them), its record read again at most once a second. A job is dropped once it ended
 * (completed, failed, cancelled or gone) and no task of this worker holds it; a task that comes back later (a batch
 * appended to) loads it again.
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
  /** The jobs of `#jobs` loaded. */
  readonly #loaded = new Map<string, WorkerJob>();

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

  /** How many jobs this worker keeps (read-only; the tests check that ended jobs are let go). */
  get size(): number {
    return this.#jobs.size;
  }

  /** Whether the job is kept (loaded, or loading). */
  has(jobId: string): boolean {
    return this.#jobs.has(jobId);
  }

  /**
   * Runs `task` with the job held (not dropped while it runs); undefined, without running it, when the job is gone or
   * no longer running.
   */
  async hold<T>(jobId: string, task: (state: WorkerJob) => Promise<T>): Promise<T | undefined> {
    let state = await this.get(jobId);
    // Dropped between its read and now (it ended meanwhile): read again, it may have been reopened.
    while (state?.dropped) state = await this.get(jobId);
    if (!state || state.job.status !== 'scraping') return undefined;
    state.held++;
    try {
      return await task(state);
    } finally {
      state.held--;
      if (state.job.status !== 'scraping') this.#drop(state);
    }
  }

  /** Told by this worker that it ended the job: dropped once no task holds it. */
  ended(jobId: string, status: Exclude<JobStatus, 'scraping'>): void {
    const state = this.#loaded.get(jobId);
    if (!state) return;
    state.job = { ...state.job, status };
    this.#drop(state);
  }

  /**
   * Reads again the record of each job no task holds, read over a second ago, and drops the ended ones: a job
   * cancelled, or completed by another worker, whose tasks this worker no longer gets.
   */
  async prune(): Promise<void> {
    for (const state of [...this.#loaded.values()]) {
      if (state.held > 0 || Date.now() - state.readAt < JOB_REFRESH_MS) continue;
      const job = await this.#connection.store.jobs.get(state.job.id);
      if (job) {
        state.job = job;
        state.readAt = Date.now();
      }
      if (!job || job.status !== 'scraping') this.#drop(state, true);
    }
  }

  /** Forgets the job when it ended and no task holds it; aborts what it still prepares. */
  #drop(state: WorkerJob, gone = false): void {
    if (state.dropped || state.held > 0 || (!gone && state.job.status === 'scraping')) return;
    state.dropped = true;
    state.end();
    if (this.#loaded.get(state.job.id) === state) {
      this.#loaded.delete(state.job.id);
      this.#jobs.delete(state.job.id);
    }
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
              this.#drop(state, true);
              return undefined;
            }
            state.job = job;
            state.readAt = Date.now();
            this.#drop(state);
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
      (state) => (state ? this.#loaded.set(jobId, state) : this.#jobs.delete(jobId)),
      () => this.#jobs.delete(jobId),
    );
    return loading;
  }

  async #load(jobId: string): Promise<WorkerJob | undefined> {
    const job = await this.#connection.store.jobs.get(jobId);
    // An ended job is not kept: its tasks are dropped, and a job reopened is read again at its next task.
    if (job?.status !== 'scraping') return undefined;
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
      held: 0,
      dropped: false,
      end: () => ended.abort(),
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
