/**
 * The storage contract of crawlkit. A backend (memory, SQLite, later Redis) implements `Store`; everything above it
 * (cache policy, job scheduling, webhooks, change tracking) lives in `crawlkit` and talks only to this interface.
 *
 * Backends are byte transports: every payload (`value`, `request`, `document`, `payload`) is an opaque string that
 * the caller serialised (JSON), and a page's `body` opaque bytes. Backends never parse them. Times are epoch milliseconds.
 *
 * Every method may be called concurrently from many async tasks of one process, and (for the SQLite and Redis
 * backends) from several processes sharing the same store. Methods that say "atomic" must stay correct under that.
 *
 * Failures reject with a `StoreError` (see `errors.ts`) carrying a stable `code`. Every method of a closed store
 * rejects with `StoreClosedError` (`STORE_CLOSED`).
 */

import type { SecretBox } from './secrets.js';

/* ------------------------------------------------------------------ pages -- */

/** One cached scrape result. */
export interface CachedPage {
  /** Cache key: the normalised URL plus everything that changes the content (computed by the caller). */
  key: string;
  /** The normalised URL the key was derived from; used by `deleteByUrl` and diagnostics. */
  url: string;
  /** When the page was fetched. */
  cachedAt: number;
  /** Serialised payload. */
  value: string;
  /**
   * Bytes kept beside `value` as they are (a page's undecoded body): no backend decodes or re-encodes them, so a
   * page of many megabytes is stored without being turned into a string on the caller's thread. The array is
   * handed over: neither the caller nor the store changes it afterwards (a backend may keep and return it as is).
   */
  body?: Uint8Array;
}

export interface PageLookup {
  /** Only entries with `now - cachedAt <= maxAge` qualify. Absent: any age. */
  maxAge?: number;
  /** Only entries with `now - cachedAt >= minAge` qualify. Absent: any age. */
  minAge?: number;
  /** Clock override for tests. Default `Date.now()`. */
  now?: number;
}

export interface PageStore {
  /**
   * The entry for `key` when it satisfies `lookup`, or `undefined`. A key holds one entry (the last `put`), so this
   * is also the newest one, including writes by other processes sharing the store.
   */
  get(key: string, lookup?: PageLookup): Promise<CachedPage | undefined>;
  /**
   * Writes (replaces) the entry for `page.key`. When the store has a size cap, a write that takes the total over it
   * evicts the oldest entries (by `cachedAt`).
   */
  put(page: CachedPage): Promise<void>;
  /** Deletes every entry whose `url` is `url`. Returns how many were deleted. */
  deleteByUrl(url: string): Promise<number>;
  /** Deletes everything. */
  clear(): Promise<void>;
  /**
   * Deletes entries older than `olderThan` (ms of age), then the oldest entries until the total stored size
   * (each entry's `value` in UTF-8 plus its `body`) is at most `maxBytes`. Returns how many were deleted.
   */
  prune(options: { olderThan?: number; maxBytes?: number; now?: number }): Promise<number>;
  /** Number of entries and their total size (values in UTF-8 plus bodies), in bytes. */
  stats(): Promise<{ entries: number; bytes: number }>;
}

/* ------------------------------------------------------------------- jobs -- */

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
   * Shallow update of the given fields, and `updatedAt` (to `patch.updatedAt` or now). A key present with the value
   * `undefined` clears an optional field (`completedAt`, `expiresAt`, `error`). No-op for an unknown id.
   */
  update(id: string, patch: Partial<Omit<JobRecord, 'id' | 'kind' | 'storedBytes'>>): Promise<void>;
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

/* --------------------------------------------------------------- frontier -- */

export interface TaskInput {
  /** De-duplication key (the normalised URL); unique within a job. */
  key: string;
  /** The URL to fetch, as discovered. */
  url: string;
  /** Discovery depth (seed and sitemap URLs 0). */
  depth: number;
  /** Opaque per-task data for the caller (serialised), e.g. the original `sourceURL`. */
  meta?: string;
}

export type TaskState = 'queued' | 'active' | 'done' | 'failed';

export interface Task extends TaskInput {
  /** Insertion order within the job (1, 2, ...). Claims go in this order. */
  seq: number;
  state: TaskState;
  /** How many times the task was claimed. */
  attempts: number;
  /** Not claimable before this time (politeness, Retry-After). */
  notBefore: number;
}

export interface TaskOutcome {
  key: string;
  /** Credits to add to the job. */
  credits: number;
  /** Serialised document of a successful scrape: appended to the job's results. */
  document?: string;
  /** A failed scrape: recorded in the job's errors. A task may carry both (a document that also reports an error). */
  error?: { url: string; code?: string; error: string };
}

/** What `TaskStore.complete` did. */
export interface TaskCompletion {
  /** The task was already done or failed: nothing changed. */
  duplicate: boolean;
  /** The document's `seq` in the job's results. */
  resultSeq?: number;
  /** The job's `storedBytes` after this completion (absent for a duplicate). */
  storedBytes?: number;
}

/** The UTF-8 size of a stored document: the one measure of `JobRecord.storedBytes`. */
export function documentBytes(document: string | undefined): number {
  return document === undefined ? 0 : Buffer.byteLength(document, 'utf8');
}

export interface TaskStore {
  /**
   * Adds the tasks whose key is new to the job, in order, stopping when the job holds `limit` tasks (counting all
   * states, dropped ones included). Atomic: concurrent calls never exceed `limit` nor add a key twice. Keys repeated
   * within `tasks` are added once. Returns the tasks added. Rejects with `JobNotFoundError` for an unknown job.
   */
  add(jobId: string, tasks: TaskInput[], options?: { limit?: number; notBefore?: number }): Promise<TaskInput[]>;
  /** Whether the key was ever added to the job (dropped tasks included). */
  has(jobId: string, key: string): Promise<boolean>;
  /**
   * Moves up to `count` queued tasks whose `notBefore <= now` to `active`, lowest `seq` first, and returns them
   * (atomic: a task is handed to one caller only).
   */
  claim(jobId: string, count: number, now?: number): Promise<Task[]>;
  /**
   * Finishes a task: marks it `done` (or `failed` when it has an error and no document), appends its document to the
   * results (`resultSeq` is its `seq` there) and its error to the errors, adds its credits to the job's
   * `creditsUsed` and its document's UTF-8 bytes to the job's `storedBytes` (`storedBytes` in the answer is the job's
   * total after it), and bumps the job's `updatedAt`, all in one transaction.
   * The task is normally `active`; a `queued` or dropped one is accepted too (its owner lost the lease or the job was
   * cancelled while it ran, yet the work is done and is kept), and is then never claimed again.
   * Idempotent: completing a task that is already done or failed changes nothing and returns `{ duplicate: true }`.
   * Rejects with `JobNotFoundError` / `TaskNotFoundError` for an unknown job or key.
   */
  complete(jobId: string, outcome: TaskOutcome): Promise<TaskCompletion>;
  /**
   * Puts an active task back in the queue, claimable from `notBefore` (default: at once). Its `attempts` is kept.
   * No-op unless the task is active.
   */
  release(jobId: string, key: string, notBefore?: number): Promise<void>;
  /** Puts every active task of the job back in the queue (after a crash). Returns how many. */
  requeueActive(jobId: string): Promise<number>;
  /**
   * Drops every queued task (cancel). Returns how many. Dropped tasks are never claimed and are not in `counts`, but
   * stay known to `has` and to `add`'s de-duplication and limit.
   */
  dropQueued(jobId: string): Promise<number>;
  /** Tasks per state (dropped ones excluded). All zero for an unknown job. */
  counts(jobId: string): Promise<JobCounts>;
}

/* ---------------------------------------------------------------- results -- */

export interface StoredResult {
  /** Completion order within the job (1, 2, ...). */
  seq: number;
  key: string;
  document: string;
}

export interface JobError {
  /** Unique id of the error entry. */
  id: string;
  url: string;
  code?: string;
  error: string;
  timestamp: number;
}

/** How much of a job's results one read may return. */
export interface ResultReadOptions {
  /**
   * Stop once the documents read pass this many characters of JSON (the first one is always returned): a page of a
   * large job's results is read without reading, or holding, the rest.
   * @default unbounded
   */
  maxChars?: number;
}

export interface ResultStore {
  /** Results in completion order: `skip` first ones skipped, at most `limit` returned (and `maxChars`). */
  list(jobId: string, skip: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]>;
  /** Results with `seq > afterSeq`, in order (for streaming), at most `limit` (and `maxChars`). */
  since(jobId: string, afterSeq: number, limit: number, options?: ResultReadOptions): Promise<StoredResult[]>;
  /** How many results the job has (0 for an unknown job). */
  count(jobId: string): Promise<number>;
  /** The job's errors, oldest first. */
  errors(jobId: string): Promise<JobError[]>;
  /**
   * Records an error that is not a task's (e.g. an undelivered webhook event), stamped now with a fresh id. Rejects
   * with `JobNotFoundError` for an unknown job (so no row outlives its job).
   */
  addError(jobId: string, error: { url: string; code?: string; error: string }): Promise<void>;
  /** Records a URL that robots.txt kept from being crawled, once per job. `JobNotFoundError` for an unknown job. */
  addRobotsBlocked(jobId: string, url: string): Promise<void>;
  /** The recorded robots-blocked URLs, in the order first recorded. */
  robotsBlocked(jobId: string): Promise<string[]>;
}

/* --------------------------------------------------------------- webhooks -- */

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** Unique id; also the `webhookId` of the payload. */
  id: string;
  jobId: string;
  /** Order of the event within its job; deliveries of one job are sent in this order. */
  seq: number;
  /** Serialised delivery: target, headers, body. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
}

export interface DeliveryStore {
  /**
   * Appends an event for the job; `seq` is assigned by the store (next in the job), `state` is `pending` and
   * `attempts` 0. Rejects with `JobNotFoundError` for an unknown job and `DeliveryExistsError` for a known id.
   */
  enqueue(delivery: Omit<Delivery, 'seq' | 'state' | 'attempts'>): Promise<Delivery>;
  /** For each job, its lowest-`seq` pending delivery when due (`nextAttemptAt <= now`); at most `limit`. */
  due(now: number, limit: number): Promise<Delivery[]>;
  /** Shallow update of the given fields (an `undefined` `lastError` clears it). No-op for an unknown id. */
  update(
    id: string,
    patch: Partial<Pick<Delivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastError'>>,
  ): Promise<void>;
  /** Pending deliveries of a job (or of all jobs), by job then `seq`. */
  pending(jobId?: string): Promise<Delivery[]>;
}

/* ---------------------------------------------------------------- engines -- */

/**
 * What a job saw of one host's pages: how many held their content in the HTML and how many needed the browser
 * (the adaptive engine choice of a crawl or batch).
 */
export interface HostEngineStats {
  /** Pages of the host whose HTML held their content. */
  http: number;
  /** Pages of the host that needed the browser. */
  browser: number;
}

/** Bounds of `EngineStore.record`. */
export interface EngineStoreLimits {
  /**
   * When the two counts together would go over this, both are halved (rounded down) first: old pages fade and the
   * counts stay small.
   * @default 20
   */
  maxCount?: number;
  /**
   * Hosts a job keeps counts for; a page of a further host is not recorded.
   * @default 10000
   */
  maxHosts?: number;
}

export interface EngineStore {
  /** What the job learned about `host` (as the caller names it, e.g. `example.com:8080`), or `undefined`. */
  get(jobId: string, host: string): Promise<HostEngineStats | undefined>;
  /**
   * Counts one page of `host` that held its content in the HTML (`http`) or needed the browser (`browser`), atomic
   * across processes, and returns the new counts; `undefined` when the job already keeps `maxHosts` other hosts.
   * The counts are the job's: deleted with it. Rejects with `JobNotFoundError` for an unknown job.
   */
  record(
    jobId: string,
    host: string,
    page: 'http' | 'browser',
    limits?: EngineStoreLimits,
  ): Promise<HostEngineStats | undefined>;
}

/* --------------------------------------------------------------- counters -- */

/** Bounds of `CounterStore.add`: an add that would take the value out of them changes nothing. */
export interface CounterBounds {
  max?: number;
  min?: number;
}

/**
 * Named numbers kept by the store, shared by every process using it and kept across restarts: what an engine counts
 * for longer than one process (the credits of an HTTP server's `creditLimit`).
 */
export interface CounterStore {
  /** The counter's value; 0 for one never added to. */
  get(name: string): Promise<number>;
  /**
   * Adds `delta` (negative to subtract) to the counter, atomically across processes, unless the result would pass
   * `bounds`: then nothing changes and the answer is `undefined`. Resolves to the new value.
   */
  add(name: string, delta: number, bounds?: CounterBounds): Promise<number | undefined>;
}

/* ---------------------------------------------------------------- history -- */

/** One scrape of a page, kept for change tracking. */
export interface HistoryEntry {
  /** Normalised URL. */
  url: string;
  /** Isolates histories; `''` for the default history. */
  tag: string;
  scrapedAt: number;
  /** Serialised snapshot (markdown, status code, ...). */
  value: string;
}

export interface HistoryStore {
  /** The most recent entry for (url, tag): highest `scrapedAt`, the last appended on a tie. */
  latest(url: string, tag: string): Promise<HistoryEntry | undefined>;
  /**
   * Appends a snapshot. A store keeps a bounded number of entries per (url, tag) (its `maxHistoryPerUrl` option) and
   * drops the oldest beyond it.
   */
  append(entry: HistoryEntry): Promise<void>;
}

/* ------------------------------------------------------------------ store -- */

export interface Store {
  /** `memory`, `sqlite`, ... */
  readonly kind: string;
  /** True when nothing outlives the process. */
  readonly ephemeral: boolean;
  readonly pages: PageStore;
  readonly jobs: JobStore;
  readonly tasks: TaskStore;
  readonly results: ResultStore;
  readonly deliveries: DeliveryStore;
  readonly history: HistoryStore;
  /**
   * Encrypts values the store must keep but nobody reading its files may see (a job's header values, which its
   * resume needs), with a key kept beside the data: a key file for SQLite, a key every process shares for Redis, a
   * key in memory for the memory store. A store without one cannot hold such values (the caller refuses them).
   */
  readonly secrets?: SecretBox;
  readonly engines: EngineStore;
  /** Named counters (the built-in stores have them); without them, what needs one keeps it in memory. */
  readonly counters?: CounterStore;
  /** Flushes and releases resources. Idempotent. Further calls of any other method reject with `StoreClosedError`. */
  close(): Promise<void>;
}
