import { createHash } from 'node:crypto';

import {
  StoreCorruptError,
  JobExistsError,
  JobNotFoundError,
  jobPatchEntries,
  statusRead,
  type JobKind,
  type JobPatch,
  type JobRecord,
  type JobStatus,
  type JobStatusRead,
  type JobStore,
  type TaskInput,
} from '@crawlkit/store';

import type { Lifecycle } from './lifecycle.js';
import { isReply, type ScriptRunner } from './scripts-runner.js';

/** The (key, serialised input) pairs a task list travels as to the scripts. */
export function taskPairs(tasks: readonly TaskInput[]): string[] {
  const pairs: string[] = [];
  for (const task of tasks) {
    const input: [string, number, string?] = [task.url, task.depth];
    if (task.meta !== undefined) input.push(task.meta);
    pairs.push(task.key, JSON.stringify(input));
  }
  return pairs;
}

/**
 * A task input from its key and the serialised `[url, depth, meta?]`; `STORE_CORRUPT` when the value is not that
 * (the driver's own layout, written by `taskPairs`).
 */
export function parseTaskInput(key: string, input: string): TaskInput {
  const value: unknown = JSON.parse(input);
  if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'number') {
    throw new StoreCorruptError(`The task ${key} in Redis is not [url, depth, meta?]: ${input.slice(0, 80)}`);
  }
  const task: TaskInput = { key, url: value[0], depth: value[1] };
  if (typeof value[2] === 'string') task.meta = value[2];
  return task;
}

function recordFields(job: JobRecord): (string | number)[] {
  const fields: (string | number)[] = [
    'id',
    job.id,
    'kind',
    job.kind,
    'status',
    job.status,
    'request',
    job.request,
    'createdAt',
    job.createdAt,
    'updatedAt',
    job.updatedAt,
    'creditsUsed',
    job.creditsUsed,
  ];
  if (job.completedAt !== undefined) fields.push('completedAt', job.completedAt);
  if (job.expiresAt !== undefined) fields.push('expiresAt', job.expiresAt);
  if (job.error !== undefined) fields.push('error', job.error);
  return fields;
}

/** A job record from its hash, or undefined for a missing one. */
export function parseJob(hash: Record<string, string>): JobRecord | undefined {
  if (hash.id === undefined) return undefined;
  const record: JobRecord = {
    id: hash.id,
    kind: hash.kind as JobKind,
    status: hash.status as JobStatus,
    request: hash.request ?? '',
    createdAt: Number(hash.createdAt),
    updatedAt: Number(hash.updatedAt),
    creditsUsed: Number(hash.creditsUsed ?? 0),
    storedBytes: Number(hash.storedBytes ?? 0),
  };
  if (hash.completedAt !== undefined) record.completedAt = Number(hash.completedAt);
  if (hash.expiresAt !== undefined) record.expiresAt = Number(hash.expiresAt);
  if (hash.error !== undefined) record.error = hash.error;
  if (hash.faultAt !== undefined) {
    const [code, message, since, at] = [hash.faultCode ?? '', hash.fault ?? '', hash.faultSince, hash.faultAt];
    record.storeFault = { code, message, since: Number(since), at: Number(at) };
  }
  return record;
}

/** Job ids a `JOB_STATUSES` call reads: each is an argument of the script. */
const STATUS_SLICE = 1_000;

/** Jobs: one hash each, a sorted set by `createdAt` for listing and one by `expiresAt` for expiry. */
export class RedisJobStore implements JobStore {
  readonly #life: Lifecycle;
  readonly #redis: ScriptRunner;

  constructor(life: Lifecycle, redis: ScriptRunner) {
    this.#life = life;
    this.#redis = redis;
  }

  create(job: JobRecord, tasks: TaskInput[]): Promise<void> {
    return this.#life.run(async () => {
      const fields = recordFields(job);
      try {
        await this.#redis.run(
          'JOB_CREATE',
          job.id,
          job.createdAt,
          job.expiresAt ?? '',
          fields.length,
          ...fields,
          ...taskPairs(tasks),
        );
      } catch (error) {
        if (isReply(error, 'EXISTS')) throw new JobExistsError(job.id);
        throw error;
      }
    });
  }

  get(id: string): Promise<JobRecord | undefined> {
    return this.#life.run(async () => parseJob(await this.#redis.client.hgetall(this.#redis.key('job', id))));
  }

  statuses(ids: readonly string[]): Promise<Map<string, JobStatusRead>> {
    return this.#life.run(async () => {
      const out = new Map<string, JobStatusRead>();
      // Redis runs nothing else while a script runs: a large set goes in slices.
      for (let from = 0; from < ids.length; from += STATUS_SLICE) {
        const slice = ids.slice(from, from + STATUS_SLICE);
        const reads = (await this.#redis.run('JOB_STATUSES', ...slice)) as (string | null)[];
        slice.forEach((id, i) => {
          if (!reads[i]) return;
          const [status, expiresAt, resultSeq] = reads[i].split(' ');
          out.set(id, statusRead(status as JobStatus, expiresAt ? Number(expiresAt) : undefined, Number(resultSeq)));
        });
      }
      return out;
    });
  }

  update(id: string, patch: JobPatch): Promise<void> {
    return this.#life.run(async () => {
      const now = Date.now();
      // A cleared optional field goes as '': the script deletes it.
      const pairs = jobPatchEntries(patch, now).flatMap(([field, value]) => [field, value ?? '']);
      if (patch.status === undefined || patch.status === 'scraping') {
        await this.#redis.run('JOB_UPDATE', id, now, ...pairs);
        return;
      }
      // A job's end is written even at maxmemory, so that a job ended on a full Redis reads ended. A Redis before 7
      // does not compile the script's flags: the plain update runs (and says what failed, if it did).
      await this.#redis.run('JOB_END', id, now, ...pairs).catch(() => this.#redis.run('JOB_UPDATE', id, now, ...pairs));
    });
  }

  replaceRequest(id: string, expected: string, request: string): Promise<boolean> {
    return this.#life.run(
      async () => Number(await this.#redis.run('JOB_REPLACE_REQUEST', id, Date.now(), sha1(expected), request)) === 1,
    );
  }

  noteStoreFault(id: string, fault: { code: string; message: string; at: number }): Promise<number | undefined> {
    return this.#life.run(async () => {
      const since = await this.#redis.run('JOB_NOTE_FAULT', id, fault.at, fault.code, fault.message);
      return since === null ? undefined : Number(since);
    });
  }

  list(filter?: { status?: JobStatus[]; kind?: JobKind }): Promise<JobRecord[]> {
    return this.#life.run(async () => {
      const ids = await this.#redis.client.zrange(this.#redis.key('jobs'), '0', '-1');
      const pipeline = this.#redis.client.pipeline();
      for (const id of ids) pipeline.hgetall(this.#redis.key('job', id));
      const replies = (await pipeline.exec()) ?? [];
      const records: JobRecord[] = [];
      for (const [error, hash] of replies) {
        if (error) throw error;
        const record = parseJob(hash as Record<string, string>);
        if (!record) continue;
        if (filter?.status && !filter.status.includes(record.status)) continue;
        if (filter?.kind && record.kind !== filter.kind) continue;
        records.push(record);
      }
      return records.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    });
  }

  delete(id: string): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.run('JOB_DELETE', id);
    });
  }

  deleteExpired(now = Date.now()): Promise<string[]> {
    return this.#life.run(async () => (await this.#redis.run('JOB_DELETE_EXPIRED', now)) as string[]);
  }

  acquireLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    return this.#life.run(async () => Number(await this.#redis.run('JOB_ACQUIRE_LEASE', id, owner, ttlMs, now)) === 1);
  }

  leaseHolder(id: string): Promise<{ owner: string; until: number } | undefined> {
    return this.#life.run(async () => {
      const [owner, until] = await this.#redis.client.hmget(this.#redis.key('job', id), 'leaseOwner', 'leaseUntil');
      return owner != null && until != null ? { owner, until: Number(until) } : undefined;
    });
  }

  releaseLease(id: string, owner: string): Promise<void> {
    return this.#life.run(async () => {
      await this.#redis.run('JOB_RELEASE_LEASE', id, owner);
    });
  }
}

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

/** Maps the scripts' `NOJOB` reply to the store's error. */
export function rethrowNoJob(error: unknown, jobId: string): never {
  if (isReply(error, 'NOJOB')) throw new JobNotFoundError(jobId);
  throw error;
}
