import type { Lifecycle } from '../lifecycle.js';
import { TaskNotFoundError } from '../errors.js';
import { documentBytes } from '../types.js';
import type { AliasClaim, JobCounts, Task, TaskCompletion, TaskInput, TaskOutcome, TaskStore } from '../types.js';
import type { MemoryJobState } from './job-state.js';
import type { MemoryJob, MemoryTask } from './job-state.js';
import { jobError } from './job-state.js';
import type { MemorySearchIndex } from './search.js';

export class MemoryTaskStore implements TaskStore {
  readonly #life: Lifecycle;
  readonly #state: MemoryJobState;
  readonly #search: MemorySearchIndex | undefined;

  constructor(life: Lifecycle, state: MemoryJobState, search?: MemorySearchIndex) {
    this.#life = life;
    this.#state = state;
    this.#search = search;
  }

  add(jobId: string, tasks: TaskInput[], options?: { limit?: number; notBefore?: number }): Promise<TaskInput[]> {
    return this.#life.run(() => {
      const job = this.#state.require(jobId);
      return this.#state.add(job, tasks, options?.limit ?? Infinity, options?.notBefore ?? 0);
    });
  }

  has(jobId: string, key: string): Promise<boolean> {
    return this.#life.run(() => {
      return this.#state.jobs.get(jobId)?.tasks.has(key) ?? false;
    });
  }

  claimAlias(jobId: string, key: string, claim: AliasClaim): Promise<AliasClaim | undefined> {
    return this.#life.run(() => {
      const { aliases } = this.#state.require(jobId);
      const found = aliases.get(key);
      if (!found || (claim.by === key && found.by !== key && found.hash !== claim.hash)) {
        aliases.set(key, { hash: claim.hash, by: claim.by });
      }
      return found && { ...found };
    });
  }

  claim(jobId: string, count: number, now = Date.now()): Promise<Task[]> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(jobId);
      if (!job) return [];
      const picked: MemoryTask[] = [];
      for (const task of job.queue) {
        if (picked.length >= count) break;
        if (task.notBefore <= now) picked.push(task);
      }
      return picked.map((task) => {
        this.#state.setState(job, task, 'active');
        task.attempts++;
        const claimed: Task = {
          key: task.key,
          url: task.url,
          depth: task.depth,
          seq: task.seq,
          state: 'active',
          attempts: task.attempts,
          notBefore: task.notBefore,
        };
        if (task.meta !== undefined) claimed.meta = task.meta;
        return claimed;
      });
    });
  }

  complete(jobId: string, outcome: TaskOutcome): Promise<TaskCompletion> {
    return this.#life.run(() => this.#complete(this.#state.require(jobId), outcome));
  }

  completeMany(jobId: string, outcomes: readonly TaskOutcome[]): Promise<TaskCompletion[]> {
    return this.#life.run(() => {
      const job = this.#state.require(jobId);
      // Every key is checked before any is applied: a batch is all or nothing.
      const unknown = outcomes.find((outcome) => !job.tasks.has(outcome.key));
      if (unknown) throw new TaskNotFoundError(jobId, unknown.key);
      return outcomes.map((outcome) => this.#complete(job, outcome));
    });
  }

  #complete(job: MemoryJob, outcome: TaskOutcome): TaskCompletion {
    const jobId = job.record.id;
    const task = job.tasks.get(outcome.key);
    if (!task) throw new TaskNotFoundError(jobId, outcome.key);
    if (task.state === 'done' || task.state === 'failed') return { duplicate: true };
    const failed = outcome.document === undefined && outcome.error !== undefined;
    this.#state.setState(job, task, failed ? 'failed' : 'done');
    const now = Date.now();
    let resultSeq: number | undefined;
    if (outcome.document !== undefined) {
      resultSeq = job.results.length + 1;
      job.results.push({ seq: resultSeq, key: task.key, document: outcome.document });
      if (outcome.search) this.#search?.putResult(jobId, resultSeq, now, outcome.search);
    }
    if (outcome.error) job.errors.push(jobError(outcome.error, now));
    job.record.creditsUsed += outcome.credits;
    const storedBytes = (job.record.storedBytes ?? 0) + documentBytes(outcome.document);
    job.record.storedBytes = storedBytes;
    job.record.updatedAt = now;
    return resultSeq === undefined ? { duplicate: false, storedBytes } : { duplicate: false, resultSeq, storedBytes };
  }

  release(jobId: string, key: string, notBefore = 0): Promise<void> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(jobId);
      const task = job?.tasks.get(key);
      if (!job || task?.state !== 'active') return;
      task.notBefore = notBefore;
      this.#state.setState(job, task, 'queued');
    });
  }

  requeueActive(jobId: string): Promise<number> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(jobId);
      if (!job) return 0;
      let moved = 0;
      for (const task of job.tasks.values()) {
        if (task.state !== 'active') continue;
        this.#state.setState(job, task, 'queued');
        moved++;
      }
      return moved;
    });
  }

  dropQueued(jobId: string): Promise<number> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(jobId);
      if (!job) return 0;
      const dropped = job.queue.length;
      for (const task of job.queue) task.state = 'dropped';
      job.queue = [];
      job.counts.queued = 0;
      return dropped;
    });
  }

  counts(jobId: string): Promise<JobCounts> {
    return this.#life.run(() => {
      const counts = this.#state.jobs.get(jobId)?.counts;
      return counts ? { ...counts } : { queued: 0, active: 0, done: 0, failed: 0 };
    });
  }
}
