import type { JobStore } from '@crawlkit/store';

import { hasCrawlkitCode } from '../errors.js';

/** A worker notes a job's store fault at most this often: a full Redis fails every running task of a job at once. */
const NOTE_EVERY_MS = 1_000;

/**
 * The jobs a worker finds stalled on their store (Redis at `maxmemory`, busy, loading...): each fault its tasks meet
 * is noted on the job (`JobStore.noteStoreFault`), so that the job's status says why it does not move.
 */
export class StoreStalls {
  readonly #jobs: JobStore;
  /** Per job: when this worker last noted a fault. */
  readonly #noted = new Map<string, number>();

  constructor(jobs: JobStore) {
    this.#jobs = jobs;
  }

  /** Notes a store fault met by a task of the job (a store without notes: nothing). */
  async note(jobId: string, error: unknown): Promise<void> {
    const now = Date.now();
    const last = this.#noted.get(jobId);
    if (last !== undefined && now - last < NOTE_EVERY_MS) return;
    const code = hasCrawlkitCode(error) ? error.code : 'STORE_IO';
    const message = error instanceof Error ? error.message : String(error);
    await this.#jobs.noteStoreFault?.(jobId, { code, message, at: now }).catch(() => undefined);
    this.#noted.set(jobId, now);
    if (this.#noted.size > 1_000) this.#noted.delete(this.#noted.keys().next().value!);
  }
}
