import { randomUUID } from 'node:crypto';

import {
  documentBytes,
  type AliasClaim,
  JobNotFoundError,
  TaskNotFoundError,
  type TaskCompletion,
  type JobCounts,
  type JobError,
  type Task,
  type TaskInput,
  type TaskOutcome,
  type TaskStore,
} from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import { parseTaskInput, rethrowNoJob, taskPairs } from './jobs.js';
import type { ScriptRunner } from './scripts-runner.js';
import { entryArgs } from './search.js';

/**
 * The frontier of each job: the task inputs, states, seqs, attempts and not-before times in hashes keyed by task key
 * (so a key is known once, dropped or not), a sorted set of queued keys by seq and a set of active ones.
 */
export class RedisTaskStore implements TaskStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;
  readonly #indexes: boolean;

  /** `indexes`: whether results completed with text are indexed (`searchIndex`). */
  constructor(life: Lifecycle, redis: ScriptRunner, indexes = false) {
    this.#life = life;
    this.#redis = redis;
    this.#indexes = indexes;
  }

  add(jobId: string, tasks: TaskInput[], options?: { limit?: number; notBefore?: number }): Promise<TaskInput[]> {
    return this.#life.run(async () => {
      const limit = options?.limit ?? -1;
      let added: number[];
      try {
        added = (await this.#redis.run(
          'TASK_ADD',
          jobId,
          Number.isFinite(limit) ? limit : -1,
          options?.notBefore ?? 0,
          ...taskPairs(tasks),
        )) as number[];
      } catch (error) {
        rethrowNoJob(error, jobId);
      }
      return added.map((index) => {
        const task = tasks[index - 1]!;
        const copy: TaskInput = { key: task.key, url: task.url, depth: task.depth };
        if (task.meta !== undefined) copy.meta = task.meta;
        return copy;
      });
    });
  }

  has(jobId: string, key: string): Promise<boolean> {
    return this.#life.run(async () => (await this.#redis.client.hexists(this.#redis.key('j', jobId, 't'), key)) === 1);
  }

  claimAlias(jobId: string, key: string, claim: AliasClaim): Promise<AliasClaim | undefined> {
    return this.#life.run(async () => {
      let found: unknown;
      try {
        found = await this.#redis.run('TASK_CLAIM_ALIAS', jobId, key, claim.hash, claim.by);
      } catch (error) {
        rethrowNoJob(error, jobId);
      }
      if (typeof found !== 'string') return undefined;
      const space = found.indexOf(' ');
      return { hash: found.slice(0, space), by: found.slice(space + 1) };
    });
  }

  claim(jobId: string, count: number, now = Date.now()): Promise<Task[]> {
    return this.#life.run(async () => {
      if (count <= 0) return [];
      const flat = (await this.#redis.run('TASK_CLAIM', jobId, count, now)) as (string | number)[];
      const tasks: Task[] = [];
      for (let i = 0; i < flat.length; i += 5) {
        const input = parseTaskInput(String(flat[i]), String(flat[i + 1]));
        tasks.push({
          ...input,
          seq: Number(flat[i + 2]),
          state: 'active',
          attempts: Number(flat[i + 3]),
          notBefore: Number(flat[i + 4]),
        });
      }
      return tasks;
    });
  }

  complete(jobId: string, outcome: TaskOutcome): Promise<TaskCompletion> {
    return this.#life.run(async () => (await this.#complete('TASK_COMPLETE', jobId, [outcome]))[0]!);
  }

  completeMany(jobId: string, outcomes: readonly TaskOutcome[]): Promise<TaskCompletion[]> {
    return this.#life.run(async () => {
      if (outcomes.length > 0) return this.#complete('TASK_COMPLETE_MANY', jobId, outcomes);
      if (!(await this.#redis.client.exists(this.#redis.key('job', jobId)))) throw new JobNotFoundError(jobId);
      return [];
    });
  }

  /** Runs a completion script: it checks every key first, then completes each outcome in order (all or nothing). */
  async #complete(
    script: 'TASK_COMPLETE' | 'TASK_COMPLETE_MANY',
    jobId: string,
    outcomes: readonly TaskOutcome[],
  ): Promise<TaskCompletion[]> {
    const now = Date.now();
    const args: (string | number)[] = [];
    for (const outcome of outcomes) {
      const search =
        this.#indexes && outcome.search && outcome.document !== undefined ? entryArgs(now, outcome.search) : [];
      args.push(
        outcome.key,
        outcome.credits,
        outcome.document ?? '',
        outcome.document !== undefined ? '1' : '0',
        outcome.error ? JSON.stringify(jobError(outcome.error, now)) : '',
        documentBytes(outcome.document),
        search.length,
        ...search,
      );
    }
    let reply: (string | number)[];
    try {
      reply = (await this.#redis.run(script, jobId, now, ...args)) as (string | number)[];
    } catch (cause) {
      const key = unknownTask(cause);
      if (key !== undefined) throw new TaskNotFoundError(jobId, key);
      rethrowNoJob(cause, jobId);
    }
    const completions: TaskCompletion[] = [];
    for (let i = 0; i < reply.length; i += 2) {
      const seq = Number(reply[i]);
      const storedBytes = Number(reply[i + 1]);
      if (seq < 0) completions.push({ duplicate: true });
      else
        completions.push(
          seq > 0 ? { duplicate: false, resultSeq: seq, storedBytes } : { duplicate: false, storedBytes },
        );
    }
    return completions;
  }

  release(jobId: string, key: string, notBefore = 0): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.run('TASK_RELEASE', jobId, key, notBefore);
    });
  }

  requeueActive(jobId: string): Promise<number> {
    return this.#life.run(async () => Number(await this.#redis.run('TASK_REQUEUE_ACTIVE', jobId)));
  }

  dropQueued(jobId: string): Promise<number> {
    return this.#life.run(async () => Number(await this.#redis.run('TASK_DROP_QUEUED', jobId)));
  }

  counts(jobId: string): Promise<JobCounts> {
    return this.#life.run(async () => {
      const values = await this.#redis.client.hmget(
        this.#redis.key('j', jobId, 'n'),
        'queued',
        'active',
        'done',
        'failed',
      );
      const [queued, active, done, failed] = values.map((v) => Number(v ?? 0)) as [number, number, number, number];
      return { queued, active, done, failed };
    });
  }
}

/** The key a completion script refused as unknown (`NOTASK <key>`), or undefined for another failure. */
function unknownTask(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /^(?:ERR )?NOTASK (.*)$/s.exec(error.message)?.[1];
}

export function jobError(error: { url: string; code?: string; error: string }, now: number): JobError {
  const entry: JobError = { id: randomUUID(), url: error.url, error: error.error, timestamp: now };
  if (error.code !== undefined) entry.code = error.code;
  return entry;
}
