import { randomUUID } from 'node:crypto';

import type {
  BackendConnection,
  JobRecord,
  Task,
  TaskInput,
  WorkAttempt,
  WorkConsumer,
  WorkItem,
} from '@crawlkit/store';
import type PQueue from 'p-queue';

import type { EngineContext } from '../context.js';
import type { JobEventSink } from '../jobs/events.js';
import type { StoredJob } from '../jobs/job-manager.js';
import { sharedHostSlots } from '../jobs/host-slots.js';
import { limitOf, type JobPlanner } from '../jobs/planner.js';
import { executeTask, type JobTasks } from '../jobs/task-execution.js';
import type { BatchScrapeRequest, CrawlRequest } from '../v2/jobs.js';

/** A job's record is read again after this long (a cancel reaches workers within it). */
const JOB_REFRESH_MS = 1_000;
/** A politeness wait longer than this puts the task back on the queue, delayed, instead of holding a slot. */
const MAX_INLINE_WAIT_MS = 5_000;
const FINISH_LOCK_MS = 60_000;
/** How long a task waits in place for one of its job's running slots before going back on the queue. */
const JOB_SLOT_WAIT_MS = 2_000;
const JOB_SLOT_POLL_MS = 50;
/** A running slot outlives the scrape's own timeout by this much before a dead holder's slot frees itself. */
const JOB_SLOT_LEASE_EXTRA_MS = 30_000;
/**
 * The first worker to load a job discovers its seeds (sitemaps) and keeps the claim this long; others only load
 * robots.txt. Discovery is best effort: should that worker die midway, the crawl goes on by its links.
 */
const DISCOVERY_CLAIM_MS = 24 * 60 * 60_000;
const SWEEP_PAGE = 1_000;
const EXPIRY_SWEEP_MS = 60_000;

/** Options of `ck.startWorker()`. */
export interface WorkerOptions {
  /**
   * Scrape tasks this worker runs at once (they also count against the engine's `concurrency`).
   * @default the engine's `concurrency`
   */
  concurrency?: number;
  /**
   * How often the worker checks, while the queue is empty, for unfinished jobs whose tasks are off the queue (their
   * submitter died before queuing them) or that nobody marked finished (their last worker died), in milliseconds.
   * @default 5000
   */
  sweepIntervalMs?: number;
}

/** What the worker needs of the engine. */
export interface TaskWorkerDeps {
  ctx: EngineContext;
  connection: BackendConnection;
  /** The engine's scrape slots. */
  slots: PQueue;
  planner(job: JobRecord): JobPlanner;
  events: JobEventSink;
  /** Marks a job completed, queues its `completed` webhook event and tells listeners. */
  completeJob(job: JobRecord): Promise<void>;
  internalError(jobId: string, error: unknown): void;
}

interface JobState {
  job: JobRecord;
  readAt: number;
  planner: JobPlanner;
  /** The crawl's robots (and its host spacing) and sitemap seeds, once per job in this worker. */
  prepared: Promise<void>;
  /** The job's `maxConcurrency`, held across every worker; undefined when the request sets none. */
  maxConcurrency: number | undefined;
  refreshing?: Promise<JobState | undefined> | undefined;
}

/** A running worker: takes scrape tasks from the shared queue until closed. */
export interface CrawlkitWorker {
  /** Unique id of this worker (its lock owner name). */
  readonly id: string;
  /** Stops taking tasks, lets the running ones finish and stores them. Idempotent. */
  close(): Promise<void>;
}

/**
 * Runs the scrape tasks of every job from the shared work queue, one item at a time: the job's planner (rules,
 * discovery, limit) as in-process, per-host spacing through the backend so `delay` and `Crawl-delay` hold across
 * workers, results stored exactly once (the store's completion is idempotent), and the job marked finished by the
 * worker that settles its last task.
 */
export class TaskWorker implements CrawlkitWorker {
  readonly id = randomUUID();
  readonly #deps: TaskWorkerDeps;
  readonly #jobs = new Map<string, Promise<JobState | undefined>>();
  readonly #sweepIntervalMs: number;
  readonly #concurrency: number;
  #consumer: WorkConsumer | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  #sweeping = false;
  #expiredCheckedAt = 0;
  readonly #finishChecks = new Map<string, { again: boolean; done: Promise<void> }>();
  #closed: Promise<void> | undefined;

  constructor(deps: TaskWorkerDeps, options: WorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? deps.ctx.options.concurrency;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 5_000;
  }

  async start(): Promise<void> {
    this.#consumer = await this.#deps.connection.queue.consume((item, attempt) => this.#handleAttempt(item, attempt), {
      concurrency: this.#concurrency,
    });
    this.#sweeper = setInterval(() => void this.#sweep(), this.#sweepIntervalMs);
    this.#sweeper.unref();
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      clearInterval(this.#sweeper);
      await this.#consumer?.close();
    })();
    return this.#closed;
  }

  /**
   * Runs an item; on the queue's last attempt a failure (the store or queue kept failing) settles the task as failed,
   * so that its job can still finish.
   */
  async #handleAttempt(item: WorkItem, attempt: WorkAttempt): Promise<void> {
    try {
      await this.handle(item);
    } catch (error) {
      this.#deps.internalError(item.jobId, error);
      if (!attempt.final) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const { store } = this.#deps.connection;
      await store.tasks.complete(item.jobId, {
        key: item.key,
        credits: 0,
        error: { url: item.url, code: 'WORKER_FAILED', error: `The task failed on every attempt: ${message}` },
      });
      await this.#checkFinished(item.jobId);
    }
  }

  /** Runs one work item. Rejections are store or queue failures: the queue retries the item. */
  async handle(item: WorkItem): Promise<void> {
    const { coordination } = this.#deps.connection;
    const state = await this.#state(item.jobId);
    if (!state || state.job.status !== 'scraping') return;
    const taskState = await coordination.taskState(item.jobId, item.key);
    // Done, failed (a duplicate delivery), dropped (cancelled) or gone (job deleted).
    if (taskState !== 'queued' && taskState !== 'active') return;
    await state.prepared;

    const task: Task = {
      key: item.key,
      url: item.url,
      depth: item.depth,
      ...(item.meta !== undefined ? { meta: item.meta } : {}),
      seq: 0,
      state: 'active',
      attempts: item.attempt + 1,
      notBefore: 0,
    };
    const result = await executeTask(this.#jobTasks(state, item), task, item.retries ?? 0);
    if (result === 'settled') await this.#checkFinished(item.jobId);
  }

  /** The task execution's view of the job for one delivery of `item`: the shared work queue and Redis slots. */
  #jobTasks(state: JobState, item: WorkItem): JobTasks {
    const { ctx, slots, events } = this.#deps;
    const { coordination, queue } = this.#deps.connection;
    const { job, planner, maxConcurrency } = state;
    // One holder name per delivery of the item: a redelivery after a crash is a new holder.
    const holder = `${this.id}:${item.key}:${item.attempt}`;
    const timeoutMs = planner.scrapeOptions.timeout ?? ctx.options.timeoutMs;
    return {
      ctx,
      job,
      // The engine's store in distributed mode is the queueing store: what it adds goes on the queue at once.
      store: ctx.store,
      planner,
      events,
      slots,
      maxInlineWaitMs: MAX_INLINE_WAIT_MS,
      hosts: sharedHostSlots(coordination, job.id, planner.politeness),
      queue: {
        requeue: (_task, delayMs, retries) =>
          queue.enqueue([{ ...item, attempt: item.attempt + 1, retries }], { delayMs }),
        release: () => Promise.reject(new Error('The scrape was aborted.')),
      },
      dropped: async () => (await coordination.taskState(job.id, item.key)) === 'dropped',
      ...(maxConcurrency !== undefined
        ? {
            jobSlots: {
              take: () => this.#takeJobSlot(job.id, maxConcurrency, holder, timeoutMs + JOB_SLOT_LEASE_EXTRA_MS),
              release: () => coordination.releaseJobSlot(job.id, holder),
            },
          }
        : {}),
    };
  }

  /**
   * Coalesces the end-of-job checks of tasks settling together: one check runs at a time per job, and one more after
   * it when tasks settled meanwhile (the last task to settle is always followed by a check).
   */
  #checkFinished(jobId: string): Promise<void> {
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
   * Takes one of the job's running slots shared by all workers (its `maxConcurrency`), waiting briefly in place: 0
   * once held, else how long to put the item back on the queue for, so that this worker can run other jobs' tasks.
   */
  async #takeJobSlot(jobId: string, limit: number, holder: string, leaseMs: number): Promise<number> {
    const { coordination } = this.#deps.connection;
    const giveUpAt = Date.now() + JOB_SLOT_WAIT_MS;
    while (!(await coordination.takeJobSlot(jobId, holder, limit, leaseMs))) {
      if (Date.now() >= giveUpAt) return JOB_SLOT_WAIT_MS / 4;
      await new Promise((resolve) => setTimeout(resolve, JOB_SLOT_POLL_MS));
    }
    return 0;
  }

  /** Marks the job completed when nothing of it is queued or running; one worker wins the race. */
  async #finishIfDone(jobId: string): Promise<void> {
    const { store, coordination } = this.#deps.connection;
    const counts = await store.tasks.counts(jobId);
    if (counts.queued > 0 || counts.active > 0) return;
    // A fresh owner per attempt: the lock is never renewed, so one attempt in the whole cluster goes ahead.
    if (!(await coordination.tryLock(`finish:${jobId}`, randomUUID(), FINISH_LOCK_MS))) return;
    const job = await store.jobs.get(jobId);
    if (job?.status !== 'scraping') return;
    await this.#deps.completeJob(job);
  }

  #state(jobId: string): Promise<JobState | undefined> {
    const cached = this.#jobs.get(jobId);
    if (cached) {
      return cached.then((state) => {
        if (!state || Date.now() - state.readAt < JOB_REFRESH_MS) return state;
        // One re-read at a time per job, shared by every task that finds the record stale.
        state.refreshing ??= this.#deps.connection.store.jobs.get(jobId).then(
          (job) => {
            state.refreshing = undefined;
            if (!job) {
              this.#jobs.delete(jobId);
              return undefined;
            }
            state.job = job;
            state.readAt = Date.now();
            return state;
          },
          (error: unknown) => {
            state.refreshing = undefined;
            throw error;
          },
        );
        return state.refreshing;
      });
    }
    const loading = this.#load(jobId);
    this.#jobs.set(jobId, loading);
    loading.then(
      (state) => state ?? this.#jobs.delete(jobId),
      () => this.#jobs.delete(jobId),
    );
    return loading;
  }

  async #load(jobId: string): Promise<JobState | undefined> {
    const { connection } = this.#deps;
    const job = await connection.store.jobs.get(jobId);
    if (!job) return undefined;
    const planner = this.#deps.planner(job);
    const { request } = JSON.parse(job.request) as StoredJob<Pick<CrawlRequest | BatchScrapeRequest, 'maxConcurrency'>>;
    const prepared = (async () => {
      const discover = await connection.coordination.tryLock(`discover:${job.id}`, this.id, DISCOVERY_CLAIM_MS);
      const seeds = await planner.prepare(new AbortController().signal, { discover });
      if (seeds.length) await this.#deps.ctx.store.tasks.add(job.id, seeds, limitOf(planner));
    })();
    // A failed preparation (robots, sitemaps unreachable) leaves the crawl to its links, as in-process.
    prepared.catch((error: unknown) => this.#deps.internalError(job.id, error));
    return {
      job,
      readAt: Date.now(),
      planner,
      prepared: prepared.catch(() => undefined),
      maxConcurrency: request.maxConcurrency,
    };
  }

  /**
   * Deletes expired jobs (once a minute), then, while the queue is empty: re-queues the queued tasks of unfinished jobs (their submitter or a worker died between
   * the store write and the enqueue) and finishes jobs with nothing left (their last worker died before it could).
   */
  async #sweep(): Promise<void> {
    if (this.#sweeping || this.#closed) return;
    this.#sweeping = true;
    try {
      const { store, queue, coordination } = this.#deps.connection;
      if (Date.now() - this.#expiredCheckedAt >= EXPIRY_SWEEP_MS) {
        // Jobs past their result TTL are deleted by whoever notices first (a cheap range query).
        this.#expiredCheckedAt = Date.now();
        await store.jobs.deleteExpired();
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
    } catch (error) {
      this.#deps.internalError('', error);
    } finally {
      this.#sweeping = false;
    }
  }
}
