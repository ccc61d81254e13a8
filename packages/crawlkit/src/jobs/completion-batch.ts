import type { Store, TaskCompletion, TaskOutcome } from '@crawlkit/store';

interface Waiting {
  outcome: TaskOutcome;
  resolve(completion: TaskCompletion): void;
  reject(error: unknown): void;
}

/**
 * Completes the tasks of one job that settle in the same turn of the event loop in one store transaction
 * (`TaskStore.completeMany`): a recrawl whose pages each cost a 304 spends most of its time in per-page commits.
 *
 * Crash safety is the store's: each task stays claimed until the batch that holds it commits, so a process killed
 * before then leaves it to be claimed and scraped again (its webhook event is de-duplicated by its task key); once
 * committed it is done, and `complete` is idempotent. Each caller gets its own completion. A batch the store refuses
 * whole (all or nothing: an unknown key, a full disk) is tried again one completion at a time, so each caller gets
 * its own answer or error and one bad outcome never holds the others back.
 */
export class CompletionBatch {
  readonly #store: Store;
  readonly #jobId: string;
  #waiting: Waiting[] = [];

  constructor(store: Store, jobId: string) {
    this.#store = store;
    this.#jobId = jobId;
  }

  /** Completes the task with the others settled in this turn; resolves once its batch is committed. */
  complete(outcome: TaskOutcome): Promise<TaskCompletion> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => void this.#flush());
      this.#waiting.push({ outcome, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    if (batch.length > 1) {
      try {
        const completions = await this.#store.tasks.completeMany(
          this.#jobId,
          batch.map((w) => w.outcome),
        );
        batch.forEach((waiting, i) => waiting.resolve(completions[i]!));
        return;
      } catch {
        // Nothing of the batch was applied: each is tried alone below, and answers for itself.
      }
    }
    for (const waiting of batch) {
      await this.#store.tasks.complete(this.#jobId, waiting.outcome).then(
        (completion) => waiting.resolve(completion),
        (error: unknown) => waiting.reject(error),
      );
    }
  }
}
