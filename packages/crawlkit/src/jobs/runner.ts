import { clearTimeout, setTimeout } from 'node:timers';
import type { JobRecord, Store, Task } from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import { isStoreFault, storeFaultDelay } from '../store-faults.js';
import { feedOf } from '../changes/change-feed.js';
import { FeedPages } from '../changes/feed-pages.js';
import { CompletionBatch } from './completion-batch.js';
import { OfferedKeys } from './offered-keys.js';
import type { JobEventSink } from './events.js';
import { localHostSlots } from './host-slots.js';
import { StoreStall } from './store-stall.js';
import { limitOf, type JobPlanner } from './planner.js';
import { executeTask, type JobTasks, type TaskRetries } from './task-execution.js';
import type { ScrapeSlots } from '../scrape-slots.js';

const IDLE_POLL_MS = 100;

/**
 * Drives one crawl or batch job in this process: claims its tasks from the store (up to the job's concurrency) and
 * runs each through the task execution, with the store's task table as the queue. Everything it knows is in the
 * store, so a new runner can pick the job up after a crash.
 */
export class JobRunner {
  readonly #store: Store;
  readonly #job: JobRecord;
  readonly #planner: JobPlanner;
  readonly #events: JobEventSink;
  readonly #abort = new AbortController();
  readonly #inflight = new Set<Promise<void>>();
  /** Retries per task key, for 429/503 and dropped connections (in memory: a resumed job may retry a page again). */
  readonly #retries = new Map<string, TaskRetries>();
  readonly #tasks: JobTasks;
  /**
   * Tasks claimed ahead, not yet running: one claim transaction takes a round of the job's concurrency, instead of
   * one per page. They are `active` in the store like the running ones, so a crash leaves them to `requeueActive`.
   */
  #claimed: Task[] = [];
  #wake: (() => void) | undefined;
  /**
   * The earliest time a task sent back to the queue with a wait (a 429's `Retry-After`, the host's spacing) comes
   * due, and the timer that ends the loop's wait for a settling page then: without it, a page retried after 3 s
   * waited for an unrelated page still loading (a 15 s timeout) before it was claimed again.
   */
  #due: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;
  /** The due times of the tasks sent back with a wait and not yet due. */
  #dueTimes: number[] = [];
  /** Ends the loop's wait for a settling page when a task comes due; `#dueMissed` when it came due meanwhile. */
  #dueWake: (() => void) | undefined;
  #dueMissed = false;
  /** Why the job cannot go on (its store budget is spent): no task is claimed any more, and `run` rejects with it. */
  #fatal: Error | undefined;
  /**
   * A store fault met by a task or the loop (a full disk, Redis down): no task is claimed until the store takes the
   * job's active tasks back (`#recover`). The tasks keep their pages: none is failed for it.
   */
  #fault: unknown;
  /** Store faults since a task last settled: the wait before the next try grows with it. */
  #faultStreak = 0;
  /** The store fault the job is stalled on, for its status; the driver notes the faults it meets too. */
  readonly stall = new StoreStall();

  constructor(options: {
    ctx: EngineContext;
    store: Store;
    queue: ScrapeSlots;
    job: JobRecord;
    planner: JobPlanner;
    events: JobEventSink;
  }) {
    const { store, job, planner } = options;
    this.#store = store;
    this.#job = job;
    this.#planner = planner;
    this.#events = options.events;
    const completions = new CompletionBatch(store);
    this.#tasks = {
      ctx: options.ctx,
      job,
      store,
      planner,
      events: options.events,
      slots: options.queue,
      signal: this.#abort.signal,
      hosts: localHostSlots(planner.politeness),
      queue: {
        // Retries are counted here, not by `task.attempts`: a task parked for politeness is claimed again too.
        requeue: async (task, delayMs, retried) => {
          if (retried.retries > 0) this.#retries.set(task.key, retried);
          const due = Date.now() + delayMs;
          await store.tasks.release(job.id, task.key, due);
          this.#wakeAt(due);
        },
        release: (task) => store.tasks.release(job.id, task.key),
      },
      complete: (outcome) => completions.complete(job.id, outcome),
      offered: new OfferedKeys(),
      ...(feedOf(job) ? { feed: new FeedPages() } : {}),
    };
  }

  /** What the job's change feed needs of the results stored here (a crawl with a feed), else undefined. */
  get feed(): FeedPages | undefined {
    return this.#tasks.feed;
  }

  get id(): string {
    return this.#job.id;
  }

  /** Whether `stop()` was called. */
  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Stops fetching at once; what was stored stays. */
  stop(): void {
    this.#abort.abort();
    this.#wake?.();
  }

  /**
   * Runs until the job is finished or stopped. Resolves with the final status, or undefined when stopped; rejects
   * when the job cannot go on (`JOB_STORE_BUDGET_EXCEEDED`), once the pages under way have settled.
   */
  async run(): Promise<'completed' | 'stopped'> {
    const id = this.#job.id;
    const signal = this.#abort.signal;
    const seeds = await this.#planner.prepare(signal);
    if (seeds.length) {
      await this.#store.tasks.add(id, seeds, limitOf(this.#planner));
      this.#tasks.offered?.offered(seeds);
    }

    while (!signal.aborted && !this.#fatal) {
      if (this.#fault !== undefined) {
        await this.#recover();
        continue;
      }
      try {
        await this.#fill();
        if (signal.aborted || this.#fatal || this.#fault !== undefined) continue;
        if (this.#inflight.size === 0) {
          const counts = await this.#store.tasks.counts(id);
          if (counts.queued === 0 && counts.active === 0) {
            this.#clearDue();
            return 'completed';
          }
          await this.#sleep(IDLE_POLL_MS);
          continue;
        }
      } catch (error) {
        if (!isStoreFault(error)) throw error;
        this.#faulted(error);
        continue;
      }
      await this.#waitForProgress();
    }
    await Promise.allSettled(this.#inflight);
    this.#clearDue();
    await this.#releaseClaimed();
    if (this.#fatal) throw this.#fatal;
    return 'stopped';
  }

  async #fill(): Promise<void> {
    const concurrency = this.#planner.concurrency;
    const free = concurrency - this.#inflight.size;
    if (free <= 0) return;
    if (this.#claimed.length < free) {
      const wanted = Math.max(free, concurrency) - this.#claimed.length;
      this.#claimed.push(...(await this.#store.tasks.claim(this.#job.id, wanted)));
    }
    for (const task of this.#claimed.splice(0, free)) {
      const running: Promise<void> = this.#runTask(task)
        .catch((error: unknown) => {
          if (isStoreFault(error)) return this.#faulted(error);
          // A spent store budget, a store that refuses for good, or what no page's outcome holds (a store of the
          // user's own answering an error, a record it cannot read): the job cannot go on, and ends failed (the
          // driver reports it). Only reported here, it left the task active and the job `scraping` for good.
          this.#fatal ??= error instanceof Error ? error : new Error(String(error));
        })
        .finally(() => {
          this.#inflight.delete(running);
          this.#wake?.();
        });
      this.#inflight.add(running);
    }
  }

  /** Waits for a task to settle, the runner to stop, or a task sent back with a wait to come due. */
  #waitForProgress(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.#wake = undefined;
        this.#dueWake = undefined;
        resolve();
      };
      if (this.#dueMissed) {
        this.#dueMissed = false;
        return done();
      }
      this.#wake = done;
      this.#dueWake = done;
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** Ends the wait for progress at `at`, when a task sent back with a wait comes due. */
  #wakeAt(at: number): void {
    this.#dueTimes.push(at);
    if (!this.#due || at < this.#due.at) this.#armDue();
  }

  /** Sets the timer for the earliest due time still to come. */
  #armDue(): void {
    if (this.#due) clearTimeout(this.#due.timer);
    this.#due = undefined;
    if (!this.#dueTimes.length) return;
    const at = Math.min(...this.#dueTimes);
    const timer = setTimeout(
      () => {
        const now = Date.now();
        this.#dueTimes = this.#dueTimes.filter((time) => time > now);
        this.#armDue();
        if (this.#dueWake) this.#dueWake();
        else this.#dueMissed = true;
      },
      // A millisecond late: a timer may fire before `Date.now()` reaches its time, and the claim compares with it.
      Math.max(0, at - Date.now() + 1),
    );
    // The pages in flight and the loop's own waits keep the process alive, not this timer.
    timer.unref();
    this.#due = { at, timer };
  }

  #clearDue(): void {
    this.#dueTimes = [];
    this.#armDue();
  }

  /** A stopped runner gives the tasks it claimed ahead back to the queue, as a page stopped midway goes back. */
  async #releaseClaimed(): Promise<void> {
    const claimed = this.#claimed;
    this.#claimed = [];
    for (const task of claimed) {
      // A store that fails now leaves them active: the next run of the job requeues them (`requeueActive`).
      await this.#store.tasks.release(this.#job.id, task.key).catch(() => undefined);
    }
  }

  async #runTask(task: Task): Promise<void> {
    const result = await executeTask(this.#tasks, task, this.#retries.get(task.key) ?? { retries: 0 });
    if (result === 'settled') {
      this.#retries.delete(task.key);
      this.#faultStreak = 0;
      this.stall.ended();
    }
  }

  /** The first store fault of an episode is reported; claiming stops until `#recover` succeeds. */
  #faulted(error: unknown): void {
    this.stall.met(error);
    if (this.#fault !== undefined) return;
    this.#fault = error;
    this.#faultStreak++;
    this.#events.internalError(this.#job, error);
  }

  /**
   * Once the tasks in flight have settled, waits (longer with each fault in a row) and gives the job's active tasks
   * back to the queue, those whose completion the store refused included; claiming then goes on. A store that still
   * fails is tried again after a longer wait. So a job goes on by itself once space returns, losing no page.
   */
  async #recover(): Promise<void> {
    await Promise.allSettled(this.#inflight);
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      await this.#sleep(storeFaultDelay(this.#faultStreak));
      if (signal.aborted) return;
      try {
        // The tasks claimed ahead go back with the others, and are claimed again from the queue.
        this.#claimed = [];
        await this.#store.tasks.requeueActive(this.#job.id);
        this.#fault = undefined;
        return;
      } catch (error) {
        if (!isStoreFault(error)) throw error;
        this.stall.met(error);
        this.#faultStreak++;
      }
    }
  }
}
