import { redactUrl } from '@crawlkit/fetcher';
import { retryDelay } from '@crawlkit/frontier';
import { asksRetryLater } from '@crawlkit/options/retry-later';
import {
  documentBytes,
  type JobRecord,
  type Store,
  type Task,
  type TaskCompletion,
  type TaskOutcome,
} from '@crawlkit/store';

import type { EngineContext } from '../context.js';
import { CrawlkitError, isCrawlkitError } from '../errors.js';
import { withAttempts } from '../scrape/error-page.js';
import { runScrape } from '../scrape/run-scrape.js';
import { pageTimeoutMs, type PageScrapeOutcome, type PageScrapeRequest } from '../scrape/types.js';
import { chargeRetry, outOfTimeAttempts, outOfTimeFailure, type PageTime } from './page-attempts.js';
import { pageStoreFault } from '../store-faults.js';
import { chargedJobPage } from '../credits/job-credits.js';
import type { JobEventSink, PageFailure } from './events.js';
import { limitOf, type JobPlanner } from './planner.js';
import { jobScrapeStages } from './scrape-stages.js';
import type { OfferedKeys } from './offered-keys.js';
import { feedOf } from '../changes/change-feed.js';
import type { FeedPages } from '../changes/feed-pages.js';
import { taskMetaCodec } from '../codec/records.js';
import type { ScrapeSlots } from '../scrape-slots.js';
import { jobTenant } from './job-tenant.js';
import { noteLimitCut } from './crawl-notes.js';

/** A task's retries so far (429/503, dropped connections), and when its first attempt started (epoch ms). */
export interface TaskRetries {
  retries: number;
  /** Set once the task was retried. */
  since?: number;
  /**
   * The page's time its attempts so far took, their back-off waits included (`page-attempts.ts`): the page's
   * `timeout` bounds them all. @default 0
   */
  spentMs?: number;
}

/**
 * Where a task goes when it does not settle: back on the queue it came from. This is the part that differs between
 * the in-process runner (the store's task table) and the Redis workers (the shared work queue).
 */
export interface TaskQueue {
  /**
   * Puts the task back, to run again in `delayMs` (its host must rest, its job has no free running slot, or the page
   * was refused or its connection dropped). `retried` is the task's retries from now on.
   */
  requeue(task: Task, delayMs: number, retried: TaskRetries): Promise<void>;
  /** The scrape stopped midway (the engine is closing, the job was cancelled): the task goes back as it was. */
  release(task: Task): Promise<void>;
}

/** A job's per-host request slots: the spacing `delay` and robots `Crawl-delay` ask for, and rests after 429/503. */
export interface HostSlots {
  /** Takes the next request slot of `url`'s host: 0 when taken, else the milliseconds until it may be tried again. */
  take(url: string): number | Promise<number>;
  /** `url`'s host answered 429/503: no page of it is fetched for `waitMs`. */
  pause(url: string, waitMs: number): void | Promise<void>;
  /**
   * The request to `url`'s host leaves now, after its slot was taken: the host's spacing counts from now, so a page
   * delayed between its slot and its request (a busy event loop, a starved process) does not shorten the gap the
   * server sees. Synchronous, best effort (a failure leaves the slot's own spacing).
   */
  sent(url: string): void;
  /**
   * Milliseconds left of a rest (`pause`) `url`'s host is in, asked as the request leaves: a rest begun after the
   * slot was taken (a 429 of another page answered meanwhile) holds the request back. Synchronous; absent where the
   * rests live elsewhere (a cluster's backend), and then no request is held back.
   */
  restingFor?(url: string): number;
}

/** A job's running slots shared across processes (its `maxConcurrency` on Redis workers). */
export interface JobSlots {
  /** Takes a running slot for the task: 0 when held, else the milliseconds after which to requeue it and try again. */
  take(task: Task): Promise<number>;
  /** Frees the task's running slot. */
  release(task: Task): Promise<void>;
}

/** Everything the task execution needs of one job, built by the engine that drives it. */
export interface JobTasks {
  readonly ctx: EngineContext;
  readonly job: JobRecord;
  /** The job's store: discovered tasks are added to it and settled tasks completed in it. */
  readonly store: Store;
  readonly planner: JobPlanner;
  readonly events: JobEventSink;
  /** The engine's scrape slots. */
  readonly slots: ScrapeSlots;
  readonly hosts: HostSlots;
  readonly queue: TaskQueue;
  /** Taken before the engine slot, freed once the page is fetched; absent when the driver keeps the job's limit. */
  readonly jobSlots?: JobSlots;
  /**
   * A host wait up to this long is waited out in place, holding the engine slot; a longer one requeues the task.
   * @default 0
   */
  readonly maxInlineWaitMs?: number;
  /** Stops the scrape in flight; the task is released. */
  readonly signal?: AbortSignal;
  /** Whether the task was dropped (its job cancelled) while it waited in place for its host. @default never */
  dropped?(task: Task): Promise<boolean>;
  /**
   * Completes a settled task (`CompletionBatch`: with the others settled in the same turn, in one transaction).
   * @default `store.tasks.complete`, one transaction a task
   */
  complete?(outcome: TaskOutcome): Promise<TaskCompletion>;
  /** The keys already handed to the store's `add`: links met again are not added again. @default none kept */
  readonly offered?: OfferedKeys;
  /** A crawl's change feed: what its close needs of each result stored here. @default none kept */
  readonly feed?: FeedPages;
}

/** How a task's run ended: its page settled (stored, failed or discarded), or the task went back. */
export type TaskResult = 'settled' | 'requeued' | 'released' | 'dropped';

/**
 * Runs one claimed task of a job: its job slot, the scrape with the job's stages (`jobScrapeStages`: the host's slot is
 * taken inside the engine's scrape slot, after the cache lookup, right before the fetch, so the spacing the server
 * sees is the spacing of the slots), the retry rule for 429/503
 * (`retryDelay`; the host rests as long) and for a dropped connection (only the page waits), then the page settles
 * exactly once. `retries` counts the task's retries so far. Rejections are store or queue failures.
 */
export async function executeTask(tasks: JobTasks, task: Task, retried: TaskRetries): Promise<TaskResult> {
  const { retries } = retried;
  const since = retried.since ?? Date.now();
  // Most tasks are not refused, and are told so synchronously: no extra turn per page.
  const refused = tasks.planner.refuses?.(task) ?? false;
  if (refused !== false && (await refused)) {
    await completeTask(tasks, { key: task.key, credits: 0 });
    tasks.events.settled?.(tasks.job);
    return 'settled';
  }
  const time: PageTime = {
    timeoutMs: pageTimeoutMs(tasks.planner.scrapeOptions, tasks.ctx.options.timeoutMs),
    spentMs: retried.spentMs ?? 0,
  };
  const outcome = await fetchTask(tasks, task, retries, time.spentMs);
  if (outcome === 'released') {
    await tasks.queue.release(task);
    return 'released';
  }
  if (outcome === 'dropped') return 'dropped';
  // The page cache could not be read or written: the store failed, not the page; the task is retried (issue 38).
  const fault = pageStoreFault(outcome);
  if (fault) throw fault;
  if (typeof outcome === 'number') {
    await tasks.queue.requeue(task, outcome, retried);
    return 'requeued';
  }
  let outOfTime: string | undefined;
  if (outcome.success) {
    const { statusCode: status } = outcome.document.metadata;
    const wait = retryDelay({ status, retryAfter: outcome.retryAfter }, retries);
    if (wait !== undefined) {
      await tasks.hosts.pause(task.url, wait);
      // The wait is the host's rest, which the site asked for, not the page's time: as the host's slot, not charged.
      const spentMs = chargeRetry(time, outcome, 0);
      if (spentMs !== undefined) {
        await tasks.queue.requeue(task, wait, { retries: retries + 1, since, spentMs });
        return 'requeued';
      }
      outOfTime = outOfTimeAttempts(time, retries + 1);
    }
  } else if (outcome.dropped) {
    // Only this page waits: a host that drops some connections still answers the others.
    const wait = retryDelay({ dropped: true }, retries);
    if (wait !== undefined) {
      const spentMs = chargeRetry(time, outcome, wait);
      if (spentMs !== undefined) {
        await tasks.queue.requeue(task, wait, { retries: retries + 1, since, spentMs });
        return 'requeued';
      }
      // The message says the attempts: not told again after it.
      await settleTask(tasks, task, outOfTimeFailure(time, retries + 1, outcome, wait), undefined);
      return 'settled';
    }
  }
  await settleTask(tasks, task, outcome, retries > 0 ? { retries, since } : undefined, outOfTime);
  return 'settled';
}

/** The page's outcome, or how long until the task may run (a number), or why it did not run. */
async function fetchTask(
  tasks: JobTasks,
  task: Task,
  retries: number,
  spentMs: number,
): Promise<PageScrapeOutcome | number | 'released' | 'dropped'> {
  const { ctx, planner, signal, jobSlots } = tasks;
  if (jobSlots) {
    const wait = await jobSlots.take(task);
    if (wait > 0) return wait;
  }
  let outcome;
  try {
    const request: PageScrapeRequest = {
      ...(planner.scrapeOptionsFor?.(task.url) ?? planner.scrapeOptions),
      url: task.url,
    };
    const context = {
      sourceURL: sourceUrlOf(task),
      zeroDataRetention: planner.zeroDataRetention,
      ...(signal ? { signal } : {}),
      jobId: tasks.job.id,
      collectLinks: planner.collectsLinks,
      hashContent: planner.hashesContent === true || feedOf(tasks.job) !== undefined,
      ...(spentMs > 0 ? { spentMs } : {}),
    };
    // A job's page waits behind the scrapes whose callers wait for them, in its tenant's and its job's turn
    // (ScrapeSlots).
    outcome = await tasks.slots.add(
      () => chargedJobPage(tasks, () => runScrape(ctx, request, context, jobScrapeStages(tasks, task, retries))),
      { background: true, tenant: jobTenant(tasks.job), job: tasks.job.id },
    );
  } finally {
    await jobSlots?.release(task);
  }
  // Stopped mid-page: the task goes back to the queue (a cancel drops it, a resume retries it).
  if (!outcome || signal?.aborted) return 'released';
  if ('kind' in outcome) return outcome.kind === 'deferred' ? outcome.retryInMs : 'dropped';
  return outcome;
}

/**
 * Settles a fetched page once: the planner's verdict (discovered tasks, discard, reject), then the task completed as
 * discarded, stored (its `page` event queued first) or failed. A stored page that takes the job past
 * `jobs.maxStoreBytes` is kept, and then rejects with `JOB_STORE_BUDGET_EXCEEDED`: whoever runs the job ends it.
 */
async function settleTask(
  tasks: JobTasks,
  task: Task,
  outcome: PageScrapeOutcome,
  retried: Pick<Required<TaskRetries>, 'retries' | 'since'> | undefined,
  outOfTime?: string,
): Promise<void> {
  const { store, planner, events, job } = tasks;
  const complete = (outcome: TaskOutcome) => completeTask(tasks, outcome);
  const links = outcome.success ? (outcome.links ?? []) : [];
  const verdict = await planner.afterPage(task, outcome, links);
  const discovered = tasks.offered?.fresh(verdict.tasks) ?? verdict.tasks;
  if (discovered.length) {
    const added = await store.tasks.add(job.id, discovered, limitOf(planner));
    tasks.offered?.offered(discovered);
    if (planner.limit !== undefined) await noteLimitCut(store, job.id, planner.limit, tasks, discovered, added);
  }

  if (verdict.discard) {
    await complete({ key: task.key, credits: 0 });
  } else if (outcome.success && !verdict.reject) {
    const document = outcome.document;
    const status = document.metadata.statusCode;
    const attempts = outOfTime ?? (retried && asksRetryLater(status) ? attemptsOf(retried) : undefined);
    if (attempts) document.warning = withAttempts(outcome.warnings ?? [], status, attempts);
    await events.page(job, document, task.key);
    const serialized = JSON.stringify(document);
    const stored = await complete({
      key: task.key,
      credits: outcome.credits,
      document: serialized,
      ...(outcome.search ? { search: outcome.search } : {}),
    });
    // A duplicate: another process that took the job over stored this page first; its result is the one kept.
    if (!stored.duplicate) events.pageStored(job, document);
    if (stored.resultSeq !== undefined) tasks.feed?.stored(stored.resultSeq, task.key, document.metadata);
    await checkStoreBudget(tasks, task, stored, documentBytes(serialized));
  } else {
    const failure: PageFailure = outcome.success
      ? verdict.reject!
      : {
          code: outcome.error.code,
          error: retried ? afterRetries(outcome.error.error, retried) : outcome.error.error,
          details: outcome.error.details,
        };
    const error = { url: redactUrl(task.url), error: failure.error, ...(failure.code ? { code: failure.code } : {}) };
    await events.pageFailed(job, redactUrl(sourceUrlOf(task)), failure, task.key);
    await complete({ key: task.key, credits: 0, error });
  }
  events.settled?.(job);
}

/** How many asks a page kept as its last 429/503 answer once its retries ran out had (`4 attempts over 7.2 s`). */
function attemptsOf({ retries, since }: Pick<Required<TaskRetries>, 'retries' | 'since'>): string {
  return `${retries + 1} attempts over ${secondsSince(since)} s`;
}

/**
 * A retried page's error, saying how many attempts it had over how long (`…reset (read ECONNRESET), after 4 attempts
 * over 7.2 s.`): its code stays the last attempt's.
 */
function afterRetries(error: string, { retries, since }: Pick<Required<TaskRetries>, 'retries' | 'since'>): string {
  return `${error.replace(/\.$/, '')}, after ${retries + 1} attempts over ${secondsSince(since)} s.`;
}

const secondsSince = (since: number): string => ((Date.now() - since) / 1000).toFixed(1);

/** Completes a settled task in the job's store (with the others settled in the same turn when the driver batches). */
function completeTask(tasks: JobTasks, outcome: TaskOutcome): Promise<TaskCompletion> {
  return tasks.complete?.(outcome) ?? tasks.store.tasks.complete(tasks.job.id, outcome);
}

/**
 * Rejects with `JOB_STORE_BUDGET_EXCEEDED` once the job's stored results pass `jobs.maxStoreBytes`; the page that
 * crossed it records the job error (the pages settling after it, already under way, are kept too).
 */
async function checkStoreBudget(tasks: JobTasks, task: Task, stored: TaskCompletion, bytes: number): Promise<void> {
  const max = tasks.ctx.options.jobs.maxStoreBytes;
  const total = stored.storedBytes;
  if (stored.duplicate || total === undefined || total <= max) return;
  const error = new CrawlkitError(
    'JOB_STORE_BUDGET_EXCEEDED',
    `The job stored ${total} bytes of results, past its budget of ${max} bytes (\`jobs.maxStoreBytes\`), so it ` +
      'was stopped; the pages stored so far are kept. Raise `jobs.maxStoreBytes` in `new Crawlkit()` for larger ' +
      'jobs, or narrow this one (`limit`, `includePaths`, `maxDiscoveryDepth`).',
  );
  // totals move atomically, so exactly one page's document takes the job across the budget
  if (total - bytes <= max) {
    await tasks.store.results.addError(tasks.job.id, {
      url: redactUrl(task.url),
      code: error.code,
      error: error.message,
    });
  }
  throw error;
}

/** Whether a task's rejection is the job's store budget: its runner ends the job failed. */
export function isStoreBudgetError(error: unknown): error is CrawlkitError {
  return isCrawlkitError(error) && error.code === 'JOB_STORE_BUDGET_EXCEEDED';
}

function sourceUrlOf(task: Task): string {
  const meta = task.meta ? taskMetaCodec.decode(task.meta) : {};
  return meta.sourceURL ?? task.url;
}
