import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { randomUUID } from 'node:crypto';

import { redactUrl } from '@crawlkit/fetcher';
import { StoreError } from '@crawlkit/store';
import type { BackendConnection, JobRecord, Task, WorkAttempt, WorkConsumer, WorkItem } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import type { JobEventSink } from '../jobs/events.js';
import { CompletionBatch } from '../jobs/completion-batch.js';
import { sharedHostSlots } from '../jobs/host-slots.js';
import type { JobPlanner } from '../jobs/planner.js';
import { executeTask, isStoreBudgetError, type JobTasks } from '../jobs/task-execution.js';
import { JobCompletion } from './job-completion.js';
import { WorkerJobs, type WorkerJob } from './worker-jobs.js';
import type { WorkerOptions } from './worker-options.js';
import type { ScrapeSlots } from '../scrape-slots.js';
import { isStoreFault, isStoreRefusal, retryStoreFaults } from '../store-faults.js';
import { StoreStalls } from './store-stalls.js';
import { settingsWarnings, workerSettings } from './worker-settings.js';
import { hasCrawlkitCode } from '../errors.js';
import { storedJobOf } from '../codec/records.js';
import type { TellWarning } from '../warning-codes.js';

/** A politeness wait longer than this puts the task back on the queue, delayed, instead of holding a slot. */
const MAX_INLINE_WAIT_MS = 5_000;
/** How long a task waits in place for one of its job's running slots before going back on the queue. */
const JOB_SLOT_WAIT_MS = 2_000;
const JOB_SLOT_POLL_MS = 50;
/** How long a task whose store kept failing on every attempt waits on the queue before it is tried again. */
const STORE_FAULT_REQUEUE_MS = 5_000;
/** A job's running slot is leased as long as a running task's lock (`taskLockMs`) when the queue does not say. */
const DEFAULT_LOCK_MS = 30_000;

export type { WorkerOptions } from './worker-options.js';

/** What the worker needs of the engine. */
export interface TaskWorkerDeps {
  ctx: EngineContext;
  connection: BackendConnection;
  /** The engine's scrape slots. */
  slots: ScrapeSlots;
  /** Builds the planner of a job, whose context is `ctx` (`EngineContext.forJob`). */
  planner(job: JobRecord, ctx: EngineContext): JobPlanner;
  events: JobEventSink;
  /** Marks a job completed, queues its `completed` webhook event and tells listeners. */
  completeJob(job: JobRecord): Promise<void>;
  /** Ends a job that cannot go on (its store budget is spent) failed. */
  failJob(job: JobRecord, error: unknown): Promise<void>;
  internalError(jobId: string, error: unknown): void;
  /** Something noticed that fails no task (another worker's settings differ). */
  warning?: TellWarning;
}

/** A running worker: takes scrape tasks from the shared queue until closed. */
export interface CrawlkitWorker {
  /** Unique id of this worker (its lock owner name). */
  readonly id: string;
  /** Stops taking tasks, lets the running ones finish and stores them. Idempotent. */
  close(): Promise<void>;
}

/**
 * Runs the scrape tasks of every job from the shared work queue, one item at a time, through the same task execution
 * as in-process (`jobs/task-execution.ts`): only the queue differs (a task goes back on the work queue, delayed) and
 * where slots are kept (per-host spacing and rests, and the job's `maxConcurrency`, in the backend, so they hold
 * across workers). Results are stored exactly once (the store's completion is idempotent); the worker that settles a
 * job's last task marks it finished (`JobCompletion`).
 */
export class TaskWorker implements CrawlkitWorker {
  readonly id = randomUUID();
  readonly #deps: TaskWorkerDeps;
  readonly #jobs: WorkerJobs;
  readonly #completion: JobCompletion;
  /** The tasks that settle in one turn, completed in one transaction per job (the engine's store). */
  readonly #completions: CompletionBatch;
  readonly #sweepIntervalMs: number;
  readonly #concurrency: number;
  #consumer: WorkConsumer | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  #sweeping = false;
  #closed: Promise<void> | undefined;
  /** Aborted by `close()`: stops the waits for a faulting store. */
  readonly #stopping = new AbortController();
  readonly #stalls: StoreStalls;
  /** Jobs this worker is ending for their store. */
  readonly #ending = new Set<string>();
  /** Jobs gone from the store while this worker ran their pages (told once each); forgotten by the sweep. */
  readonly #gone = new Set<string>();

  constructor(deps: TaskWorkerDeps, options: WorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? deps.ctx.options.concurrency;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 5_000;
    this.#stalls = new StoreStalls(deps.connection.store.jobs, options.storeFaultTimeoutMs ?? 3_600_000);
    this.#jobs = new WorkerJobs({
      connection: deps.connection,
      store: deps.ctx.store,
      ctx: deps.ctx,
      planner: (job, ctx) => deps.planner(job, ctx),
      internalError: (jobId, error) => deps.internalError(jobId, error),
      owner: this.id,
      stopping: this.#stopping.signal,
    });
    const completeJob = (job: JobRecord) => deps.completeJob(job).then(() => this.#jobs.ended(job.id, 'completed'));
    this.#completion = new JobCompletion(deps.connection, completeJob);
    this.#completions = new CompletionBatch(deps.ctx.store);
  }

  async start(): Promise<void> {
    const { queue, store } = this.#deps.connection;
    const settings = workerSettings({
      urlPolicy: this.#deps.ctx.fetcher.urlPolicy,
      searchIndex: !!store.search,
      ...(queue.lockMs !== undefined ? { taskLockMs: queue.lockMs } : {}),
    });
    this.#consumer = await queue.consume((item, attempt) => this.#handleAttempt(item, attempt), {
      concurrency: this.#concurrency,
      settings,
    });
    for (const differ of await settingsWarnings(queue, settings))
      this.#deps.warning?.('WORKER_SETTINGS_DIFFER', differ);
    this.#sweeper = setInterval(() => void this.#sweep(), this.#sweepIntervalMs);
    this.#sweeper.unref();
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      clearInterval(this.#sweeper);
      this.#stopping.abort();
      await this.#consumer?.close();
    })();
    return this.#closed;
  }

  /**
   * Runs an item. A store that refuses for good ends the job at once. A store fault (the page did not fail, the store
   * did) is noted on the job (its status says so) and ends the job once the job's fault began `storeFaultTimeoutMs`
   * ago; until then, on the queue's last attempt, the item is queued again. On the last attempt any other failure
   * settles the task as failed, so that its job can still finish.
   */
  async #handleAttempt(item: WorkItem, attempt: WorkAttempt): Promise<void> {
    try {
      await this.handle(item);
    } catch (error) {
      if (hasCrawlkitCode(error) && error.code === 'STORE_JOB_NOT_FOUND') return this.#jobGone(item.jobId, error);
      // Noted before it is told: who hears of the fault finds it in the job's status.
      const fault = isStoreFault(error);
      const since = fault ? await this.#stalls.note(item.jobId, error, item.storeFaultSince ?? Date.now()) : 0;
      const told = fault ? this.#stalls.tell(item.jobId, error) : error;
      if (told !== undefined) this.#deps.internalError(item.jobId, told);
      if (isStoreRefusal(error)) return this.#failOnStore(item.jobId, item.url, error);
      if (fault && this.#stalls.expired(since)) {
        const message = error instanceof Error ? error.message : String(error);
        return this.#failOnStore(item.jobId, item.url, this.#stalls.timeoutError(message, since));
      }
      if (!attempt.final) throw error;
      if (fault) {
        await this.#deps.connection.queue.enqueue([{ ...item, attempt: item.attempt + 1, storeFaultSince: since }], {
          delayMs: STORE_FAULT_REQUEUE_MS,
        });
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const { store } = this.#deps.connection;
      await store.tasks.complete(item.jobId, {
        key: item.key,
        credits: 0,
        error: {
          url: redactUrl(item.url),
          code: 'WORKER_FAILED',
          error: `The task failed on every attempt: ${message}`,
        },
      });
      await this.#completion.check(item.jobId);
    }
  }

  /**
   * A job that went from the store while this worker ran its pages: its pages in hand have nowhere to go, and a retry
   * would find no job. Said once per job, with what may have happened, not once per page.
   */
  #jobGone(jobId: string, error: unknown): void {
    if (this.#gone.has(jobId)) return;
    this.#gone.add(jobId);
    const message =
      `Job ${jobId} is gone from the store while this worker ran its pages, which are dropped: was Redis restarted ` +
      'without persistence, or flushed? Submit the job again (and give Redis persistence: appendonly yes).';
    this.#deps.internalError(jobId, new StoreError('STORE_JOB_NOT_FOUND', message, { cause: error }));
  }

  /**
   * Ends a job failed for its store (a refusal for good, or faults past `storeFaultTimeoutMs`): the error, which says
   * what to fix, is the job's error (`getCrawlErrors`), written once the store takes it. Once per job and worker.
   */
  async #failOnStore(jobId: string, url: string, error: unknown): Promise<void> {
    if (this.#ending.has(jobId)) return;
    this.#ending.add(jobId);
    try {
      const { store } = this.#deps.connection;
      if ((await store.jobs.get(jobId))?.status !== 'scraping') return;
      const code = hasCrawlkitCode(error) ? error.code : 'STORE_IO';
      const message = error instanceof Error ? error.message : String(error);
      const entry = { url: redactUrl(url), code, error: message };
      // Before the end when the store takes it, so that a job read failed lists why; else once it does.
      const added = await store.results.addError(jobId, entry).then(
        () => true,
        () => false,
      );
      await this.#endJob(jobId, error);
      if (!added) await retryStoreFaults(() => store.results.addError(jobId, entry), this.#stopping.signal);
    } finally {
      this.#ending.delete(jobId);
    }
  }

  /**
   * Ends a job that cannot go on failed, once, and drops its queued tasks so that no worker fetches them. The end is
   * written even on a full Redis (its store writes a job's end with `allow-oom`); what follows waits for room.
   */
  async #endJob(jobId: string, error: unknown): Promise<void> {
    const { store } = this.#deps.connection;
    const current = await store.jobs.get(jobId);
    if (current?.status !== 'scraping') return;
    const { signal } = this.#stopping;
    await retryStoreFaults(() => this.#deps.failJob(current, error), signal);
    this.#jobs.ended(jobId, 'failed');
    await retryStoreFaults(() => store.tasks.dropQueued(jobId), signal);
  }

  /** How many jobs this worker keeps now (read-only; ended jobs are let go once no task of theirs runs). */
  get jobs(): number {
    return this.#jobs.size;
  }

  /** How many gone jobs this worker remembers having told (read-only; forgotten once none of their pages runs). */
  get goneJobs(): number {
    return this.#gone.size;
  }

  /** Runs one work item. Rejections are store or queue failures: the queue retries the item. */
  async handle(item: WorkItem): Promise<void> {
    await this.#jobs.hold(item.jobId, (state) => this.#run(item, state));
  }

  async #run(item: WorkItem, state: WorkerJob): Promise<void> {
    const { coordination } = this.#deps.connection;
    const taskState = await coordination.taskState(item.jobId, item.key);
    // Done, failed (a duplicate delivery), dropped (cancelled) or gone (job deleted).
    if (taskState !== 'queued' && taskState !== 'active') return;
    const prepared = await state.prepared;
    if (state.ended.aborted) return;
    // The close cut the job's preparation short: the page goes to a worker that prepares the job.
    if (!prepared) return this.#deps.connection.queue.enqueue([{ ...item, attempt: item.attempt + 1 }]);

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
    let result;
    try {
      const retried = {
        retries: item.retries ?? 0,
        ...(item.retriedSince !== undefined ? { since: item.retriedSince } : {}),
        ...(item.retriedSpentMs !== undefined ? { spentMs: item.retriedSpentMs } : {}),
      };
      result = await executeTask(this.#jobTasks(state, item), task, retried);
    } catch (error) {
      if (!isStoreBudgetError(error)) throw error;
      // The page is stored; the job ends here.
      return this.#endJob(item.jobId, error);
    }
    if (result === 'settled') await this.#completion.check(item.jobId);
  }

  /** The task execution's view of the job for one delivery of `item`: the shared work queue and Redis slots. */
  #jobTasks(state: WorkerJob, item: WorkItem): JobTasks {
    const { slots, events } = this.#deps;
    const { coordination, queue } = this.#deps.connection;
    const { job, ctx, planner, maxConcurrency } = state;
    // One holder name per delivery of the item: a redelivery after a crash is a new holder.
    const holder = `${this.id}:${item.key}:${item.attempt}`;
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
        // The store answered this run: a fault streak (storeFaultSince) starts again from the next fault.
        requeue: (_task, delayMs, { retries, since, spentMs }) => {
          const { storeFaultSince: _since, ...next } = item;
          const retried = {
            retries,
            ...(since !== undefined ? { retriedSince: since } : {}),
            ...(spentMs !== undefined ? { retriedSpentMs: spentMs } : {}),
          };
          return queue.enqueue([{ ...next, attempt: item.attempt + 1, ...retried }], { delayMs });
        },
        release: () => Promise.reject(new Error('The scrape was aborted.')),
      },
      // A cancel drops the queued tasks; one already active here, waiting in place for its host, learns it from the
      // job's record, read again at most JOB_REFRESH_MS after the last read (README "Running workers").
      dropped: async () =>
        (await coordination.taskState(job.id, item.key)) === 'dropped' ||
        (await this.#jobs.get(job.id))?.job.status !== 'scraping',
      complete: (outcome) => this.#completions.complete(job.id, outcome),
      ...(maxConcurrency !== undefined ? { jobSlots: this.#jobSlots(job.id, maxConcurrency, holder) } : {}),
    };
  }

  /**
   * The job's running slots (its `maxConcurrency`) for one delivery: a slot held is leased for a task lock's time
   * (`WorkQueue.lockMs`) and renewed every third of it while the page runs, so that a killed worker's slot frees
   * itself as soon as its task goes to another worker.
   */
  #jobSlots(jobId: string, limit: number, holder: string): NonNullable<JobTasks['jobSlots']> {
    const { coordination, queue } = this.#deps.connection;
    const leaseMs = queue.lockMs ?? DEFAULT_LOCK_MS;
    let renewal: NodeJS.Timeout | undefined;
    return {
      take: async () => {
        const wait = await this.#takeJobSlot(jobId, limit, holder, leaseMs);
        if (wait === 0) {
          renewal = setInterval(
            () => {
              coordination.takeJobSlot(jobId, holder, limit, leaseMs).catch(() => undefined);
            },
            Math.max(100, Math.floor(leaseMs / 3)),
          );
          renewal.unref();
        }
        return wait;
      },
      release: () => {
        clearInterval(renewal);
        return coordination.releaseJobSlot(jobId, holder);
      },
    };
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

  /** Ends, in the background, the running jobs whose store fault began `storeFaultTimeoutMs` ago. */
  async #endStalledJobs(): Promise<void> {
    for (const job of await this.#stalls.expiredJobs()) {
      const { code, message, since } = job.storeFault!;
      const { request } = storedJobOf<{ url?: string; urls?: string[] }>(job);
      const error = this.#stalls.timeoutError(`${code}: ${message}`, since);
      void this.#failOnStore(job.id, request.url ?? request.urls?.[0] ?? '', error).catch((e: unknown) =>
        this.#deps.internalError(job.id, e),
      );
    }
  }

  /** While the queue is empty, recovers what crashes left behind (see `JobCompletion.sweep`). */
  async #sweep(): Promise<void> {
    if (this.#sweeping || this.#closed) return;
    this.#sweeping = true;
    try {
      let faulted = false;
      await this.#completion.sweep().catch((error: unknown) => {
        this.#deps.internalError('', error);
        faulted = isStoreFault(error);
      });
      // The jobs stalled on the store past storeFaultTimeoutMs end, whether or not a task of theirs is delivered again.
      if (faulted || this.#stalls.watching()) await this.#endStalledJobs();
      await this.#jobs.prune();
      // A page of a gone job holds the job until it returns: once none does, no other page can tell it again.
      for (const jobId of this.#gone) if (!this.#jobs.has(jobId)) this.#gone.delete(jobId);
    } catch (error) {
      this.#deps.internalError('', error);
    } finally {
      this.#sweeping = false;
    }
  }
}
