import type { TaskInput } from '@crawlkit/cache';

import type { PageScrapeRequest } from '../scrape/scrape-page.js';
import type { BatchScrapeRequest } from '../v2/jobs.js';
import type { JobPlanner, TaskMeta } from './runner.js';

/** What a batch job keeps of its request: the shared scrape options and job settings (never the URL list). */
export type StoredBatchRequest = Omit<BatchScrapeRequest, 'urls' | 'ignoreInvalidURLs' | 'appendToId' | 'webhook'>;

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
export function batchTasks(urls: readonly BatchUrl[], prefix?: string): TaskInput[] {
  const tasks = new Array<TaskInput>(urls.length);
  for (let i = 0; i < urls.length; i++) {
    const { url, sourceURL } = urls[i]!;
    const task: TaskInput = { key: prefix === undefined ? String(i) : `${prefix}:${i}`, url, depth: 0 };
    if (sourceURL !== url) task.meta = JSON.stringify({ sourceURL } satisfies TaskMeta);
    tasks[i] = task;
  }
  return tasks;
}

/** A batch is a fixed list of tasks: nothing to prepare, no discovery, no politeness delay. */
export function createBatchPlanner(request: StoredBatchRequest, engineConcurrency: number): JobPlanner {
  return {
    scrapeOptions: batchScrapeOptions(request),
    concurrency: Math.min(request.maxConcurrency ?? engineConcurrency, engineConcurrency),
    collectsLinks: false,
    zeroDataRetention: request.zeroDataRetention,
    prepare: () => Promise.resolve([]),
    delayBefore: () => 0,
    afterPage: () => Promise.resolve({ tasks: [] }),
  };
}
