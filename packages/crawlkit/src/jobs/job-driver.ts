import type { JobKind, JobRecord, JobStoreFault, Store } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import { sleep } from '@crawlkit/actions/sleep';
import { isStoreFault, storeFaultDelay } from '../store-faults.js';
import type { JobEvents } from './events.js';
import type { JobLeases } from './lease.js';
import type { JobPlanner } from './planner.js';
import type { FeedPages } from '../changes/feed-pages.js';
import { JobRunner } from './runner.js';
import type { ScrapeSlots } from '../scrape-slots.js';

export interface JobKindHandler {
  /** Builds the planner for a job from its stored request; `ctx` is the job's (`EngineContext.forJob`). */
  planner(job: JobRecord, store: Store, ctx: EngineContext): JobPlanner;
}

/** How a job driven here ends; the job manager writes the record and sends the events. */
export interface JobEnds {
  /** `feed`: what the job's change feed needs of the results stored here (`JobRunner.feed`). */
  completed(job: JobRecord, store: Store, feed?: FeedPages): Promise<void>;
  failed(job: JobRecord, store: Store, error: unknown): Promise<void>;
}

/**
 * Runs jobs in this process: one runner per job, under the job's lease (so two processes sharing a store never run the
 * same job), from its store's task table to its end.
 */
export class JobDriver {
  readonly #ctx: EngineContext;
  readonly #queue: ScrapeSlots;
  readonly #handlers: Record<JobKind, JobKindHandler>;
  readonly #leases: JobLeases;
  readonly #events: JobEvents;
  readonly #ends: JobEnds;
  /** Aborted by `close()`: wakes jobs waiting for a lease. */
  readonly #closing = new AbortController();
  readonly #runners = new Map<string, { runner: JobRunner; done: Promise<void> }>();

  constructor(options: {
    ctx: EngineContext;
    /** The engine's scrape slots. */
    queue: ScrapeSlots;
    handlers: Record<JobKind, JobKindHandler>;
    leases: JobLeases;
    events: JobEvents;
    ends: JobEnds;
  }) {
    this.#ctx = options.ctx;
    this.#queue = options.queue;
    this.#handlers = options.handlers;
    this.#leases = options.leases;
    this.#events = options.events;
    this.#ends = options.ends;
  }

  /** Starts (or resumes) running a job here, unless it already runs here; `done` is called when it stops here. */
  start(job: JobRecord, store: Store, done: () => void): void {
    if (this.#closing.signal.aborted || this.#runners.has(job.id) || job.status !== 'scraping') return;
    const ctx = this.#ctx.forJob(job);
    const runner = new JobRunner({
      ctx,
      store,
      queue: this.#queue,
      job,
      planner: this.#handlers[job.kind].planner(job, store, ctx),
      events: this.#events.sink(store),
    });
    const running = this.#drive(runner, job, store, ctx).finally(async () => {
      // A job stopped here (close, cancel, lost lease) leaves its recording whole so far; a resume appends to it.
      if (ctx.recording) await this.#closeRecording(ctx, job.id);
      this.#runners.delete(job.id);
      done();
    });
    this.#runners.set(job.id, { runner, done: running });
  }

  /** Whether the job runs here (or waits here for its lease). */
  runs(id: string): boolean {
    return this.#runners.has(id);
  }

  /** The store fault a job running here is stalled on (`JobRunner.stall`), if any. */
  storeFault(id: string): JobStoreFault | undefined {
    return this.#runners.get(id)?.runner.stall.fault;
  }

  /** Stops fetching the job's pages here at once (a cancel). */
  stop(id: string): void {
    this.#runners.get(id)?.runner.stop();
  }

  /** Stops every job running here without ending it (they stay resumable) and waits for their pages to settle. */
  async close(): Promise<void> {
    this.#closing.abort();
    for (const { runner } of this.#runners.values()) runner.stop();
    await Promise.allSettled([...this.#runners.values()].map((r) => r.done));
  }

  /**
   * Drives one job under its lease: active tasks left by a crash go back to the queue, the runner runs until nothing
   * is left (the job completes) or it is stopped (nothing changes); any other error ends the job failed. The job is
   * read again once the lease is held: another process may have ended it while this one waited.
   */
  async #drive(runner: JobRunner, job: JobRecord, store: Store, ctx: EngineContext): Promise<void> {
    if (!(await this.#leases.acquire(job.id, store, this.#closing.signal))) return;
    const release = this.#leases.hold(job.id, store, () => runner.stop());
    try {
      for (let faults = 1; ; faults++) {
        try {
          await this.#runOnce(runner, job, store, ctx);
          return;
        } catch (error) {
          // A stop (close, cancel, a lost lease) aborts what was under way, robots.txt included: that is no failure.
          if (runner.stopped || !(await this.#stillRunning(job.id, store).catch(() => true))) return;
          // The store failed (a full disk, Redis down): the job is not what failed. Try again once it answers.
          if (isStoreFault(error)) {
            runner.stall.met(error);
            this.#events.bus.internalError(job.id, error);
            await sleep(storeFaultDelay(faults), this.#closing.signal);
            if (this.#closing.signal.aborted) return;
            continue;
          }
          await this.#ends.failed(job, store, error);
          return;
        }
      }
    } finally {
      await release();
    }
  }

  /** Runs the job from its store's tasks to its end; rejects when it cannot go on. */
  async #runOnce(runner: JobRunner, job: JobRecord, store: Store, ctx: EngineContext): Promise<void> {
    if (!(await this.#stillRunning(job.id, store))) return;
    await store.tasks.requeueActive(job.id);
    const result = await runner.run();
    if (result !== 'completed') return;
    const current = await store.jobs.get(job.id);
    if (!current || current.status !== 'scraping') return;
    // The recording is on disk before the job reads completed.
    if (ctx.recording) await this.#closeRecording(ctx, job.id);
    await this.#ends.completed(current, store, runner.feed);
  }

  async #closeRecording(ctx: EngineContext, id: string): Promise<void> {
    await ctx.recordings.close(id).catch((error: unknown) => this.#events.bus.internalError(id, error));
  }

  async #stillRunning(id: string, store: Store): Promise<boolean> {
    return (await store.jobs.get(id))?.status === 'scraping';
  }
}
