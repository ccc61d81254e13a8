import type { Lifecycle } from '../lifecycle.js';
import { takeWithin } from '../result-reads.js';
import type { JobError, ResultReadOptions, ResultStore, StoredResult } from '../types.js';
import type { MemoryJobState } from './job-state.js';
import { jobError } from './job-state.js';

export class MemoryResultStore implements ResultStore {
  readonly #life: Lifecycle;
  readonly #state: MemoryJobState;

  constructor(life: Lifecycle, state: MemoryJobState) {
    this.#life = life;
    this.#state = state;
  }

  list(jobId: string, skip: number, limit: number, options: ResultReadOptions = {}): Promise<StoredResult[]> {
    return this.#life.run(() => {
      const results = this.#state.jobs.get(jobId)?.results ?? [];
      return takeWithin(results.slice(Math.max(0, skip), Math.max(0, skip) + Math.max(0, limit)), options.maxChars);
    });
  }

  since(jobId: string, afterSeq: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]> {
    // Result seqs are 1, 2, 3, ... so the result after `afterSeq` sits at index `afterSeq`.
    return this.list(jobId, afterSeq, limit, options);
  }

  count(jobId: string): Promise<number> {
    return this.#life.run(() => {
      return this.#state.jobs.get(jobId)?.results.length ?? 0;
    });
  }

  errors(jobId: string, limit?: number): Promise<JobError[]> {
    return this.#life.run(() => {
      const errors = this.#state.jobs.get(jobId)?.errors ?? [];
      return errors.slice(0, limit === undefined ? undefined : Math.max(0, limit)).map((e) => ({ ...e }));
    });
  }

  errorCount(jobId: string): Promise<number> {
    return this.#life.run(() => this.#state.jobs.get(jobId)?.errors.length ?? 0);
  }

  addError(jobId: string, error: { url: string; code?: string; error: string }): Promise<void> {
    return this.#life.run(() => {
      this.#state.require(jobId).errors.push(jobError(error, Date.now()));
    });
  }

  addRobotsBlocked(jobId: string, url: string): Promise<void> {
    return this.#life.run(() => {
      this.#state.require(jobId).robots.add(url);
    });
  }

  robotsBlocked(jobId: string): Promise<string[]> {
    return this.#life.run(() => {
      return [...(this.#state.jobs.get(jobId)?.robots ?? [])];
    });
  }
}
