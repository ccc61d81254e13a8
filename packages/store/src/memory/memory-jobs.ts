import { randomUUID } from 'node:crypto';
import { JobExistsError, JobNotFoundError, TaskNotFoundError } from '../errors.js';
import { applyJobPatch, type JobPatch } from '../job-patch.js';
import type { Lifecycle } from '../lifecycle.js';
import { takeWithin } from '../result-reads.js';
import { documentBytes } from '../types.js';
import type {
  ResultReadOptions,
  JobCounts,
  JobError,
  JobKind,
  JobRecord,
  JobStatus,
  JobStore,
  HostEngineStats,
  ResultStore,
  StoredResult,
  Task,
  TaskCompletion,
  TaskInput,
  TaskOutcome,
  TaskState,
  TaskStore,
} from '../types.js';

interface MemoryTask {
  key: string;
  url: string;
  depth: number;
  meta?: string;
  seq: number;
  state: TaskState | 'dropped';
  attempts: number;
  notBefore: number;
}

interface MemoryJob {
  record: JobRecord;
  leaseOwner?: string;
  leaseUntil: number;
  tasks: Map<string, MemoryTask>;
  /** Queued tasks, sorted by `seq`. */
  queue: MemoryTask[];
  counts: JobCounts;
  results: StoredResult[];
  errors: JobError[];
  robots: Set<string>;
  /** What the job learned per host (`EngineStore`). */
  engines: Map<string, HostEngineStats>;
}

/** The jobs of one memory store; the job, task and result sub-stores share it. */
export class MemoryJobState {
  readonly jobs = new Map<string, MemoryJob>();
  /** Called when a job is deleted, so other sub-stores drop their rows of it. */
  onDelete: (id: string) => void = () => undefined;

  require(id: string): MemoryJob {
    const job = this.jobs.get(id);
    if (!job) throw new JobNotFoundError(id);
    return job;
  }

  setState(job: MemoryJob, task: MemoryTask, state: MemoryTask['state']): void {
    if (task.state !== 'dropped') job.counts[task.state]--;
    if (state !== 'dropped') job.counts[state]++;
    if (task.state === 'queued') job.queue.splice(queueIndex(job.queue, task.seq), 1);
    task.state = state;
    if (state === 'queued') job.queue.splice(queueIndex(job.queue, task.seq), 0, task);
  }

  add(job: MemoryJob, tasks: readonly TaskInput[], limit: number, notBefore: number): TaskInput[] {
    const added: TaskInput[] = [];
    for (const input of tasks) {
      if (job.tasks.size >= limit) break;
      if (job.tasks.has(input.key)) continue;
      const task: MemoryTask = {
        key: input.key,
        url: input.url,
        depth: input.depth,
        seq: job.tasks.size + 1,
        state: 'queued',
        attempts: 0,
        notBefore,
      };
      if (input.meta !== undefined) task.meta = input.meta;
      job.tasks.set(task.key, task);
      job.queue.push(task);
      job.counts.queued++;
      added.push(copyInput(input));
    }
    return added;
  }
}

/** Index of `seq` in a queue sorted by seq: its position, or where it would be inserted. */
function queueIndex(queue: readonly MemoryTask[], seq: number): number {
  let low = 0;
  let high = queue.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (queue[mid]!.seq < seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

function copyInput(input: TaskInput): TaskInput {
  const copy: TaskInput = { key: input.key, url: input.url, depth: input.depth };
  if (input.meta !== undefined) copy.meta = input.meta;
  return copy;
}

export class MemoryJobStore implements JobStore {
  readonly #life: Lifecycle;
  readonly #state: MemoryJobState;

  constructor(life: Lifecycle, state: MemoryJobState) {
    this.#life = life;
    this.#state = state;
  }

  create(job: JobRecord, tasks: TaskInput[]): Promise<void> {
    return this.#life.run(() => {
      if (this.#state.jobs.has(job.id)) throw new JobExistsError(job.id);
      const entry: MemoryJob = {
        record: { ...job, storedBytes: 0 },
        leaseUntil: 0,
        tasks: new Map(),
        queue: [],
        counts: { queued: 0, active: 0, done: 0, failed: 0 },
        results: [],
        errors: [],
        robots: new Set(),
        engines: new Map(),
      };
      this.#state.add(entry, tasks, Infinity, 0);
      this.#state.jobs.set(job.id, entry);
    });
  }

  get(id: string): Promise<JobRecord | undefined> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      return job ? { ...job.record } : undefined;
    });
  }

  update(id: string, patch: JobPatch): Promise<void> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (job) applyJobPatch(job.record, patch, Date.now());
    });
  }

  list(filter?: { status?: JobStatus[]; kind?: JobKind }): Promise<JobRecord[]> {
    return this.#life.run(() => {
      const records: JobRecord[] = [];
      for (const { record } of this.#state.jobs.values()) {
        if (filter?.status && !filter.status.includes(record.status)) continue;
        if (filter?.kind && record.kind !== filter.kind) continue;
        records.push({ ...record });
      }
      return records.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    });
  }

  delete(id: string): Promise<void> {
    return this.#life.run(() => {
      if (this.#state.jobs.delete(id)) this.#state.onDelete(id);
    });
  }

  deleteExpired(now = Date.now()): Promise<string[]> {
    return this.#life.run(() => {
      const expired: string[] = [];
      for (const [id, job] of this.#state.jobs) {
        if (job.record.expiresAt !== undefined && job.record.expiresAt <= now) expired.push(id);
      }
      for (const id of expired) {
        this.#state.jobs.delete(id);
        this.#state.onDelete(id);
      }
      return expired;
    });
  }

  acquireLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (!job) return false;
      if (job.leaseOwner !== undefined && job.leaseOwner !== owner && job.leaseUntil > now) return false;
      job.leaseOwner = owner;
      job.leaseUntil = now + ttlMs;
      return true;
    });
  }

  releaseLease(id: string, owner: string): Promise<void> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      if (job?.leaseOwner !== owner) return;
      delete job.leaseOwner;
      job.leaseUntil = 0;
    });
  }

  leaseHolder(id: string): Promise<{ owner: string; until: number } | undefined> {
    return this.#life.run(() => {
      const job = this.#state.jobs.get(id);
      return job?.leaseOwner !== undefined ? { owner: job.leaseOwner, until: job.leaseUntil } : undefined;
    });
  }
}

export class MemoryTaskStore implements TaskStore {
  readonly #life: Lifecycle;
  readonly #state: MemoryJobState;

  constructor(life: Lifecycle, state: MemoryJobState) {
    this.#life = life;
    this.#state = state;
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
    return this.#life.run(() => {
      const job = this.#state.require(jobId);
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
      }
      if (outcome.error) job.errors.push(jobError(outcome.error, now));
      job.record.creditsUsed += outcome.credits;
      const storedBytes = (job.record.storedBytes ?? 0) + documentBytes(outcome.document);
      job.record.storedBytes = storedBytes;
      job.record.updatedAt = now;
      return resultSeq === undefined ? { duplicate: false, storedBytes } : { duplicate: false, resultSeq, storedBytes };
    });
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

function jobError(error: { url: string; code?: string; error: string }, now: number): JobError {
  const entry: JobError = { id: randomUUID(), url: error.url, error: error.error, timestamp: now };
  if (error.code !== undefined) entry.code = error.code;
  return entry;
}

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

  errors(jobId: string): Promise<JobError[]> {
    return this.#life.run(() => {
      return (this.#state.jobs.get(jobId)?.errors ?? []).map((e) => ({ ...e }));
    });
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
