import type { JobRecord, Store, TaskInput } from '@crawlkit/store';

import type { PageScrapeRequest } from '../scrape/types.js';
import type { BatchScrapeRequest } from '../v2/jobs.js';
import type { JobPlanner } from './planner.js';
import { nextTurn } from '../next-turn.js';
import { storedJobCodec, storedJobOf, taskMetaCodec } from '../codec/records.js';

/**
 * What a batch job keeps of its request: the shared scrape options and job settings, and for a long list the URLs
 * not yet written to the task table (`backlog`, keys numbered from `backlogFirst`) until the runner has added them.
 */
export type StoredBatchRequest = Omit<BatchScrapeRequest, 'urls' | 'ignoreInvalidURLs' | 'appendToId' | 'webhook'> & {
  backlog?: BatchUrl[];
  backlogFirst?: number;
};

/**
 * URLs written to the task table before `batchScrape()` answers; the rest goes in as one value with the job and is
 * moved to the task table by the runner in the background. Writing 10,000 task rows takes a few hundred
 * milliseconds, one value a millisecond or two.
 */
export const BATCH_FIRST_TASKS = 500;
const BACKLOG_CHUNK = 2_000;

/** One URL of a batch: the URL to fetch and `metadata.sourceURL` (the URL exactly as sent). */
export interface BatchUrl {
  url: string;
  sourceURL: string;
}

/** Scrape options of a batch request (the job settings stripped). */
export function batchScrapeOptions(request: StoredBatchRequest): Omit<PageScrapeRequest, 'url'> {
  const {
    maxConcurrency: _maxConcurrency,
    zeroDataRetention: _zdr,
    origin: _origin,
    integration: _integration,
    backlog: _backlog,
    backlogFirst: _backlogFirst,
    ...options
  } = request;
  return options;
}

/**
 * One task per URL, in the order given; duplicates are scraped as often as they are listed, as the v2 batch
 * endpoint does. Keys are the position in the list, prefixed by `prefix` for an appended list so they never collide
 * with the job's earlier keys. The URLs live in the store's task table from here on: the runner claims them in
 * order and nothing keeps the list in memory.
 */
export function batchTasks(urls: readonly BatchUrl[], prefix?: string, first = 0): TaskInput[] {
  const tasks = new Array<TaskInput>(urls.length);
  for (let i = 0; i < urls.length; i++) {
    const { url, sourceURL } = urls[i]!;
    const n = first + i;
    const task: TaskInput = { key: prefix === undefined ? String(n) : `${prefix}:${n}`, url, depth: 0 };
    if (sourceURL !== url) task.meta = taskMetaCodec.encode({ sourceURL });
    tasks[i] = task;
  }
  return tasks;
}

/**
 * Moves a job's backlog of URLs into the task table in chunks (keys are positions, so a chunk added twice after a
 * crash is de-duplicated), then drops it from the stored request. Stops early when the job is stopped; a cancelled
 * job's tasks added meanwhile are dropped again.
 */
async function addBacklog(store: Store, job: JobRecord, signal: AbortSignal): Promise<void> {
  const stored = storedJobOf<StoredBatchRequest>(job);
  const backlog = stored.request.backlog;
  if (!backlog?.length) return;
  const first = stored.request.backlogFirst ?? 0;
  // The runner starts while batchScrape() is still answering: let the answer go out first.
  await nextTurn();
  for (let i = 0; i < backlog.length && !signal.aborted; i += BACKLOG_CHUNK) {
    await store.tasks.add(job.id, batchTasks(backlog.slice(i, i + BACKLOG_CHUNK), undefined, first + i));
    // Let the pages of other jobs run between chunks.
    await nextTurn();
  }
  const current = await store.jobs.get(job.id);
  if (!current) return;
  if (current.status === 'cancelled') await store.tasks.dropQueued(job.id);
  if (signal.aborted) return;
  const { backlog: _backlog, backlogFirst: _first, ...request } = stored.request;
  await store.jobs.update(job.id, { request: storedJobCodec.encode({ ...stored, request }) });
}

/**
 * A batch is a fixed list of tasks: no discovery, no politeness delay. Preparing moves a long list's backlog into
 * the task table (`job` and `store` are needed for that).
 */
export function createBatchPlanner(
  request: StoredBatchRequest,
  engineConcurrency: number,
  context?: { store: Store; job: JobRecord },
): JobPlanner {
  return {
    scrapeOptions: batchScrapeOptions(request),
    concurrency: Math.min(request.maxConcurrency ?? engineConcurrency, engineConcurrency),
    collectsLinks: false,
    zeroDataRetention: request.zeroDataRetention,
    prepare: async (signal) => {
      if (context && request.backlog?.length) await addBacklog(context.store, context.job, signal);
      return [];
    },
    afterPage: () => Promise.resolve({ tasks: [] }),
  };
}
