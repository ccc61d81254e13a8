/**
 * The change feed of a crawl (issue 41): each page against the previous completed run of the crawl's lineage (its
 * `tag`, else the same seed and options, per tenant). A page's main content is hashed where it is extracted
 * (`metadata.contentHash`) and compared with the lineage's last run; when the crawl completes, its pages become the
 * lineage's run and the pages of the last run it did not store are its `removed` ones. Both records live in the
 * store's history (`HistoryStore`), which outlives the jobs and their results.
 */
import { createHash } from 'node:crypto';

import type { JobRecord, Store } from '@crawlkit/store';

import { historyRecord } from '../codec/history-record.js';
import { hasCrawlkitCode } from '../errors.js';
import { pageGone, scrapeReadsGone } from '../scrape/page-status.js';
import { crawlChangesCodec, lineageRunCodec, storedJobOf } from '../codec/records.js';
import { crawlKey } from '../jobs/crawl-planner.js';
import { storedDocuments } from '../jobs/stored-results.js';
import type { CrawlRequest } from '../v2/jobs.js';
import type { CrawlChange } from '../v2/types.js';
import type { FeedPage, FeedPages } from './feed-pages.js';

/** The two records: a lineage's last completed run (by lineage) and a completed crawl's changes (by job). */
const lineageRun = historyRecord('crawlkit:crawl-lineage', lineageRunCodec);
const crawlChanges = historyRecord('crawlkit:crawl-changes', crawlChangesCodec);

/** What the feed compares against: the lineage's last completed run, by crawl key. */
export interface Baseline {
  jobId: string | null;
  pages: Map<string, { url: string; hash: string }>;
}

/** Whether a crawl reports changes. */
export function hasChangeFeed(request: Pick<CrawlRequest, 'changes' | 'tag'>): boolean {
  return request.changes || request.tag !== undefined;
}

/**
 * The lineage of a crawl: its tenant and its `tag`, else its tenant, seed and every option that decides which pages
 * it visits and what it extracts (not its webhook, origin or integration).
 */
export function lineageOf(request: CrawlRequest, tenant: string | undefined): string {
  if (request.tag !== undefined) return tagLineage(request.tag, tenant);
  const owner = tenant ?? '';
  const {
    webhook: _webhook,
    origin: _origin,
    integration: _integration,
    changes: _changes,
    tag: _tag,
    scrapeOptions,
    ...options
  } = request;
  // Header values are sealed in the stored request (a new nonce each job): their names make the lineage.
  const headers = Object.keys(scrapeOptions.headers ?? {}).sort();
  const identity = { ...options, scrapeOptions: { ...scrapeOptions, headers } };
  const digest = createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
  return `options:${owner}:${digest}`;
}

/** The lineage of the crawls of a tenant with a `tag`. */
export function tagLineage(tag: string, tenant: string | undefined): string {
  return `tag:${tenant ?? ''}:${tag}`;
}

/** Deletes a lineage's last run: its next crawl is compared with nothing (every page `new`). */
export async function deleteLineage(store: Store, lineage: string): Promise<void> {
  await lineageRun.delete(store, lineage);
}

/** The lineage's last completed run, or an empty baseline for its first. */
export async function loadBaseline(store: Store, lineage: string): Promise<Baseline> {
  const run = await readLineageRun(store, lineage);
  if (!run) return { jobId: null, pages: new Map() };
  return { jobId: run.jobId, pages: new Map(run.pages.map(([key, url, hash]) => [key, { url, hash }])) };
}

/**
 * The lineage's last run, or undefined when there is none or it cannot be read (damaged, or written by a newer
 * crawlkit): the crawl is then compared with nothing, and its run, once completed, is the lineage's. Thrown, the
 * record's `STORE_RECORD_INVALID` left each crawl of the lineage `scraping` for good, its first page never finished.
 */
async function readLineageRun(store: Store, lineage: string) {
  try {
    return await lineageRun.read(store, lineage);
  } catch (error) {
    if (hasCrawlkitCode(error) && error.code === 'STORE_RECORD_INVALID') return undefined;
    throw error;
  }
}

/**
 * How a page of this run compares with the baseline: a 404 or 410, or a page that says it is gone (`softNotFound`,
 * `scrapeReadsGone`), is a page gone (`removed`, when the baseline had it); any other error status (a 500, a 403, a
 * 429 the retries did not pass) says nothing of the page, and has no change, as the `changeTracking` format gives no
 * result for it.
 */
export function pageChange(
  baseline: Baseline,
  key: string,
  hash: string,
  statusCode: number,
  softNotFound?: boolean,
): CrawlChange | undefined {
  const previous = baseline.pages.get(key);
  if (scrapeReadsGone(statusCode, softNotFound)) return previous ? 'removed' : undefined;
  if (statusCode >= 400) return undefined;
  if (!previous) return 'new';
  return previous.hash === hash ? 'same' : 'changed';
}

/** A crawl's change feed: its lineage, and the key of each page in the lineage's runs. */
export interface Feed {
  lineage: string;
  /**
   * The key of a page in the runs: the crawl key of the URL it ended at (`metadata.url`). A crawl stores a page
   * reached under two URLs (a redirect and its target) once, under the URL it fetched first, and which one that is
   * changes from run to run with the site's links and the order of the responses; keyed by the URL asked for (the
   * task's key), an unchanged page was `new` under one URL and `removed` under the other.
   */
  pageKey(taskKey: string, sourceURL: string, url: string | undefined): string;
}

/**
 * The URL a page goes by in a change feed and a monitor's check: the URL it ended at (`metadata.url`), as its key
 * (`Feed.pageKey`). By the URL asked for, a page that began to redirect was `new` and `removed` under the same URL,
 * and a schedule's webhook, whose event ids are derived from the URL, sent only one of the two.
 */
export function feedUrl(metadata: { sourceURL: string; url?: string | undefined }): string {
  return metadata.url ?? metadata.sourceURL;
}

/** The lineage of a crawl job, when it has a change feed. */
export function feedOf(job: JobRecord): Feed | undefined {
  if (job.kind !== 'crawl') return undefined;
  const stored = storedJobOf<CrawlRequest>(job);
  if (!hasChangeFeed(stored.request)) return undefined;
  // Asked twice a page: a lineage by options hashes the whole request.
  let feed = feeds.get(stored);
  if (!feed) {
    const { request } = stored;
    feed = {
      lineage: lineageOf(request, stored.tenant),
      // A crawl's task is keyed by its URL, which is the page's sourceURL: a page that did not move keeps it.
      pageKey: (taskKey, sourceURL, url) => (url === undefined || url === sourceURL ? taskKey : crawlKey(url, request)),
    };
    feeds.set(stored, feed);
  }
  return feed;
}

/** Each decoded stored job's feed (`storedJobOf` decodes a job's request text once). */
const feeds = new WeakMap<object, Feed>();

/**
 * Closes a completed crawl's feed: its stored pages (with a content hash, under an error status), and those answering
 * an error other than 404/410 as the baseline had them, become the lineage's run, and the pages of the previous run it
 * did not store are kept as its `removed` ones. Called before the job is marked completed; closing it again after a
 * crash keeps what the first close wrote. `stored`: what this process kept of the results as it stored them
 * (`FeedPages`).
 */
export async function finishChangeFeed(store: Store, job: JobRecord, stored?: FeedPages): Promise<void> {
  const feed = feedOf(job);
  if (!feed) return;
  const baseline = await loadBaseline(store, feed.lineage);
  const pages = new Map<string, [string, string, string]>();
  const seen = new Set<string>();
  const carried: string[] = [];
  for await (const page of storedPages(store, job.id, stored)) {
    const key = feed.pageKey(page.key, page.url, page.finalUrl);
    seen.add(key);
    // Named by the URL it ended at, as its key: a page that moved is `removed` under the URL it had.
    if (page.contentHash !== undefined && page.statusCode < 400) {
      pages.set(key, [key, page.finalUrl ?? page.url, page.contentHash]);
    } else if (page.statusCode >= 400 && !pageGone(page.statusCode)) carried.push(key);
  }
  // A page answering an error that says nothing of it keeps its last version: the page back is compared with that,
  // not `new` (on the day of a 500 it was `removed`, and `new` the day after).
  for (const key of carried) {
    const previous = baseline.pages.get(key);
    if (previous && !pages.has(key)) pages.set(key, [key, previous.url, previous.hash]);
  }
  const present = (key: string) => pages.has(key) || seen.has(key);
  const now = Date.now();
  // Closed again after a crash between the two writes: the first record stands, the lineage is written once.
  if (!(await completedChanges(store, job.id))) {
    // A page answering 404 or 410 now is reported `removed` in its own document; the rest are listed here.
    const removed = [...baseline.pages].filter(([key]) => !present(key)).map(([, page]) => page.url);
    await crawlChanges.write(store, job.id, { lineage: feed.lineage, previousJobId: baseline.jobId, removed }, now);
  }
  if (baseline.jobId === job.id) return;
  await lineageRun.write(store, feed.lineage, { jobId: job.id, completedAt: now, pages: [...pages.values()] }, now);
}

/**
 * A completed crawl's results, in order, as the feed needs them: from what this process kept as it stored them
 * (`FeedPages`) when that is all of them, else read back from the store and parsed.
 */
async function* storedPages(store: Store, jobId: string, stored: FeedPages | undefined): AsyncGenerator<FeedPage> {
  // Counted only when something was kept: a resumed job or a Redis worker reads the documents anyway.
  const kept = stored && stored.all(await store.results.count(jobId));
  if (kept) return yield* kept;
  for await (const { key, document } of storedDocuments(store, jobId)) {
    const { metadata } = document;
    yield {
      key,
      url: metadata.sourceURL,
      finalUrl: metadata.url,
      statusCode: metadata.statusCode,
      contentHash: metadata.contentHash,
    };
  }
}

/** Deletes the changes kept for crawls whose jobs are gone. */
export async function deleteCrawlChanges(store: Store, jobIds: readonly string[]): Promise<void> {
  for (const id of jobIds) await crawlChanges.delete(store, id);
}

/** What a completed crawl kept of its feed: the run compared against and the pages removed; undefined before. */
export async function completedChanges(
  store: Store,
  jobId: string,
): Promise<{ previousJobId: string | null; removed: string[] } | undefined> {
  const changes = await crawlChanges.read(store, jobId);
  return changes && { previousJobId: changes.previousJobId, removed: changes.removed };
}
