import type { JobRecord } from '@crawlkit/store';

import type { Document } from '../v2/types.js';
import type { JobStores } from './job-stores.js';
import { decodeDocument } from '../codec/records.js';

/** How often a waiter looks at the store anyway: jobs run by another process don't signal here. */
const WATCH_POLL_MS = 1_000;
/** Characters of documents `watch` reads at once. */
const WATCH_PAGE_CHARS = 8 * 1024 ** 2;

/** Wakes the callers waiting on a job when this process sees it change (a page stored or failed, the job ended). */
export class JobSignals {
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Wakes every waiter of the job. */
  signal(id: string): void {
    const waiters = this.#waiters.get(id);
    if (!waiters) return;
    this.#waiters.delete(id);
    for (const wake of waiters) wake();
  }

  /** Wakes every waiter of every job (the engine is closing). */
  signalAll(): void {
    for (const id of [...this.#waiters.keys()]) this.signal(id);
  }

  /** Resolves at the job's next signal, after `WATCH_POLL_MS`, or when `signal` aborts, whichever is first. */
  next(id: string, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(id) ?? new Set();
      this.#waiters.set(id, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, WATCH_POLL_MS);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
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
    await signals.next(id, signal);
  }
}

/** Yields each stored document of the job in completion order, then ends when the job has finished. */
export async function* watchJob(
  stores: JobStores,
  signals: JobSignals,
  id: string,
  signal?: AbortSignal,
): AsyncGenerator<Document, void, undefined> {
  let seq = 0;
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
    await signals.next(id, signal);
  }
}
