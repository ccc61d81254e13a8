import { randomUUID } from 'node:crypto';

import type { HostEngineStats } from '../types.js';
import { JobNotFoundError } from '../errors.js';
import type { AliasClaim, JobCounts, JobError, JobRecord, StoredResult, TaskInput, TaskState } from '../types.js';

export interface MemoryTask {
  key: string;
  url: string;
  depth: number;
  meta?: string;
  seq: number;
  state: TaskState | 'dropped';
  attempts: number;
  notBefore: number;
}

export interface MemoryJob {
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
  /** What each claimed key holds (`TaskStore.claimAlias`). */
  aliases: Map<string, AliasClaim>;
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
export function queueIndex(queue: readonly MemoryTask[], seq: number): number {
  let low = 0;
  let high = queue.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (queue[mid]!.seq < seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

export function copyInput(input: TaskInput): TaskInput {
  const copy: TaskInput = { key: input.key, url: input.url, depth: input.depth };
  if (input.meta !== undefined) copy.meta = input.meta;
  return copy;
}

export function jobError(error: { url: string; code?: string; error: string }, now: number): JobError {
  const entry: JobError = { id: randomUUID(), url: error.url, error: error.error, timestamp: now };
  if (error.code !== undefined) entry.code = error.code;
  return entry;
}
