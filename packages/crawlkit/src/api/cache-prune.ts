/** `ck.cache`: the page cache cleared, or pruned by age and size; the change history pruned by age. */
import type { Store } from '@crawlkit/store';

import type { CallOptions } from '../call-options.js';
import { RECORD_TAG_PREFIX } from '../codec/history-record.js';
import { CrawlkitError } from '../errors.js';
import type { ErrorResponse } from '../v2/types.js';

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

/** Runs a cache call on the engine's store; what it throws comes back in the v2 error shape. */
export type CacheGuard = <T>(init: CallOptions, fn: (store: Store) => Promise<T>) => Promise<T | ErrorResponse>;

/** The page cache (`ck.cache`). A damaged store answers `STORE_CORRUPT` here too. */
export interface CacheMethods {
  /** Deletes every cached page. Resolves to undefined, or to the v2 error shape. */
  clear(init?: CallOptions): Promise<ErrorResponse | undefined>;
  /** Deletes pages older than `maxAgeMs` and the oldest beyond the size cap. Resolves to how many. */
  prune(options?: { maxAgeMs?: number }, init?: CallOptions): Promise<number | ErrorResponse>;
  /**
   * Deletes the change history (the `changeTracking` format's last version) of every page not scraped with it for
   * `maxAgeMs`, as the site's URLs come and go. Resolves to how many pages' histories (per tag) went.
   */
  pruneHistory(options: { maxAgeMs: number }, init?: CallOptions): Promise<number | ErrorResponse>;
}

/** `ck.cache` on the engine's store (through `guard`), its pages capped at `maxBytes()` (`cacheMaxBytes`). */
export function cacheMethods(guard: CacheGuard, maxBytes: () => number): CacheMethods {
  return {
    clear: async (init = {}) => (await guard(init, (store) => store.pages.clear())) ?? undefined,
    prune: (options = {}, init = {}) => guard(init, (store) => prunePages(store, maxBytes(), (options ?? {}).maxAgeMs)),
    pruneHistory: (options, init = {}) => guard(init, (store) => pruneHistory(store, options?.maxAgeMs)),
  };
}
