import type { Store } from '@crawlkit/store';

import { deleteCrawlChanges } from '../changes/change-feed.js';

/**
 * Deletes the store's jobs whose results have expired (`expiresAt` past), with their rows and what crawlkit keeps of
 * them in the store's history (a crawl's changes, which would otherwise outlive it: one row per crawl of a
 * schedule). Returns their ids.
 */
export async function deleteExpiredJobs(store: Store, now = Date.now()): Promise<string[]> {
  const ids = await store.jobs.deleteExpired(now);
  await deleteCrawlChanges(store, ids);
  return ids;
}
