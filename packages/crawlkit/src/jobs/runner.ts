import { retryDelay } from '@crawlkit/frontier';
import type { JobRecord, Store, Task, TaskInput } from '@crawlkit/store';
import type PQueue from 'p-queue';

import type { EngineContext } from '../context.js';
import { scrapePage, type PageScrapeOutcome, type PageScrapeRequest } from '../scrape/scrape-page.js';
import type { JobEventSink } from './events.js';

/** Per-task data kept in the store with the task. */
export interface TaskMeta {
  /** `metadata.sourceURL` for this page, when it differs from the task URL (batch URLs as sent). */
  sourceURL?: string;
}

export interface PrepareOptions {
  /** Discover seeds (sitemaps). Default true. */
  discover?: boolean;
}

/** What a job kind contributes to the generic runner. */
export interface JobPlanner {
  /** Page scrape options (with the task's URL filled in by the runner). */
  readonly scrapeOptions: Omit<PageScrapeRequest, 'url'>;
  /** Tasks running at once for this job. */
  readonly concurrency: number;
  /** Whether pages need their links for discovery. */
  readonly collectsLinks: boolean;
  /**
   * Called once when the runner (re)starts the job: seeds, sitemaps, robots. Returns tasks to add. With
   * `discover: false` (another worker of the cluster discovers this job's seeds) it only loads what this process needs
   * to judge pages (robots.txt); work that must never be skipped, such as a batch's backlog, runs regardless.
   */
  prepare(signal: AbortSignal, options?: PrepareOptions): Promise<TaskInput[]>;
  /**
   * The spacing the job asks for between two requests to `url`'s host, in ms (`delay`, robots `Crawl-delay`; known
   * once prepared). Workers of a cluster share it through the backend; absent means none.
   */
  hostSpacing?(url: string): number;
  /** Milliseconds to wait before fetching `url` (politeness); 0 to go now. Reserves the slot. */
  delayBefore(url: string): number;
  /** The host of `url` answered 429/503: it should rest `waitMs` before any other page of it is fetched. */
  throttled?(url: string, waitMs: number): void;
  /** Reacts to a finished page: may veto it (redirected out of scope) and returns newly discovered tasks. */
  afterPage(
    task: Task,
    outcome: PageScrapeOutcome,
    links: string[],
  ): Promise<{
    tasks: TaskInput[];
    /** Record the page as failed with this error instead of storing it. */
    reject?: { code: string; error: string };
    /** Scraped only for its links (e.g. a seed outside the include patterns): store nothing. */
    discard?: boolean;
  }>;
  /** Tasks may not exceed this in total. */
  readonly limit?: number;
  /** Nothing of this job may be written to disk. */
  readonly zeroDataRetention: boolean;
}

const IDLE_POLL_MS = 100;

/**
 * Drives one crawl or batch job to its end: claims tasks from the store, scrapes them within the engine's slots,
 * stores each result exactly once and adds discovered tasks. Everything it knows is in the store, so a new runner
 * can pick the job up after a crash.
 */
export class JobRunner {
  readonly #ctx: EngineContext;
  readonly #store: Store;
  readonly #queue: PQueue;
  readonly #job: JobRecord;
  readonly #planner: JobPlanner;
  readonly #events: JobEventSink;
  readonly #abort = new AbortController();
  readonly #inflight = new Set<Promise<void>>();
  /** 429/503 retries per task key (in memory: a resumed job may retry a page a few more times). */
  readonly #retries = new Map<string, number>();
  #wake: (() => void) | undefined;

  constructor(options: {
    ctx: EngineContext;
    store: Store;
    queue: PQueue;
    job: JobRecord;
    planner: JobPlanner;
    events: JobEventSink;
  }) {
    this.#ctx = options.ctx;
    this.#store = options.store;
    this.#queue = options.queue;
    this.#job = options.job;
    this.#planner = options.planner;
    this.#events = options.events;
  }

  get id(): string {
    return this.#job.id;
  }

  /** Stops fetching at once; what was stored stays. */
  stop(): void {
    this.#abort.abort();
    this.#wake?.();
  }

  /** Runs until the job is finished or stopped. Resolves with the final status, or undefined when stopped. */
  async run(): Promise<'completed' | 'stopped'> {
    const id = this.#job.id;
    const signal = this.#abort.signal;
    const seeds = await this.#planner.prepare(signal);
    if (seeds.length) await this.#store.tasks.add(id, seeds, this.#limit());

    while (!signal.aborted) {
      await this.#fill();
      if (signal.aborted) break;
      if (this.#inflight.size === 0) {
        const counts = await this.#store.tasks.counts(id);
        if (counts.queued === 0 && counts.active === 0) return 'completed';
        await this.#sleep(IDLE_POLL_MS);
        continue;
      }
      await this.#waitForProgress();
    }
    await Promise.allSettled(this.#inflight);
    return 'stopped';
  }

  #limit(): { limit?: number } {
    return this.#planner.limit !== undefined ? { limit: this.#planner.limit } : {};
  }

  async #fill(): Promise<void> {
    const free = this.#planner.concurrency - this.#inflight.size;
    if (free <= 0) return;
    const tasks = await this.#store.tasks.claim(this.#job.id, free);
    for (const task of tasks) {
      const running: Promise<void> = this.#runTask(task)
        .catch((error: unknown) => this.#events.internalError(this.#job, error))
        .finally(() => {
          this.#inflight.delete(running);
          this.#wake?.();
        });
      this.#inflight.add(running);
    }
  }

  #waitForProgress(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
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

  async #runTask(task: Task): Promise<void> {
    const signal = this.#abort.signal;
    const jobId = this.#job.id;
    const wait = this.#planner.delayBefore(task.url);
    if (wait > 0) {
      await this.#store.tasks.release(jobId, task.key, Date.now() + wait);
      return;
    }
    const meta = task.meta ? (JSON.parse(task.meta) as TaskMeta) : {};
    const request = { ...this.#planner.scrapeOptions, url: task.url } as PageScrapeRequest;
    const outcome = await this.#queue.add(() =>
      scrapePage(this.#ctx, request, {
        sourceURL: meta.sourceURL ?? task.url,
        zeroDataRetention: this.#planner.zeroDataRetention,
        signal,
        jobId,
        collectLinks: this.#planner.collectsLinks,
      }),
    );
    if (!outcome || signal.aborted) {
      // Stopped mid-page: the task goes back to the queue (a cancel drops it, a resume retries it).
      await this.#store.tasks.release(jobId, task.key);
      return;
    }

    if (outcome.success) {
      // Retries are counted here, not by `task.attempts`: a task parked for politeness is claimed again too.
      const retries = this.#retries.get(task.key) ?? 0;
      const { statusCode: status } = outcome.document.metadata;
      const wait = retryDelay({ status, retryAfter: outcome.retryAfter }, retries);
      if (wait !== undefined) {
        this.#retries.set(task.key, retries + 1);
        this.#planner.throttled?.(task.url, wait);
        await this.#store.tasks.release(jobId, task.key, Date.now() + wait);
        return;
      }
      this.#retries.delete(task.key);
    }

    const links = outcome.success ? (outcome.links ?? []) : [];
    const after = await this.#planner.afterPage(task, outcome, links);
    if (after.tasks.length) await this.#store.tasks.add(jobId, after.tasks, this.#limit());

    if (after.discard) {
      await this.#store.tasks.complete(jobId, { key: task.key, credits: 0 });
    } else if (outcome.success && !after.reject) {
      const document = outcome.document;
      await this.#events.page(this.#job, document, task.key);
      const stored = await this.#store.tasks.complete(jobId, {
        key: task.key,
        credits: outcome.credits,
        document: JSON.stringify(document),
      });
      // A duplicate: another process that took the job over stored this page first; its result is the one kept.
      if (!stored.duplicate) this.#events.pageStored(this.#job, document);
    } else {
      const failure = outcome.success ? after.reject! : { code: outcome.error.code, error: outcome.error.error };
      const error = { url: task.url, error: failure.error, ...(failure.code ? { code: failure.code } : {}) };
      await this.#events.pageFailed(this.#job, meta.sourceURL ?? task.url, error.error, task.key);
      await this.#store.tasks.complete(jobId, { key: task.key, credits: 0, error });
    }
    this.#events.settled?.(this.#job);
  }
}
