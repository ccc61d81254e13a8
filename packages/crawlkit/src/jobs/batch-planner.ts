import type { TaskInput } from '@crawlkit/cache';

import type { PageScrapeRequest } from '../scrape/scrape-page.js';
import type { BatchScrapeRequest } from '../v2/jobs.js';
import type { JobPlanner, TaskMeta } from './runner.js';

/** What a batch job keeps of its request: the shared scrape options and job settings. */
export type StoredBatchRequest = Omit<BatchScrapeRequest, 'urls' | 'ignoreInvalidURLs' | 'appendToId'>;

/** Scrape options of a batch request (the job settings stripped). */
export function batchScrapeOptions(request: StoredBatchRequest): Omit<PageScrapeRequest, 'url'> {
  const {
    webhook: _webhook,
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
 * endpoint does. `first` numbers the tasks of an appended list after the existing ones.
 */
export function batchTasks(urls: readonly { url: string; sourceURL: string }[], first: number): TaskInput[] {
  return urls.map(({ url, sourceURL }, i) => {
    const meta: TaskMeta = {};
    if (sourceURL !== url) meta.sourceURL = sourceURL;
    const task: TaskInput = { key: String(first + i), url, depth: 0 };
    if (meta.sourceURL !== undefined) task.meta = JSON.stringify(meta);
    return task;
  });
}

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
