import { promisify } from 'node:util';
import { deflate as deflateCallback, inflate as inflateCallback } from 'node:zlib';

import { HostPoliteness } from '@crawlkit/frontier';
import type { JobRecord, Store, TaskInput } from '@crawlkit/store';

import type { PageScrapeRequest } from '../scrape/types.js';
import type { BatchScrapeRequest } from '../v2/jobs.js';
import type { JobPlanner } from './planner.js';
import { nextTurn } from '../next-turn.js';
import { checkV2Url } from '../v2/url.js';
import { decodeBacklog, storedJobOf, taskMetaCodec } from '../codec/records.js';
import { changeStoredJob } from './stored-job-writes.js';

/**
 * What a batch job keeps of its request: the shared scrape options and job settings, and for a long list the URLs
 * not yet written to the task table (`backlog`, keys numbered from `backlogFirst`) until the runner has added them.
 */
export type StoredBatchRequest = Omit<BatchScrapeRequest, 'urls' | 'ignoreInvalidURLs' | 'appendToId' | 'webhook'> & {
  /** The backlog of jobs stored before `backlogZ` (read as such); each checked URL is derived again when moved. */
  backlog?: (string | BatchUrl)[];
  /**
   * The backlog's URLs as sent, as a deflated JSON array in base64 (`packBacklog`): a 280,000-URL batch's job record is
   * ~1 MB instead of ~10 MB, and is compressed and expanded off the main thread (issue 38: every synchronous read and
   * write of a 10 MB record, and the checkpoints after it, held other requests).
   */
  backlogZ?: string;
  backlogFirst?: number;
};

/** A backlog of URLs (as sent) in the form `StoredBatchRequest.backlogZ` keeps; deflated in libuv's thread pool. */
export async function packBacklog(urls: readonly string[]): Promise<string> {
  return (await deflate(JSON.stringify(urls))).toString('base64');
}

async function unpackBacklog(packed: string): Promise<string[]> {
  return decodeBacklog((await inflate(Buffer.from(packed, 'base64'))).toString('utf8'));
}

/**
 * URLs written to the task table before `batchScrape()` answers; the rest goes in as one value with the job and is
 * moved to the task table by the runner in the background. Writing 10,000 task rows takes a few hundred
 * milliseconds, one value a millisecond or two.
 */
export const BATCH_FIRST_TASKS = 500;
const BACKLOG_CHUNK = 500;
const deflate = promisify(deflateCallback);
const inflate = promisify(inflateCallback);

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
    backlogZ: _backlogZ,
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

/** A backlog entry as a batch URL: the URL as sent, and the URL it was checked to (`checkV2Url` is deterministic). */
function backlogUrl(entry: string | BatchUrl): BatchUrl {
  if (typeof entry !== 'string') return entry;
  const check = checkV2Url(entry);
  return { url: check.ok ? check.url : entry, sourceURL: entry };
}

/**
 * Moves a job's backlog of URLs into the task table in chunks (keys are positions, so a chunk added twice after a
 * crash is de-duplicated), then drops it from the stored request. Stops early when the job is stopped; a cancelled
 * job's tasks added meanwhile are dropped again.
 */
async function addBacklog(store: Store, job: JobRecord, signal: AbortSignal): Promise<void> {
  const stored = storedJobOf<StoredBatchRequest>(job);
  const packed = stored.request.backlogZ;
  const backlog = packed !== undefined ? await unpackBacklog(packed) : stored.request.backlog;
  if (!backlog?.length) return;
  const first = stored.request.backlogFirst ?? 0;
  // The runner starts while batchScrape() is still answering: let the answer go out first.
  await nextTurn();
  for (let i = 0; i < backlog.length && !signal.aborted; i += BACKLOG_CHUNK) {
    const chunk = backlog.slice(i, i + BACKLOG_CHUNK).map(backlogUrl);
    await store.tasks.add(job.id, batchTasks(chunk, undefined, first + i));
    // Let the pages of other jobs run between chunks.
    await nextTurn();
  }
  const current = await store.jobs.get(job.id);
  if (!current) return;
  if (current.status === 'cancelled') await store.tasks.dropQueued(job.id);
  if (signal.aborted) return;
  await changeStoredJob<StoredBatchRequest>(store, job.id, (current) => {
    const { backlog, backlogZ, backlogFirst: _first, ...request } = current.request;
    return backlog === undefined && backlogZ === undefined ? undefined : { ...current, request };
  });
}

/**
 * A batch is a fixed list of tasks: no discovery, no politeness delay. A host that answers 429/503 rests as in a crawl
 * (`HostPoliteness.pause`): the batch's other pages of that host wait out its `Retry-After` too. Preparing moves a long
 * list's backlog into the task table (`job` and `store` are needed for that).
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
    politeness: new HostPoliteness(),
    prepare: async (signal) => {
      if (context && (request.backlog?.length || request.backlogZ))
        await addBacklog(context.store, context.job, signal);
      return [];
    },
    afterPage: () => Promise.resolve({ tasks: [] }),
  };
}
