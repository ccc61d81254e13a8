import { clearInterval, setInterval } from 'node:timers';
import type { JobRecord, JobStatus, Store } from '@crawlkit/store';

import { deleteExpiredScrapes } from '../api/scrape-results.js';
import { storedJobOf } from '../codec/records.js';
import { deleteExpiredJobs } from './expired-jobs.js';

/** How often expired jobs (results kept `jobResultTtlMs` after completion) are deleted from the stores. */
const EXPIRY_SWEEP_MS = 10 * 60_000;

/** Whether a job whose results go at `expiresAt` is gone at `now` (from reads at once, before the sweep). */
function expired(expiresAt: number | undefined, now: number): boolean {
  return expiresAt !== undefined && expiresAt <= now;
}

/**
 * Where an engine's jobs live, and for how long: the engine's store, and memory for zero-data-retention jobs. A job
 * that ended keeps its results `jobResultTtlMs`; then it is gone, from reads at once and from the stores by a sweep.
 */
export class JobStores {
  /** The engine's store (on disk, or the distributed backend's). */
  readonly engine: Store;
  /** Zero-data-retention jobs: nothing of them reaches the engine's store. */
  readonly memory: Store;
  readonly #resultTtlMs: number;
  #sweep: NodeJS.Timeout | undefined;

  constructor(engine: Store, memory: Store, resultTtlMs: number) {
    this.engine = engine;
    this.memory = memory;
    this.#resultTtlMs = resultTtlMs;
  }

  /** How long this engine keeps a job's results after it ends (`jobResultTtlMs`), stored with each job it starts. */
  get resultTtlMs(): number {
    return this.#resultTtlMs;
  }

  /** How long a job's results stay after it ends: its starting engine's TTL. */
  ttlOf(job: Pick<JobRecord, 'request'>): number {
    return storedJobOf(job).resultTtlMs ?? this.#resultTtlMs;
  }

  /** Every store jobs may live in. */
  all(): Store[] {
    return this.engine === this.memory ? [this.engine] : [this.engine, this.memory];
  }

  /** The store a new job goes to. */
  for(zeroDataRetention: boolean): Store {
    return zeroDataRetention ? this.memory : this.engine;
  }

  /** Finds a job and the store it lives in; an expired one is gone. */
  async find(id: string): Promise<{ job: JobRecord; store: Store } | undefined> {
    for (const store of this.all()) {
      const job = await store.jobs.get(id);
      if (!job) continue;
      // Expired results are gone even before the next sweep deletes the rows.
      if (expired(job.expiresAt, Date.now())) {
        await deleteExpiredJobs(store);
        return undefined;
      }
      return { job, store };
    }
    return undefined;
  }

  /**
   * Of `ids`, those that still run (`scraping`, not expired), each with the seq of its latest stored result (undefined
   * where the store does not say), read in one call a store: what the jobs' followers read each second. A store
   * without `jobs.statuses` has each record read.
   */
  async running(ids: readonly string[]): Promise<Map<string, number | undefined>> {
    const running = new Map<string, number | undefined>();
    const now = Date.now();
    for (const store of this.all()) {
      const statuses: Map<string, Pick<JobRecord, 'status' | 'expiresAt'> & { resultSeq?: number }> = store.jobs
        .statuses
        ? await store.jobs.statuses(ids)
        : new Map(
            (await Promise.all(ids.map((id) => store.jobs.get(id)))).flatMap((job) => (job ? [[job.id, job]] : [])),
          );
      for (const [id, { status, expiresAt, resultSeq }] of statuses) {
        if (status === 'scraping' && !expired(expiresAt, now)) running.set(id, resultSeq);
      }
    }
    return running;
  }

  /** Ends a job's record now: its final status (and error), and when its results expire (`ttlOf`). */
  async end(store: Store, job: JobRecord, status: Exclude<JobStatus, 'scraping'>, error?: string): Promise<void> {
    const now = Date.now();
    await store.jobs.update(job.id, {
      status,
      ...(error !== undefined ? { error } : {}),
      completedAt: now,
      expiresAt: now + this.ttlOf(job),
    });
  }

  /**
   * Deletes the jobs whose results have expired (`expiresAt` past), with all their rows, and the scrapes kept for
   * `GET /v2/scrape/:id` longer ago than `jobResultTtlMs`. Returns the jobs' ids.
   */
  async deleteExpired(now = Date.now()): Promise<string[]> {
    const deleted: string[] = [];
    for (const store of this.all()) {
      deleted.push(...(await deleteExpiredJobs(store, now)));
      await deleteExpiredScrapes(store, this.#resultTtlMs, now);
    }
    return deleted;
  }

  /**
   * Deletes expired jobs and kept scrapes in the background, every 10 minutes (or the result TTL when shorter, at
   * least 1 s).
   */
  startExpirySweep(onError: (error: unknown) => void): void {
    this.#sweep ??= setInterval(
      () => {
        this.deleteExpired().catch(onError);
      },
      Math.max(1_000, Math.min(EXPIRY_SWEEP_MS, this.#resultTtlMs)),
    );
    this.#sweep.unref();
  }

  stopExpirySweep(): void {
    clearInterval(this.#sweep);
  }
}
