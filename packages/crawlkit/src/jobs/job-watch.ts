import type { JobRecord } from '@crawlkit/store';

import type { Document } from '../v2/types.js';
import type { JobStores } from './job-stores.js';
import { decodeDocument } from '../codec/records.js';

/** How often a waiter looks at the store anyway: jobs run by another process don't signal here. */
const WATCH_POLL_MS = 1_000;
/** Characters of documents `watch` reads at once. */
const WATCH_PAGE_CHARS = 8 * 1024 ** 2;

/** What a waiter waits for: any change of the job (`watch`), or only its end (`wait`). */
export type JobSignalKind = 'change' | 'end';

/** Of the given jobs, those still running (`JobStores.running`). */
export type RunningJobs = (ids: readonly string[]) => Promise<Set<string>>;

/**
 * Wakes the callers waiting on a job when this process sees it change (a page stored or failed) or end (the job
 * ended, or stopped running here). A caller waiting for the end is not woken by each page: `waitForJob` reads the job
 * once at its end instead of once a page. Jobs run by another process send no signal here: each second, change
 * waiters wake to read their job again, and the statuses of every job waited on for its end are read in one call
 * (`running`), which wakes those that ended. A process following thousands of jobs (`serve --redis`) thus makes one
 * read a second, not one of each record.
 */
export class JobSignals {
  readonly #waiters: Record<JobSignalKind, Map<string, Set<() => void>>> = { change: new Map(), end: new Map() };
  readonly #running: RunningJobs | undefined;
  /** The next read of the end waiters' statuses, while any waits. */
  #endPoll: NodeJS.Timeout | undefined;
  #endPolling = false;

  /** `running`: without it, end waiters wake each second as change waiters do, to read their job again. */
  constructor(running?: RunningJobs) {
    this.#running = running;
  }

  /** Wakes the job's waiters for a change (a page stored or failed). */
  signal(id: string): void {
    this.#wake('change', id);
  }

  /** Wakes every waiter of the job: it ended, or stopped running in this process. */
  ended(id: string): void {
    this.#wake('change', id);
    this.#wake('end', id);
  }

  /** Wakes every waiter of every job (the engine is closing). */
  signalAll(): void {
    for (const kind of ['change', 'end'] as const) {
      for (const id of [...this.#waiters[kind].keys()]) this.#wake(kind, id);
    }
  }

  #wake(kind: JobSignalKind, id: string): void {
    const waiters = this.#waiters[kind].get(id);
    if (!waiters) return;
    this.#waiters[kind].delete(id);
    for (const wake of waiters) wake();
  }

  /**
   * Resolves at the job's next signal of `kind` (an end wakes a change waiter too), when `signal` aborts, or: for a
   * change, after `WATCH_POLL_MS`; for an end, when the next read of statuses finds the job no longer running.
   */
  next(id: string, signal?: AbortSignal, kind: JobSignalKind = 'change'): Promise<void> {
    const polled = kind === 'end' && this.#running !== undefined;
    return new Promise((resolve) => {
      const byJob = this.#waiters[kind];
      const waiters = byJob.get(id) ?? new Set();
      byJob.set(id, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0 && byJob.get(id) === waiters) byJob.delete(id);
        if (polled && byJob.size === 0) this.#stopEndPoll();
        resolve();
      };
      const timer = polled ? undefined : setTimeout(done, WATCH_POLL_MS);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
      if (polled) this.#scheduleEndPoll();
    });
  }

  #scheduleEndPoll(): void {
    if (this.#endPoll !== undefined || this.#endPolling) return;
    this.#endPoll = setTimeout(() => void this.#pollEnds(), WATCH_POLL_MS);
  }

  #stopEndPoll(): void {
    clearTimeout(this.#endPoll);
    this.#endPoll = undefined;
  }

  async #pollEnds(): Promise<void> {
    this.#endPoll = undefined;
    const ids = [...this.#waiters.end.keys()];
    if (ids.length === 0) return;
    this.#endPolling = true;
    let running: Set<string> | undefined;
    try {
      running = await this.#running!(ids);
    } catch {
      // Every waiter reads its own job again, and meets the failure there.
      running = undefined;
    } finally {
      this.#endPolling = false;
    }
    for (const id of ids) if (!running?.has(id)) this.#wake('end', id);
    if (this.#waiters.end.size > 0) this.#scheduleEndPoll();
  }
}

/** Resolves when the job has finished (in any process), with its record; undefined when there is no such job. */
export async function waitForJob(
  stores: JobStores,
  signals: JobSignals,
  id: string,
  signal?: AbortSignal,
): Promise<JobRecord | undefined> {
  for (;;) {
    signal?.throwIfAborted();
    const found = await stores.find(id);
    if (!found || found.job.status !== 'scraping') return found?.job;
    await signals.next(id, signal, 'end');
  }
}

/**
 * Yields each stored document of the job in completion order, past the first `skip` (passed over undecoded), then
 * ends when the job has finished.
 */
export async function* watchJob(
  stores: JobStores,
  signals: JobSignals,
  id: string,
  signal?: AbortSignal,
  skip = 0,
): AsyncGenerator<Document, void, undefined> {
  let seq = 0;
  let passed = 0;
  for (;;) {
    signal?.throwIfAborted();
    const found = await stores.find(id);
    if (!found) return;
    const finished = found.job.status !== 'scraping';
    // At most ~8 MB of documents a read, whatever their size: watching a large job holds a page of it, not all.
    const batch = await found.store.results.since(id, seq, 100, { maxChars: WATCH_PAGE_CHARS });
    for (const result of batch) {
      seq = result.seq;
      if (passed < skip) passed++;
      else yield decodeDocument(result.document);
    }
    if (batch.length > 0) continue;
    if (finished) return;
    await signals.next(id, signal);
  }
}
