import type { JobRecord, Store, Task } from '@crawlkit/store';
import { LRUCache } from 'lru-cache';

import type { ScrapeStage } from '../scrape/scrape-state.js';
import { feedOf, loadBaseline, mainContentHash, pageChange, type Baseline } from './change-feed.js';

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
      const hash = state.contentHash ?? mainContentHash(extraction.markdown ?? '');
      document.metadata.contentHash = hash;
      const change = pageChange(baseline, task.key, hash, document.metadata.statusCode);
      if (change) document.metadata.crawlChange = change;
    },
  };
}
