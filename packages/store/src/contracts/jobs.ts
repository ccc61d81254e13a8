/** Crawl and batch jobs: their records and the leases that let one process drive each. */
import type { TaskInput } from './tasks.js';

export type JobKind = 'crawl' | 'batch';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

export interface JobRecord {
  /** UUID (v7). */
  id: string;
  kind: JobKind;
  status: JobStatus;
  /** Serialised, validated request body. */
  request: string;
  createdAt: number;
  updatedAt: number;
  completedAt?: number;
  /** When the job and its results are deleted (24 h after completion by default). */
  expiresAt?: number;
  /** Credits summed over finished tasks (kept by `TaskStore.complete`). */
  creditsUsed: number;
  /**
   * UTF-8 bytes of the documents stored in the job's results (kept by `TaskStore.complete`; a new job starts at 0,
   * whatever `create` is given). What a job's store budget is measured in. Absent on records of older stores.
   */
  storedBytes?: number;
  /** Why the job failed, when `status` is `failed`. */
  error?: string;
  /**
   * The passing store fault its workers last met (`JobStore.noteStoreFault`), kept until the job ends. It stalls the
   * job while `at >= updatedAt`: no page was stored since.
   */
  storeFault?: JobStoreFault;
}

/** What `JobStore.update` may change: `id`, `kind`, `storedBytes` and `storeFault` have their own writers. */
export type JobPatch = Partial<Omit<JobRecord, 'id' | 'kind' | 'storedBytes' | 'storeFault'>>;

/** A passing store fault met by a job's work (Redis at `maxmemory` under `noeviction`, busy, loading...). */
export interface JobStoreFault {
  /** The error's stable code (`STORE_IO`, `REDIS_UNAVAILABLE`, ...). */
  code: string;
  /** What the store answered, and what to do about it. */
  message: string;
  /** When the job's work first met a fault since it last stored a page, in epoch milliseconds. */
  since: number;
  /** When it last met one, in epoch milliseconds. */
  at: number;
}

/** What a job's waiters read of it each second: whether it still runs, when its results go, and how far they go. */
export interface JobStatusRead {
  status: JobStatus;
  /** As `JobRecord.expiresAt`. */
  expiresAt?: number;
  /**
   * The seq of the job's latest stored result, 0 before the first: `results.since(id, resultSeq)` is empty. What a
   * waiter for the job's next page compares with the last seq it read.
   */
  resultSeq: number;
}

export interface JobCounts {
  queued: number;
  active: number;
  done: number;
  failed: number;
}

export interface JobStore {
  /**
   * Creates the job and its first tasks (de-duplicated by key, no limit) in one transaction. Rejects with
   * `JobExistsError` (`STORE_JOB_EXISTS`) if the id exists. The record's `creditsUsed` is taken as given.
   */
  create(job: JobRecord, tasks: TaskInput[]): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /**
   * The status, `expiresAt` and latest result seq of each of `ids` that exists, in one read and without the rest of
   * the records (a batch's `request` can be megabytes): what a process following many jobs (to their end, or page by
   * page) reads each second. Optional: without it, each record is read with `get`, and each follower reads its
   * job's results each second.
   */
  statuses?(ids: readonly string[]): Promise<Map<string, JobStatusRead>>;
  /**
   * Shallow update of the given fields, and `updatedAt` (to `patch.updatedAt` or now). A key present with the value
   * `undefined` clears an optional field (`completedAt`, `expiresAt`, `error`). No-op for an unknown id.
   */
  update(id: string, patch: JobPatch): Promise<void>;
  /**
   * Writes the job's `request` (and `updatedAt`, to now) only while it is still `expected`, in one atomic step (a
   * compare-and-set): two processes that each change the request from what they read never undo each other's change,
   * the later one is refused and reads again. Resolves to whether it wrote; false for an unknown id.
   */
  replaceRequest(id: string, expected: string, request: string): Promise<boolean>;
  /**
   * Notes a passing store fault met by the job's work at `at` (its `storeFault`), and resolves to the fault's `since`:
   * kept while no page was stored since the last note, else `at`. Written even where the store refuses other
   * writes (Redis at `maxmemory`), so that a status read says why the job does not move. Undefined for a job that is
   * not `scraping`. Optional: without it, faults are only seen by the work that meets them.
   */
  noteStoreFault?(id: string, fault: { code: string; message: string; at: number }): Promise<number | undefined>;
  /** Jobs, newest first, optionally filtered. */
  list(filter?: { status?: JobStatus[]; kind?: JobKind }): Promise<JobRecord[]>;
  /**
   * Deletes the job with its tasks, results, errors, robots-blocked URLs, deliveries and engine counts. No-op for an
   * unknown id.
   */
  delete(id: string): Promise<void>;
  /** Deletes every job whose `expiresAt` is past. Returns the ids deleted. */
  deleteExpired(now?: number): Promise<string[]>;
  /**
   * Takes or renews the right to run the job (atomic). Returns true when `owner` holds the lease afterwards: it was
   * free, expired (`leaseUntil <= now`), or already `owner`'s; renewing extends it to `now + ttlMs`. Used so two
   * processes never drive the same job. False for an unknown job.
   */
  acquireLease(id: string, owner: string, ttlMs: number, now?: number): Promise<boolean>;
  /** Frees the lease if `owner` holds it; otherwise does nothing. */
  releaseLease(id: string, owner: string): Promise<void>;
  /**
   * Who holds the job's lease and until when, or `undefined` when it is free (never taken, released, or an unknown
   * job). An expired lease is still reported (`until <= now`). Optional: with it, a process that finds the lease
   * held by a crashed process of the same host can free it (`releaseLease(id, holder.owner)`, a compare-and-swap)
   * and resume the job at once instead of waiting for the lease to expire.
   */
  leaseHolder?(id: string): Promise<{ owner: string; until: number } | undefined>;
}
