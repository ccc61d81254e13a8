import type { JobRecord, JobStore } from '@crawlkit/store';

import { CrawlkitError } from '../errors.js';
import type { CrawlkitErrorCode } from '../error-codes.js';
import { describeStoreFault } from '../store-faults.js';
import { WarnThrottle } from '../warn-throttle.js';

/** A worker notes a job's store fault at most this often: a full Redis fails every running task of a job at once. */
const NOTE_EVERY_MS = 1_000;
/**
 * A worker tells a job's store faults (its `error` event, a `crawlkit worker` line) at most this often: a full Redis
 * fails each of the job's tasks on each of their runs, which was ~100 lines a second per worker.
 */
const TELL_EVERY_MS = 60_000;

/**
 * The jobs a worker finds stalled on their store (Redis at `maxmemory`, busy, loading...): each fault its tasks meet
 * is noted on the job (`JobStore.noteStoreFault`), so that the job's status says why it does not move, and the time
 * since the fault began (the job's, whichever worker or delivery met it first) decides when the job gives up.
 */
export class StoreStalls {
  readonly #jobs: JobStore;
  readonly #timeoutMs: number;
  /** Per job: when this worker last noted a fault, and the `since` the store answered. */
  readonly #noted = new Map<string, { at: number; since: number }>();
  /** Per job: when this worker last told a fault, and how many it met since without telling. */
  readonly #told = new WarnThrottle(TELL_EVERY_MS);

  constructor(jobs: JobStore, timeoutMs: number) {
    this.#jobs = jobs;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Notes a store fault met by a task of the job, and resolves to when the job's fault began: the store's note, else
   * `fallback` (a store without notes: the task's own first fault).
   */
  async note(jobId: string, error: unknown, fallback: number): Promise<number> {
    const now = Date.now();
    const last = this.#noted.get(jobId);
    if (last && now - last.at < NOTE_EVERY_MS) return last.since;
    const noted = await this.#jobs
      .noteStoreFault?.(jobId, { ...describeStoreFault(error), at: now })
      .catch(() => undefined);
    const since = noted ?? fallback;
    this.#noted.set(jobId, { at: now, since });
    if (this.#noted.size > 1_000) this.#noted.delete(this.#noted.keys().next().value!);
    return since;
  }

  /**
   * The store fault a task of the job met, as it is to be told: the job's first, then one a minute at most, saying how
   * many were met since the last told; undefined for the others (the job's status says the fault meanwhile).
   */
  tell(jobId: string, error: unknown): unknown {
    const now = Date.now();
    const told = this.#told.tell(jobId, now);
    if (!told) return undefined;
    const { last } = told;
    if (!last?.unsaid) return error;
    const { code, message } = describeStoreFault(error);
    const seconds = Math.round((now - last.at) / 1000);
    const more = `${last.unsaid} more of this job's tasks met a store fault in the last ${seconds} s`;
    return new CrawlkitError(code as CrawlkitErrorCode, `${message} (${more})`, { cause: error });
  }

  /**
   * Whether this worker noted a fault within twice `storeFaultTimeoutMs`: its stalled jobs may reach the timeout with
   * no task of theirs delivered again (a full Redis keeps BullMQ from recording the failed attempts).
   */
  watching(): boolean {
    const now = Date.now();
    for (const [jobId, { at }] of this.#noted) if (now - at > 2 * this.#timeoutMs) this.#noted.delete(jobId);
    return this.#noted.size > 0;
  }

  /** Whether a job whose store fault began at `since` has waited `storeFaultTimeoutMs`. */
  expired(since: number): boolean {
    return Date.now() - since >= this.#timeoutMs;
  }

  /** The running jobs whose noted store fault (no page stored since) began `storeFaultTimeoutMs` ago or more. */
  async expiredJobs(): Promise<JobRecord[]> {
    const running = await this.#jobs.list({ status: ['scraping'] });
    return running.filter((job) => {
      const fault = job.storeFault;
      return fault !== undefined && fault.at >= job.updatedAt && this.expired(fault.since);
    });
  }

  /** The error a job ends failed with once its store has failed it since `since`. */
  timeoutError(message: string, since: number): CrawlkitError {
    const ms = Date.now() - since;
    const spent = ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
    return new CrawlkitError(
      'STORE_IO',
      `The store kept failing this job's pages for ${spent}, past storeFaultTimeoutMs (crawlkit worker ` +
        `--store-fault-timeout-ms): ${message}`,
    );
  }
}
