import { randomUUID } from 'node:crypto';

import type { BackendConnection, JobRecord, TaskInput } from '@crawlkit/store';

import { deleteExpiredJobs } from '../jobs/expired-jobs.js';

const FINISH_LOCK_MS = 60_000;
const SWEEP_PAGE = 1_000;
const EXPIRY_SWEEP_MS = 60_000;

/**
 * How jobs run by workers end: the worker that settles a job's last task marks it completed (one wins the race in
 * the whole cluster), and a sweep recovers what crashes leave behind.
 */
export class JobCompletion {
  readonly #connection: BackendConnection;
  readonly #completeJob: (job: JobRecord) => Promise<void>;
  readonly #finishChecks = new Map<string, { again: boolean; done: Promise<void> }>();
  #expiredCheckedAt = 0;

  constructor(connection: BackendConnection, completeJob: (job: JobRecord) => Promise<void>) {
    this.#connection = connection;
    this.#completeJob = completeJob;
  }

  /**
   * Marks the job completed if nothing of it is left. Coalesces the checks of tasks settling together: one check
   * runs at a time per job, and one more after it when tasks settled meanwhile (the last task to settle is always
   * followed by a check).
   */
  check(jobId: string): Promise<void> {
    const pending = this.#finishChecks.get(jobId);
    if (pending) {
      pending.again = true;
      return pending.done;
    }
    const entry: { again: boolean; done: Promise<void> } = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.#finishIfDone(jobId);
        } while (entry.again);
      } finally {
        this.#finishChecks.delete(jobId);
      }
    })();
    this.#finishChecks.set(jobId, entry);
    return entry.done;
  }

  /**
   * Deletes expired jobs (once a minute), then, while the queue is empty: re-queues the queued tasks of unfinished
   * jobs (their submitter or a worker died between the store write and the enqueue) and finishes jobs with nothing
   * left (their last worker died before it could).
   */
  async sweep(): Promise<void> {
    const { store, queue, coordination } = this.#connection;
    if (Date.now() - this.#expiredCheckedAt >= EXPIRY_SWEEP_MS) {
      // Jobs past their result TTL are deleted by whoever notices first (a cheap range query).
      this.#expiredCheckedAt = Date.now();
      await deleteExpiredJobs(store);
    }
    const counts = await queue.counts();
    if (counts.waiting + counts.active + counts.delayed > 0) return;
    for (const job of await store.jobs.list({ status: ['scraping'] })) {
      const taskCounts = await store.tasks.counts(job.id);
      if (taskCounts.queued + taskCounts.active === 0) {
        await this.#finishIfDone(job.id);
        continue;
      }
      for (let offset = 0; ; offset += SWEEP_PAGE) {
        const tasks: TaskInput[] = await coordination.queuedTasks(job.id, offset, SWEEP_PAGE);
        if (tasks.length === 0) break;
        await queue.enqueue(tasks.map((task) => ({ ...task, jobId: job.id, attempt: 0 })));
      }
    }
  }

  /** Marks the job completed when nothing of it is queued or running; one worker wins the race. */
  async #finishIfDone(jobId: string): Promise<void> {
    const { store, coordination } = this.#connection;
    const counts = await store.tasks.counts(jobId);
    if (counts.queued > 0 || counts.active > 0) return;
    // A fresh owner per attempt: the lock is never renewed, so one attempt in the whole cluster goes ahead.
    const owner = randomUUID();
    if (!(await coordination.tryLock(`finish:${jobId}`, owner, FINISH_LOCK_MS))) return;
    try {
      const job = await store.jobs.get(jobId);
      if (job?.status !== 'scraping') return;
      await this.#completeJob(job);
    } finally {
      // Let go once the job reads ended: a batch appended to (it runs again) can end again at once, not 60 s later.
      await coordination.releaseLock(`finish:${jobId}`, owner).catch(() => undefined);
    }
  }
}
