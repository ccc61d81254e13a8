import type { Store, TaskInput, TaskState } from './types.js';

/**
 * A distributed backend for `new Crawlkit({ backend })`, such as `redis({ url })` from `@crawlkit/redis`: a store
 * every process shares, a work queue of scrape tasks and a few coordination primitives. Any process can submit jobs
 * and read their status; processes that call `ck.startWorker()` take scrape tasks from the queue.
 *
 * A backend proves its store with `describeStoreConformance` (`@crawlkit/store/conformance`); its queue and
 * coordination are exercised end to end by crawlkit's job tests (`test/distributed.test.ts`,
 * `test/task-execution.test.ts`).
 */
export interface CrawlkitBackend {
  /** `redis`, ... */
  readonly kind: string;
  /** Opens the connections. Called once per engine, on first use. */
  connect(): Promise<BackendConnection>;
}

export interface BackendConnection {
  /** The shared store (jobs, tasks, results, webhook outbox, page cache, history). */
  readonly store: Store;
  /** The shared queue of scrape tasks. */
  readonly queue: WorkQueue;
  readonly coordination: Coordination;
  /** Closes every connection (the store too). */
  close(): Promise<void>;
}

/** One scrape task on the queue: enough to run it without reading the store first. */
export interface WorkItem extends TaskInput {
  jobId: string;
  /** 0 for the first run; counts every re-queue (retries, politeness waits). */
  attempt: number;
  /** Retries so far (429/503, dropped connections). @default 0 */
  retries?: number;
  /** When the first attempt of a retried item started, in epoch milliseconds (its failure says how long it took). */
  retriedSince?: number;
  /** The page's time its attempts so far took, back-off included: its `timeout` bounds them all. @default 0 */
  retriedSpentMs?: number;
  /** When the store first failed this task, in epoch milliseconds, while it keeps failing (a worker's re-queues). */
  storeFaultSince?: number;
  /**
   * The item's place among its job's items (1, 2, ...), given by the queue when it is first queued and kept by its
   * re-queues: a queue serves lower places first whatever their job, so that running jobs share the workers instead
   * of a new job waiting behind an older one's whole frontier.
   */
  order?: number;
}

export interface WorkQueueCounts {
  waiting: number;
  active: number;
  delayed: number;
}

/** Delivery details of a work item. */
export interface WorkAttempt {
  /** True on the queue's last attempt: a rejection now gives the item up for good. */
  final: boolean;
}

/** Runs one item; a rejection counts as a failed attempt and the queue retries it with back-off. */
export type WorkHandler = (item: WorkItem, attempt: WorkAttempt) => Promise<void>;

export interface WorkConsumer {
  /** Stops taking items and waits for the running ones. */
  close(): Promise<void>;
}

export interface WorkQueue {
  /**
   * Queues items, runnable after `delayMs`. Idempotent per (job, key, attempt) while an item is queued: queuing it
   * again adds nothing.
   */
  enqueue(items: readonly WorkItem[], options?: { delayMs?: number }): Promise<void>;
  /**
   * Takes items with at most `concurrency` running at once. An item whose consumer dies (crash, `kill -9`) is handed
   * to another consumer once its lock expires. `settings`: what this consumer runs with, as others may compare it
   * (`consumerSettings()`).
   */
  consume(handler: WorkHandler, options: { concurrency: number; settings?: string }): Promise<WorkConsumer>;
  /** Items waiting, running and delayed, across every consumer. */
  counts(): Promise<WorkQueueCounts>;
  /**
   * Consumers taking items now, across every process: each counts from `consume()` until its `close()`, or until
   * about `lockMs` after its process died. Undefined when the queue cannot tell (a status then warns of nothing).
   */
  consumers?(): Promise<number>;
  /** The `settings` (as given to `consume()`) of every consumer alive now, across every process. */
  consumerSettings?(): Promise<string[]>;
  /**
   * How long a running item stays its consumer's once the consumer stops renewing it (dies), in milliseconds: what a
   * worker holds for an item in the backend (a job's running slot) is leased as long and renewed as often.
   * @default 30000
   */
  readonly lockMs?: number;
}

export interface Coordination {
  /**
   * Per-host spacing shared by every worker: when the host is free in `scope` (`delayMs` has passed since the last
   * slot taken, and no rest from `pauseHost` is running), takes its next slot and resolves to 0; else resolves to the
   * milliseconds left to wait. `delayMs` may be 0 (no spacing, rests only). Uses the backend's clock.
   */
  takeHostSlot(scope: string, host: string, delayMs: number): Promise<number>;
  /** The host rests in `scope`: no slot of it is taken for `waitMs` (a longer rest already running is kept). */
  pauseHost(scope: string, host: string, waitMs: number): Promise<void>;
  /**
   * Takes one of a job's `limit` running slots for `holder`, shared by every worker, until released or for `leaseMs`
   * (a dead holder's slot frees itself). True when `holder` holds a slot afterwards. Uses the backend's clock.
   */
  takeJobSlot(jobId: string, holder: string, limit: number, leaseMs: number): Promise<boolean>;
  /** Frees `holder`'s running slot of the job, if it holds one. */
  releaseJobSlot(jobId: string, holder: string): Promise<void>;
  /** Takes or renews the named lock for `ttlMs`; true when `owner` holds it afterwards. */
  tryLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Frees the named lock if `owner` holds it. */
  releaseLock(name: string, owner: string): Promise<void>;
  /** A task's state in the store (`dropped` once cancelled), or undefined for an unknown one. */
  taskState(jobId: string, key: string): Promise<TaskState | 'dropped' | undefined>;
  /** Up to `limit` queued tasks of a job from `offset`, in seq order (for re-queuing after a lost enqueue). */
  queuedTasks(jobId: string, offset: number, limit: number): Promise<TaskInput[]>;
}
