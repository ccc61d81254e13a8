import { clearTimeout, setTimeout } from 'node:timers';
import type { JobRecord } from '@crawlkit/store';

import { CLOSED_UNDER_CALL } from '../call-options.js';
import { CrawlkitError } from '../errors.js';
import type { Document } from '../v2/types.js';
import type { JobStores } from './job-stores.js';
import { decodeDocument } from '../codec/records.js';

/** How often a waiter looks at the store anyway: jobs run by another process don't signal here. */
const WATCH_POLL_MS = 1_000;
/** Characters of documents `watch` reads at once. */
const WATCH_PAGE_CHARS = 8 * 1024 ** 2;

/** What a waiter waits for: any change of the job (`watch`), or only its end (`wait`). */
export type JobSignalKind = 'change' | 'end';

/**
 * Of the given jobs, those still running, each with the seq of its latest stored result (undefined where the store
 * does not say): `JobStores.running`.
 */
export type RunningJobs = (ids: readonly string[]) => Promise<Map<string, number | undefined>>;

/** A caller waiting in `JobSignals.next`. */
interface Waiter {
  /** Resolves its wait (and forgets it). */
  wake: () => void;
  /** Woken by the shared read of statuses, not by a timer of its own. */
  polled: boolean;
  /** A change waiter's last result seq read: the read wakes it when the job's latest passes it. */
  afterSeq?: number;
}

/**
 * Wakes the callers waiting on a job when this process sees it change (a page stored or failed) or end (the job
 * ended, or stopped running here). A caller waiting for the end is not woken by each page: `waitForJob` reads the job
 * once at its end instead of once a page. Jobs run by another process send no signal here: each second, the statuses
 * of every job waited on are read in one call (`running`), which wakes the end waiters of those that ended and the
 * change waiters of those with a result past the last they read. A process following thousands of jobs
 * (`serve --redis`, the job WebSocket) thus makes one read a second, not one of each record and its results.
 */
export class JobSignals {
  readonly #waiters: Record<JobSignalKind, Map<string, Set<Waiter>>> = { change: new Map(), end: new Map() };
  readonly #running: RunningJobs | undefined;
  /** Waiters woken by the shared read: while any waits, it runs each second. */
  #polled = 0;
  /** The next read of statuses, while a polled waiter waits. */
  #poll: NodeJS.Timeout | undefined;
  #polling = false;
  #closed = false;

  /** `running`: without it, every waiter wakes each second to read its job again. */
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

  /**
   * The engine's jobs have stopped: every waiter wakes to read what its job stored, and its next wait (and any later
   * one) throws `ENGINE_CLOSED` at once, rather than at the next read of statuses after the store has closed.
   */
  close(): void {
    this.#closed = true;
    this.#stopPoll();
    for (const kind of ['change', 'end'] as const) {
      for (const id of [...this.#waiters[kind].keys()]) this.#wake(kind, id);
    }
  }

  #wake(kind: JobSignalKind, id: string): void {
    // A waiter woken leaves the set: a set's iteration skips what is deleted during it and visits nothing twice.
    for (const waiter of this.#waiters[kind].get(id) ?? []) waiter.wake();
  }

  /**
   * Resolves at the job's next signal of `kind` (an end wakes a change waiter too), when `signal` aborts, or when the
   * next read of statuses finds the job no longer running, or (for a change, given `afterSeq`, the seq of the last
   * result the caller read) with a result past it. A change waiter without `afterSeq` wakes after `WATCH_POLL_MS`.
   * Throws `ENGINE_CLOSED` once `close()` was called.
   */
  next(id: string, signal?: AbortSignal, kind: JobSignalKind = 'change', afterSeq?: number): Promise<void> {
    if (this.#closed) return Promise.reject(new CrawlkitError('ENGINE_CLOSED', CLOSED_UNDER_CALL));
    const polled = this.#running !== undefined && (kind === 'end' || afterSeq !== undefined);
    return new Promise((resolve) => {
      const byJob = this.#waiters[kind];
      const waiters = byJob.get(id) ?? new Set();
      byJob.set(id, waiters);
      const waiter: Waiter = {
        wake: () => {
          if (!waiters.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', waiter.wake);
          if (waiters.size === 0 && byJob.get(id) === waiters) byJob.delete(id);
          if (polled && --this.#polled === 0) this.#stopPoll();
          resolve();
        },
        polled,
        ...(afterSeq !== undefined ? { afterSeq } : {}),
      };
      const timer = polled ? undefined : setTimeout(waiter.wake, WATCH_POLL_MS);
      signal?.addEventListener('abort', waiter.wake, { once: true });
      waiters.add(waiter);
      if (polled) {
        this.#polled++;
        this.#schedulePoll();
      }
    });
  }

  #schedulePoll(): void {
    if (this.#poll !== undefined || this.#polling) return;
    this.#poll = setTimeout(() => void this.#read(), WATCH_POLL_MS);
  }

  #stopPoll(): void {
    clearTimeout(this.#poll);
    this.#poll = undefined;
  }

  /** The shared read: every polled waiter's job in one call, each waiter woken by what it waits for. */
  async #read(): Promise<void> {
    this.#poll = undefined;
    // Every end waiter is polled while there is a read; a change waiter only when it gave `afterSeq`.
    const ids = new Set(this.#waiters.end.keys());
    for (const [id, waiters] of this.#waiters.change) {
      for (const waiter of waiters) {
        if (!waiter.polled) continue;
        ids.add(id);
        break;
      }
    }
    if (ids.size === 0) return;
    this.#polling = true;
    let running: Map<string, number | undefined> | undefined;
    try {
      running = await this.#running!([...ids]);
    } catch {
      // Every waiter reads its own job again, and meets the failure there.
      running = undefined;
    } finally {
      this.#polling = false;
    }
    for (const id of ids) {
      if (!running?.has(id)) {
        this.ended(id);
        continue;
      }
      const changes = this.#waiters.change.get(id);
      if (!changes) continue;
      // A store that does not say how far the results go: its change waiters read them each second.
      const latest = running.get(id);
      for (const waiter of changes) {
        if (waiter.polled && (latest === undefined || latest > waiter.afterSeq!)) waiter.wake();
      }
    }
    if (this.#polled > 0 && !this.#closed) this.#schedulePoll();
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
 * Yields each stored document of the job in completion order, past the first `skip` (never read: result seqs are 1, 2,
 * 3, ... without gaps, so the first one after them is `seq > skip`), then ends when the job has finished.
 */
export async function* watchJob(
  stores: JobStores,
  signals: JobSignals,
  id: string,
  signal?: AbortSignal,
  skip = 0,
): AsyncGenerator<Document, void, undefined> {
  // Reading from the first result and counting `skip` off read every page a resumed crawl had printed out of the
  // store before its first new page (about a second of CPU at 15,000 pages).
  let seq = Math.max(0, skip);
  for (;;) {
    signal?.throwIfAborted();
    const found = await stores.find(id);
    if (!found) return;
    const finished = found.job.status !== 'scraping';
    // At most ~8 MB of documents a read, whatever their size: watching a large job holds a page of it, not all.
    const batch = await found.store.results.since(id, seq, 100, { maxChars: WATCH_PAGE_CHARS });
    for (const result of batch) {
      seq = result.seq;
      yield decodeDocument(result.document);
    }
    if (batch.length > 0) continue;
    if (finished) return;
    await signals.next(id, signal, 'change', seq);
  }
}
