/** `cache.prune()` and `cache.pruneHistory()`: the page cache by age and size, the change history by age. */
import type { Store } from '@crawlkit/store';

import { RECORD_TAG_PREFIX } from '../codec/history-record.js';
import { CrawlkitError } from '../errors.js';

/** A `maxAgeMs` as given, checked: a number of milliseconds, 0 or more. */
function maxAge<T extends number | undefined>(maxAgeMs: T): T {
  if (maxAgeMs !== undefined && !(typeof maxAgeMs === 'number' && maxAgeMs >= 0)) {
    throw new CrawlkitError('BAD_REQUEST', '`maxAgeMs` must be a number of milliseconds, 0 or more.');
  }
  return maxAgeMs;
}

/** Deletes cached pages older than `maxAgeMs`, then the oldest beyond `maxBytes`. Resolves to how many. */
export function prunePages(store: Store, maxBytes: number, maxAgeMs: number | undefined): Promise<number> {
  const olderThan = maxAge(maxAgeMs);
  return store.pages.prune({ maxBytes, ...(olderThan !== undefined ? { olderThan } : {}) });
}

/**
 * Deletes the change-tracking history of every (URL, tag) not scraped with the format for `maxAgeMs`: a page gone
 * from the site, or no longer tracked, leaves nothing behind. crawlkit's own records in the history (schedule runs,
 * monitors, a crawl lineage's last run) are kept: they go with what owns them. Nothing in a store of your own whose
 * history has no `prune`. Resolves to how many (URL, tag) went.
 */
export async function pruneHistory(store: Store, maxAgeMs: number | undefined): Promise<number> {
  const age = maxAge(maxAgeMs);
  if (age === undefined) {
    throw new CrawlkitError(
      'BAD_REQUEST',
      '`maxAgeMs` is required: the history of pages not scraped for that long goes.',
    );
  }
  if (!store.history.prune) return 0;
  return store.history.prune({ before: Date.now() - age, except: [RECORD_TAG_PREFIX] });
}
