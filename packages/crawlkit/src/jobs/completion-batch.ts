import { setImmediate } from 'node:timers';
import type { Store, TaskCompletion, TaskOutcome } from '@crawlkit/store';

interface Waiting {
  outcome: TaskOutcome;
  resolve(completion: TaskCompletion): void;
  reject(error: unknown): void;
}

/**
 * Completes the tasks that settle in the same turn of the event loop in one store transaction per job
 * (`TaskStore.completeMany`): a recrawl whose pages each cost a 304 spends most of its time in per-page commits. A job
 * runner keeps one for its job; a Redis task worker one for all the jobs whose tasks it runs.
 *
 * Crash safety is the store's: each task stays claimed until the batch that holds it commits, so a process killed
 * before then leaves it to be claimed and scraped again (its webhook event is de-duplicated by its task key); once
 * committed it is done, and `complete` is idempotent. Each caller gets its own completion. A batch the store refuses
 * whole (all or nothing: an unknown key, a full disk) is tried again one completion at a time, so each caller gets
 * its own answer or error and one bad outcome never holds the others back.
 */
export class CompletionBatch {
  readonly #store: Store;
  /** The completions waiting for the next turn, per job. */
  #waiting = new Map<string, Waiting[]>();

  constructor(store: Store) {
    this.#store = store;
  }

  /** Completes the task with the others of its job settled in this turn; resolves once its batch is committed. */
  complete(jobId: string, outcome: TaskOutcome): Promise<TaskCompletion> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.size === 0) setImmediate(() => this.#flushAll());
      let waiting = this.#waiting.get(jobId);
      if (!waiting) this.#waiting.set(jobId, (waiting = []));
      waiting.push({ outcome, resolve, reject });
    });
  }

  #flushAll(): void {
    const jobs = this.#waiting;
    this.#waiting = new Map();
    for (const [jobId, batch] of jobs) void this.#flush(jobId, batch);
  }

  async #flush(jobId: string, batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const completions = await this.#store.tasks.completeMany(
          jobId,
          batch.map((w) => w.outcome),
        );
        batch.forEach((waiting, i) => waiting.resolve(completions[i]!));
        return;
      } catch {
        // Nothing of the batch was applied: each is tried alone below, and answers for itself.
      }
    }
    for (const waiting of batch) {
      await this.#store.tasks.complete(jobId, waiting.outcome).then(
        (completion) => waiting.resolve(completion),
        (error: unknown) => waiting.reject(error),
      );
    }
  }
}
