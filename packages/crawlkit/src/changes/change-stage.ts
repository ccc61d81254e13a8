import type { JobRecord, Store, Task } from '@crawlkit/store';
import { LRUCache } from 'lru-cache';

import type { ScrapeStage } from '../scrape/scrape-state.js';
import { feedOf, loadBaseline, pageChange, type Baseline } from './change-feed.js';
import { extractionContentHash } from './main-content-hash.js';

/** Baselines of the crawls running here, loaded once per job and process. */
const baselines = new LRUCache<string, Promise<Baseline>>({ max: 64 });

function baselineOf(store: Store, job: JobRecord, lineage: string): Promise<Baseline> {
  let baseline = baselines.get(job.id);
  if (!baseline) {
    baseline = loadBaseline(store, lineage);
    baselines.set(job.id, baseline);
    // A failed read is not kept: the next page reads again.
    baseline.catch(() => baselines.delete(job.id));
  }
  return baseline;
}

/**
 * The rule a change feed sets on the page cache, before its lookup: a cached copy answers only once the site confirms
 * it (a `304` to its validators), whatever its age, as for the `changeTracking` format. A copy served by its age may
 * predate a change however recent it is (another job's fetch right after the last run), and the feed would report
 * `same`; with the v2 default `maxAge` (two days) it reported `same` for pages that had changed. Not with `minAge` or
 * `lockdown`, which ask for the cache itself.
 */
export function changeFeedCacheStage(job: JobRecord): ScrapeStage | undefined {
  if (!feedOf(job)) return undefined;
  return {
    name: 'change-feed-cache',
    run(state) {
      const { request, cache } = state;
      if (!cache.readable || request.minAge !== undefined || request.lockdown) return;
      cache.readable = false;
      cache.revalidateOnly = true;
    },
  };
}

/**
 * The page's place in its crawl's change feed, last of its stages: the hash of its main content and how it compares
 * with the lineage's previous completed run (`metadata.contentHash`, `metadata.crawlChange`). Only for crawls with
 * a feed; the store failing here is the job's failure, not the page's.
 */
export function changeFeedStage(store: Store, job: JobRecord, task: Task): ScrapeStage | undefined {
  const feed = feedOf(job);
  if (!feed) return undefined;
  return {
    name: 'change-feed',
    failures: 'caller',
    async run(state) {
      const { document, extraction } = state;
      if (!document || !extraction) return;
      const baseline = await baselineOf(store, job, feed.lineage);
      const hash = extractionContentHash(extraction, state.contentHash);
      const { sourceURL, url } = document.metadata;
      const key = feed.pageKey(task.key, sourceURL, url);
      const change = pageChange(baseline, key, hash, document.metadata.statusCode, state.softNotFound);
      // The page as fetched is the one its change tracking kept last, with the same options: a new hash is the
      // extractor's (an upgrade), not the page's.
      if (change) document.metadata.crawlChange = change === 'changed' && state.sourceUnchanged ? 'same' : change;
      // Only a version of the page has a hash (`new`, `changed`, `same`): a page gone (404, 410, a soft 404) or an
      // error answer is none, so the run does not keep it, and the page back reads `new`.
      if (change !== undefined && change !== 'removed') document.metadata.contentHash = hash;
    },
  };
}
